#ifndef CSQLITESWIFTLY_SHIM_H
#define CSQLITESWIFTLY_SHIM_H
#include <sqlite3.h>
#include <dlfcn.h>
#include <string.h>

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

/* SQLite's session extension (changesets), looked up at run time. */

/// The session extension's objects (`sqlite3_session`, `sqlite3_changeset_iter` and `sqlite3_changegroup` in
/// `sqlite3.h`, which declares them only when compiled with `SQLITE_ENABLE_SESSION`), under names of our own so
/// that this header compiles against every `sqlite3.h`. See <https://www.sqlite.org/session/intro.html>.
typedef struct csqlite_session csqlite_session;
typedef struct csqlite_changeset_iter csqlite_changeset_iter;
typedef struct csqlite_changegroup csqlite_changegroup;

/// The session extension's constants, which `sqlite3.h` also declares only with `SQLITE_ENABLE_SESSION`.
#define CSQLITE_CHANGESET_DATA 1
#define CSQLITE_CHANGESET_NOTFOUND 2
#define CSQLITE_CHANGESET_CONFLICT 3
#define CSQLITE_CHANGESET_CONSTRAINT 4
#define CSQLITE_CHANGESET_FOREIGN_KEY 5
#define CSQLITE_CHANGESET_OMIT 0
#define CSQLITE_CHANGESET_REPLACE 1
#define CSQLITE_CHANGESET_ABORT 2

/// The session functions the library uses, found in the loaded SQLite at run time (`dlsym`) rather than linked,
/// as `sqlite3_column_table_name` is above: a build of SQLite without the extension (`SQLITE_ENABLE_SESSION` and
/// `SQLITE_ENABLE_PREUPDATE_HOOK`) then still links, and the library reports the extension missing when a
/// changeset is first asked for. Each field has the signature documented for the function it is named after.
typedef struct {
    int (*_Nonnull session_create)(sqlite3 *, const char *, csqlite_session **);
    void (*_Nonnull session_delete)(csqlite_session *);
    int (*_Nonnull session_attach)(csqlite_session *, const char *);
    void (*_Nonnull session_table_filter)(csqlite_session *, int (*)(void *, const char *), void *);
    int (*_Nonnull session_changeset)(csqlite_session *, int *, void **);
    int (*_Nonnull session_patchset)(csqlite_session *, int *, void **);
    int (*_Nonnull changeset_invert)(int, const void *, int *, void **);
    int (*_Nonnull changeset_start)(csqlite_changeset_iter **, int, void *);
    int (*_Nonnull changeset_next)(csqlite_changeset_iter *);
    int (*_Nonnull changeset_op)(csqlite_changeset_iter *, const char **, int *, int *, int *);
    int (*_Nonnull changeset_pk)(csqlite_changeset_iter *, unsigned char **, int *);
    int (*_Nonnull changeset_old)(csqlite_changeset_iter *, int, sqlite3_value **);
    int (*_Nonnull changeset_new)(csqlite_changeset_iter *, int, sqlite3_value **);
    int (*_Nonnull changeset_conflict)(csqlite_changeset_iter *, int, sqlite3_value **);
    int (*_Nonnull changeset_fk_conflicts)(csqlite_changeset_iter *, int *);
    int (*_Nonnull changeset_finalize)(csqlite_changeset_iter *);
    int (*_Nonnull changeset_apply_v2)(
        sqlite3 *, int, void *, int (*)(void *, const char *), int (*)(void *, int, csqlite_changeset_iter *),
        void *, void **, int *, int);
    int (*_Nonnull changegroup_new)(csqlite_changegroup **);
    int (*_Nonnull changegroup_add)(csqlite_changegroup *, int, void *);
    int (*_Nonnull changegroup_output)(csqlite_changegroup *, int *, void **);
    void (*_Nonnull changegroup_delete)(csqlite_changegroup *);
} csqlite_session_api;

/// Fills `api` with the session functions of the loaded SQLite and returns 1, or returns 0 when any is missing
/// (`api` is then partly filled and must not be used). `absent`, when not NULL, names a function to treat as
/// missing: the tests' stand-in for an SQLite built without the extension. Nothing is cached here: the caller
/// keeps the result.
static inline int csqlite_load_session_api(csqlite_session_api *api, const char *absent) {
#define CSQLITE_FIND(field, name)                                                    \
    do {                                                                             \
        void *found = (absent && strcmp(absent, name) == 0) ? 0 : dlsym(RTLD_DEFAULT, name); \
        if (!found) return 0;                                                        \
        *(void **)&api->field = found;                                               \
    } while (0)
    CSQLITE_FIND(session_create, "sqlite3session_create");
    CSQLITE_FIND(session_delete, "sqlite3session_delete");
    CSQLITE_FIND(session_attach, "sqlite3session_attach");
    CSQLITE_FIND(session_table_filter, "sqlite3session_table_filter");
    CSQLITE_FIND(session_changeset, "sqlite3session_changeset");
    CSQLITE_FIND(session_patchset, "sqlite3session_patchset");
    CSQLITE_FIND(changeset_invert, "sqlite3changeset_invert");
    CSQLITE_FIND(changeset_start, "sqlite3changeset_start");
    CSQLITE_FIND(changeset_next, "sqlite3changeset_next");
    CSQLITE_FIND(changeset_op, "sqlite3changeset_op");
    CSQLITE_FIND(changeset_pk, "sqlite3changeset_pk");
    CSQLITE_FIND(changeset_old, "sqlite3changeset_old");
    CSQLITE_FIND(changeset_new, "sqlite3changeset_new");
    CSQLITE_FIND(changeset_conflict, "sqlite3changeset_conflict");
    CSQLITE_FIND(changeset_fk_conflicts, "sqlite3changeset_fk_conflicts");
    CSQLITE_FIND(changeset_finalize, "sqlite3changeset_finalize");
    CSQLITE_FIND(changeset_apply_v2, "sqlite3changeset_apply_v2");
    CSQLITE_FIND(changegroup_new, "sqlite3changegroup_new");
    CSQLITE_FIND(changegroup_add, "sqlite3changegroup_add");
    CSQLITE_FIND(changegroup_output, "sqlite3changegroup_output");
    CSQLITE_FIND(changegroup_delete, "sqlite3changegroup_delete");
#undef CSQLITE_FIND
    return 1;
}

#endif
