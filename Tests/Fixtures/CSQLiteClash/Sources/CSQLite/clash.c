#include "clash.h"

int clash_answer(void) { return 42; }
