#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/// Turns off double-quoted string literals (https://www.sqlite.org/quirks.html#dblquote) on a connection, so
/// that a quoted identifier naming no column is an error instead of silently becoming a string. Swift cannot
/// call the variadic sqlite3_db_config itself. The options exist since SQLite 3.29.0; older versions keep the
/// legacy behaviour.
static inline int csqlite_disable_double_quoted_strings(sqlite3 *db) {
#ifdef SQLITE_DBCONFIG_DQS_DDL
    int code = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
    if (code != SQLITE_OK) return code;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
#else
    (void)db;
    return SQLITE_OK;
#endif
}
#endif
