#ifndef CSQLITESWIFTLY_SHIM_H
#define CSQLITESWIFTLY_SHIM_H
#include <sqlite3.h>
#include <dlfcn.h>

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

/// Turns foreign-key enforcement on or off (https://www.sqlite.org/foreignkeys.html), as `PRAGMA foreign_keys`
/// does, and stores in `*enabled` whether it is on afterwards. Like the pragma, it does nothing inside a
/// transaction: the caller compares `*enabled` with what it asked for.
static inline int csqlite_enforce_foreign_keys(sqlite3 *db, int on, int *enabled) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FKEY, on, enabled);
}

/// Whether foreign keys are enforced on the connection now.
static inline int csqlite_foreign_keys_enforced(sqlite3 *db) {
    int enabled = 0;
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FKEY, -1, &enabled);
    return enabled;
}

typedef const char *(*csqlite_column_table_name_function)(sqlite3_stmt *, int);

/// The table a result column comes from, or NULL when it is an expression or SQLite was built without
/// `SQLITE_ENABLE_COLUMN_METADATA`. `sqlite3_column_table_name` exists only in such builds, so it is looked up
/// at run time instead of linked: the library links against every SQLite. Used for error messages only.
static inline const char *csqlite_column_table_name(sqlite3_stmt *statement, int column) {
    static csqlite_column_table_name_function function;
    static int looked_up;
    if (!__atomic_load_n(&looked_up, __ATOMIC_ACQUIRE)) {
        csqlite_column_table_name_function found =
            (csqlite_column_table_name_function)dlsym(RTLD_DEFAULT, "sqlite3_column_table_name");
        __atomic_store_n(&function, found, __ATOMIC_RELAXED);
        __atomic_store_n(&looked_up, 1, __ATOMIC_RELEASE);
    }
    csqlite_column_table_name_function call = __atomic_load_n(&function, __ATOMIC_RELAXED);
    return call ? call(statement, column) : 0;
}

typedef const char *(*csqlite_column_origin_name_function)(sqlite3_stmt *, int);

/// The column of its table that a result column reads, or NULL when it is an expression or SQLite was built
/// without `SQLITE_ENABLE_COLUMN_METADATA`. Looked up at run time, as `csqlite_column_table_name` is; a joined
/// row assigns each result column to a model by this name and its table.
static inline const char *csqlite_column_origin_name(sqlite3_stmt *statement, int column) {
    static csqlite_column_origin_name_function function;
    static int looked_up;
    if (!__atomic_load_n(&looked_up, __ATOMIC_ACQUIRE)) {
        csqlite_column_origin_name_function found =
            (csqlite_column_origin_name_function)dlsym(RTLD_DEFAULT, "sqlite3_column_origin_name");
        __atomic_store_n(&function, found, __ATOMIC_RELAXED);
        __atomic_store_n(&looked_up, 1, __ATOMIC_RELEASE);
    }
    csqlite_column_origin_name_function call = __atomic_load_n(&function, __ATOMIC_RELAXED);
    return call ? call(statement, column) : 0;
}

/// `sqlite3_column_value`, declared to return a non-null pointer so that Swift reads it without a nil check.
/// SQLite never returns NULL here: for a column out of range, or a statement with no current row, it returns a
/// static NULL value (and it reads that value's flags before returning, so a null pointer could not get out).
static inline sqlite3_value *_Nonnull csqlite_column_value(sqlite3_stmt *_Nonnull statement, int column) {
    return sqlite3_column_value(statement, column);
}

#define CSQLITE_IDENTITY_4(n) (n), (n) + 1, (n) + 2, (n) + 3
#define CSQLITE_IDENTITY_16(n) \
    CSQLITE_IDENTITY_4(n), CSQLITE_IDENTITY_4((n) + 4), CSQLITE_IDENTITY_4((n) + 8), CSQLITE_IDENTITY_4((n) + 12)
#define CSQLITE_IDENTITY_64(n) \
    CSQLITE_IDENTITY_16(n), CSQLITE_IDENTITY_16((n) + 16), CSQLITE_IDENTITY_16((n) + 32), \
    CSQLITE_IDENTITY_16((n) + 48)
#define CSQLITE_IDENTITY_256(n) \
    CSQLITE_IDENTITY_64(n), CSQLITE_IDENTITY_64((n) + 64), CSQLITE_IDENTITY_64((n) + 128), \
    CSQLITE_IDENTITY_64((n) + 192)
#define CSQLITE_IDENTITY_1024(n) \
    CSQLITE_IDENTITY_256(n), CSQLITE_IDENTITY_256((n) + 256), CSQLITE_IDENTITY_256((n) + 512), \
    CSQLITE_IDENTITY_256((n) + 768)

/// The number of entries of `csqlite_identity_columns`: SQLite's default column limit (2000), rounded up.
#define CSQLITE_IDENTITY_COLUMNS 2048

/// 0, 1, 2... 2047, in read-only memory: the column map of every statement whose result columns are its row
/// type's, in order, so that mapping one allocates nothing.
static inline const int *_Nonnull csqlite_identity_columns(void) {
    static const int identity[CSQLITE_IDENTITY_COLUMNS] = {
        CSQLITE_IDENTITY_1024(0), CSQLITE_IDENTITY_1024(1024)
    };
    return identity;
}

#endif
