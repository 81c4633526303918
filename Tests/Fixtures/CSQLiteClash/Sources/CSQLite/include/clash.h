#ifndef CLASH_H
#define CLASH_H
/// A function of this fixture's own `CSQLite` target, to show that both modules are linked.
int clash_answer(void);
#endif
