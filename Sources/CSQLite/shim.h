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

#endif
