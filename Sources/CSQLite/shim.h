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

// MARK: the database file, read through SQLite's own descriptor

/// Reads up to `count` bytes from the start of the main database file through the file SQLite opened, and stores
/// the file's size in `*size`. The library never opens a database file itself: under POSIX rules, closing any
/// descriptor of a file drops every lock the process holds on it, SQLite's included
/// (https://www.sqlite.org/howtocorrupt.html#_posix_advisory_locks_canceled_by_a_separate_thread_doing_close_).
/// Returns SQLITE_OK, or an error code when the file is not open or cannot be read; bytes past the end are 0.
static inline int csqlite_read_database_start(sqlite3 *db, unsigned char *buffer, int count, sqlite3_int64 *size) {
    sqlite3_file *file = 0;
    int code = sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file);
    if (code != SQLITE_OK) return code;
    if (!file || !file->pMethods || !file->pMethods->xFileSize || !file->pMethods->xRead) return SQLITE_CANTOPEN;
    code = file->pMethods->xFileSize(file, size);
    if (code != SQLITE_OK) return code;
    code = file->pMethods->xRead(file, buffer, count, 0);
    return code == SQLITE_IOERR_SHORT_READ ? SQLITE_OK : code;
}

/// Whether the main database file was unlinked, renamed or replaced since the connection opened it
/// (SQLITE_FCNTL_HAS_MOVED: one `stat` of its path compared with the open file): 1 if so, 0 if not, -1 when the
/// VFS cannot tell (an in-memory database).
static inline int csqlite_database_has_moved(sqlite3 *db) {
    int moved = 0;
    return sqlite3_file_control(db, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK ? (moved != 0) : -1;
}

// MARK: file-change notification (Linux)

#ifdef __linux__
#include <sys/vfs.h>
#include <sys/eventfd.h>
#endif

/// Whether the file system holding `path` is one whose changes by other machines inotify cannot report (NFS, SMB
/// and CIFS, FUSE, Ceph, 9P, AFS, Lustre, GlusterFS...): 1 if so, 0 if not, -1 when it cannot be told (or not on
/// Linux). Observation polls there instead of waiting for file events.
static inline int csqlite_is_network_file_system(const char *path) {
#ifdef __linux__
    struct statfs info;
    if (statfs(path, &info) != 0) return -1;
    switch ((unsigned long)info.f_type) {
    case 0x6969UL:      /* NFS */
    case 0x517BUL:      /* SMB */
    case 0xFE534D42UL:  /* SMB2 */
    case 0xFF534D42UL:  /* CIFS */
    case 0x65735546UL:  /* FUSE */
    case 0x00C36400UL:  /* Ceph */
    case 0x01021997UL:  /* 9P */
    case 0x5346414FUL:  /* AFS */
    case 0x6B414653UL:  /* kAFS */
    case 0x0BD00BD0UL:  /* Lustre */
    case 0x47504653UL:  /* GPFS */
    case 0x564C4453UL:  /* VirtualBox shared folders */
        return 1;
    default:
        return 0;
    }
#else
    (void)path;
    return -1;
#endif
}

/// An eventfd (Linux) that wakes a thread blocked in `poll`, or -1 elsewhere.
static inline int csqlite_make_wake_descriptor(void) {
#ifdef __linux__
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
#else
    return -1;
#endif
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
