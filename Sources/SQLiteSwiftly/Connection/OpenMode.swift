import CSQLiteSwiftly

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a ``Connection`` reaches its database: the library never silently creates or opens the wrong one.
///
/// SQLite's own `sqlite3_open` creates a database when none exists. That is convenient and hides mistakes: a
/// typo in a path gives an empty database instead of an error. Each mode here states an expectation, and a
/// connection that cannot meet it fails with a typed error and leaves the file system as it was.
///
/// Besides the database file (made only by ``create(path:)``) and SQLite's own `-journal`, `-wal` and `-shm`
/// files, the library creates one file: an empty `<database>-turnstile` beside a database opened for writing,
/// at its first write transaction, where writers queue (see ``ConnectionOptions/queuesWriters``). It is never
/// created for ``openReadOnly(path:)`` or ``inMemory``.
public enum OpenMode: Hashable, Sendable {
    /// Create a new database; fail with ``SQLiteError/Kind/databaseAlreadyExists`` if anything exists at the path.
    ///
    /// The file is created atomically with `O_CREAT | O_EXCL`, so two processes racing for the same path
    /// cannot both succeed, and an existing file (even an empty one, or a dangling symbolic link) is never
    /// opened or modified. Leftover `-journal`, `-wal` or `-shm` files beside the path also count as existing.
    case create(path: String)
    /// Open an existing database for reading and writing; fail with ``SQLiteError/Kind/databaseNotFound``
    /// if nothing is at the path, or ``SQLiteError/Kind/notADatabase`` if the file is not an SQLite database.
    ///
    /// An empty (zero-byte) file is an empty SQLite database by SQLite's own rule, and opens.
    case open(path: String)
    /// Open an existing database read-only; fails the same ways as ``open(path:)``.
    case openReadOnly(path: String)
    /// A private, temporary database in memory, gone when the connection is.
    case inMemory

    /// The path named by the mode, or `nil` for ``inMemory``.
    public var path: String? {
        switch self {
        case .create(let path), .open(let path), .openReadOnly(let path): path
        case .inMemory: nil
        }
    }
}

// MARK: - Opening a handle in a mode

/// Opens `sqlite3` handles according to an ``OpenMode``, with the file-system checks each mode promises.
///
/// Flags, by mode (all add `SQLITE_OPEN_NOMUTEX`, since a connection is used by one thread at a time):
/// - create: the file is made with `open(O_CREAT | O_EXCL | O_RDWR)`, then opened with `SQLITE_OPEN_READWRITE`;
/// - open: `SQLITE_OPEN_READWRITE`; open read-only: `SQLITE_OPEN_READONLY` (never `SQLITE_OPEN_CREATE`);
/// - in memory: `SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY` on `":memory:"`.
enum DatabaseFile {
    static let journalSuffixes = ["-journal", "-wal", "-shm"]

    /// Removes a database file the library created, and its companions: for a creation that failed after the
    /// file was made (see ``ConnectionPool``).
    static func removeCreated(_ path: String) {
        for file in [path] + journalSuffixes.map({ path + $0 }) { unlink(file) }
    }

    static func connect(
        _ mode: OpenMode, options: ConnectionOptions, busyWait: UnsafeMutablePointer<BusyWait>
    ) throws(SQLiteError) -> OpaquePointer {
        if let path = mode.path, path.utf8.contains(0) {
            // C would read the path only up to the NUL, and open another file than the one named.
            throw SQLiteError(.misuse, message: "the database path contains a NUL character")
        }
        let base = SQLITE_OPEN_NOMUTEX
        let database: OpaquePointer
        switch mode {
        case .inMemory:
            database = try openHandle(
                ":memory:",
                flags: base | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                    | SQLITE_OPEN_MEMORY, path: nil)
        case .create(let path):
            try createEmptyFile(at: path)
            do {
                database = try openHandle(sqlitePath(path), flags: base | SQLITE_OPEN_READWRITE, path: path)
            } catch {
                unlink(path)  // The file is ours: we created it an instant ago.
                throw error
            }
        case .open(let path), .openReadOnly(let path):
            try requireUsable(path)
            let access = mode == .open(path: path) ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY
            do {
                database = try openHandle(sqlitePath(path), flags: base | access, path: path)
            } catch  where error.code.primary == .cannotOpen && !exists(path) {
                throw notFound(path)
            }
        }
        do {
            switch mode {
            case .open(let path), .openReadOnly(let path): try requireHeader(database, path: path)
            case .create, .inMemory: break
            }
            try configure(database, options: options, busyWait: busyWait)
            switch mode {
            case .open, .openReadOnly: try verifyDatabase(database, path: mode.path)
            case .create, .inMemory: break
            }
            try setUp(database, options: options)
        } catch {
            sqlite3_close_v2(database)
            if case .create(let path) = mode { unlink(path) }  // ours: created an instant ago, still empty
            throw error.with(path: mode.path)
        }
        return database
    }

    /// The per-connection settings every connection gets, in this order.
    private static func configure(
        _ database: OpaquePointer, options: ConnectionOptions, busyWait: UnsafeMutablePointer<BusyWait>
    ) throws(SQLiteError) {
        sqlite3_extended_result_codes(database, 1)
        // Generated SQL quotes every identifier: a misspelled one must fail, not turn into a string literal.
        csqlite_disable_double_quoted_strings(database)
        // Short retries until the timeout instead of sqlite3_busy_timeout's growing sleeps: see BusyWait.
        BusyWait.install(on: database, state: busyWait)
        var enabled: Int32 = 0
        let code = csqlite_enforce_foreign_keys(database, options.enforcesForeignKeys ? 1 : 0, &enabled)
        guard code == SQLITE_OK, (enabled != 0) == options.enforcesForeignKeys else {
            throw SQLiteError(code: code == SQLITE_OK ? SQLITE_ERROR : code, db: database)
        }
    }

    /// The caller's settings: `synchronous`, then the setup statements, in order.
    private static func setUp(_ database: OpaquePointer, options: ConnectionOptions) throws(SQLiteError) {
        if let mode = options.synchronous {
            let levels = ["OFF": 0, "NORMAL": 1, "FULL": 2, "EXTRA": 3, "0": 0, "1": 1, "2": 2, "3": 3]
            guard let level = levels[mode.rawValue.uppercased()] else {
                throw SQLiteError(
                    .misuse, message: "'\(mode.rawValue)' is not a synchronous mode (OFF, NORMAL, FULL or EXTRA)")
            }
            try run("PRAGMA synchronous = \(level)", on: database)
        }
        for sql in options.setupStatements { try run(sql, on: database) }
    }

    /// Runs SQL (one statement or several) on a connection that is being opened.
    private static func run(_ sql: String, on database: OpaquePointer) throws(SQLiteError) {
        guard !sql.contains("\0") else {
            throw SQLiteError(.misuse, message: "a setup statement contains a NUL character", sql: sql)
        }
        let code = sqlite3_exec(database, sql, nil, nil, nil)
        guard code == SQLITE_OK else {
            var error = SQLiteError(code: code, db: database, sql: sql)
            error.message = "a setup statement failed: " + error.message
            throw error
        }
    }

    /// SQLite reads `:memory:`, an empty name and (with URI support) `file:` names specially; a path written
    /// with a directory part is always a plain file.
    static func sqlitePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : "./" + path
    }

    private static func openHandle(_ name: String, flags: Int32, path: String?) throws(SQLiteError) -> OpaquePointer {
        var database: OpaquePointer?
        let code = sqlite3_open_v2(name, &database, flags, nil)
        guard code == SQLITE_OK, let database else {
            var error = SQLiteError(code: code, db: database)
            error.path = path
            sqlite3_close_v2(database)
            throw error
        }
        return database
    }

    private static func requireUsable(_ path: String) throws(SQLiteError) {
        guard !path.isEmpty else {
            throw SQLiteError(.misuse, message: "the database path is empty")
        }
        guard exists(path) else { throw notFound(path) }
        var info = stat()
        if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            var error = SQLiteError(.notADatabase, message: "'\(path)' is a directory, not a database file")
            error.path = path
            throw error
        }
    }

    /// The 16 bytes every SQLite database file starts with: "SQLite format 3" and a NUL.
    private static let header = Array("SQLite format 3\0".utf8)

    /// Refuses a non-empty file that does not start with the SQLite header, and an empty one with a leftover
    /// WAL beside it, before SQLite reads anything.
    ///
    /// The bytes are read through the descriptor SQLite opened (`csqlite_read_database_start`), never through
    /// one of the library's own: closing any descriptor of a file drops every POSIX lock the process holds on it,
    /// including the locks other connections of this process hold through SQLite (see "File locks" in DESIGN.md).
    /// Opening a handle reads nothing that matters here: SQLite reads the schema, and deletes a WAL it finds
    /// beside an empty file, only at the first statement.
    ///
    /// SQLite itself opens some short files (one byte, for instance) as empty databases and would overwrite
    /// them at the first write. An empty file is an empty database; anything else must carry the header.
    private static func requireHeader(_ database: OpaquePointer, path: String) throws(SQLiteError) {
        var bytes = [UInt8](repeating: 0, count: header.count)
        var size: sqlite3_int64 = 0
        let code = bytes.withUnsafeMutableBufferPointer { buffer in
            csqlite_read_database_start(database, buffer.baseAddress, Int32(buffer.count), &size)
        }
        guard code == SQLITE_OK else {
            var error = SQLiteError(code: code, db: nil)
            error.message = "cannot read the start of '\(path)': " + error.message
            error.path = path
            throw error
        }
        // SQLite's Unix file reports a one-byte file as empty (a workaround for MS-DOS file systems); `stat` tells
        // them apart without opening the file.
        var info = stat()
        if size == 0 && stat(path, &info) == 0 { size = sqlite3_int64(info.st_size) }
        if size == 0 {
            // An empty file with a WAL beside it: SQLite deletes the WAL at the first read (even a read-only
            // one), and it may hold the only copy of the data (switching to WAL writes the header to the main
            // file, so a live WAL never sits beside an empty one). A rollback journal beside an empty file can be
            // live (a transaction that has not written yet) and holds no committed data: SQLite handles it.
            if exists(path + "-wal") {
                var error = SQLiteError(
                    .sqlite, code: .cannotOpen,
                    message: "the file at '\(path)' is empty but a leftover '\(path)-wal' is beside it; "
                        + "opening would delete it, and it may hold the data: move it away, or restore the database")
                error.path = path
                throw error
            }
            return
        }
        guard size < header.count || bytes != header else { return }
        var error = SQLiteError(
            .notADatabase, message: "the file at '\(path)' is not an SQLite database (it lacks the SQLite header)")
        error.path = path
        throw error
    }

    private static func notFound(_ path: String) -> SQLiteError {
        var error = SQLiteError(.databaseNotFound, message: "no file exists at '\(path)'")
        error.path = path
        return error
    }

    /// Creates an empty file atomically, refusing anything already there (file, directory, link, journal).
    private static func createEmptyFile(at path: String) throws(SQLiteError) {
        guard !path.isEmpty else {
            throw SQLiteError(.misuse, message: "the database path is empty")
        }
        let descriptor = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let number = errno
            var error: SQLiteError
            if number == EEXIST {
                error = SQLiteError(.databaseAlreadyExists, message: "a file already exists at '\(path)'")
            } else {
                let reason = String(cString: strerror(number))
                error = SQLiteError(.sqlite, code: .cannotOpen, message: "cannot create '\(path)': \(reason)")
            }
            error.path = path
            throw error
        }
        close(descriptor)
        for suffix in journalSuffixes where exists(path + suffix) {
            unlink(path)
            var error = SQLiteError(
                .databaseAlreadyExists,
                message: "a leftover '\(path + suffix)' belongs to an earlier database at '\(path)'")
            error.path = path
            throw error
        }
    }

    /// Reads the schema, so that a file that is not a database fails now and not at the first query.
    private static func verifyDatabase(_ database: OpaquePointer, path: String?) throws(SQLiteError) {
        let code = sqlite3_exec(database, "SELECT count(*) FROM sqlite_master", nil, nil, nil)
        guard code == SQLITE_OK else {
            var error = SQLiteError(code: code, db: database)
            error.path = path
            if error.code.primary == .notADatabase {
                error.kind = .notADatabase
                error.message = "the file at '\(path ?? "")' is not an SQLite database (\(error.message))"
            }
            throw error
        }
    }

    /// Whether anything (file, directory, or symbolic link, even a dangling one) exists at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
