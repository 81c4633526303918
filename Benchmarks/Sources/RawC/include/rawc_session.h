#ifndef RAWC_SESSION_H
#define RAWC_SESSION_H

// The raw C API baseline for changesets (rawc_session.c): SQLite's session extension called directly. It needs
// an SQLite built with SQLITE_ENABLE_SESSION and SQLITE_ENABLE_PREUPDATE_HOOK (Debian's is).

#include "rawc.h"

/// rawc_insert_mixed while a session records every table; *out receives the changeset (free it with
/// rawc_free_changeset) and *out_size its size.
int rawc_insert_mixed_recorded(sqlite3 *db, const rawc_mixed *rows, int count, void **out, int *out_size);

/// Records `sql` (run in one transaction) in a session; *out receives the changeset, *out_size its size.
int rawc_record(sqlite3 *db, const char *sql, void **out, int *out_size);

/// Inverts the changeset and applies the inverse to `db` with sqlite3changeset_apply_v2, aborting at any conflict.
int rawc_invert_apply(sqlite3 *db, const void *changeset, int size);

void rawc_free_changeset(void *changeset);

#endif
