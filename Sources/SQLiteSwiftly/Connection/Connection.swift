import CSQLiteSwiftly

/// A connection to one SQLite database: the owner of a private `sqlite3` handle.
///
/// A connection is opened in an explicit ``OpenMode``: a database that must not exist yet
/// (``init(creating:busyTimeout:)``), one that must exist (``init(opening:readOnly:busyTimeout:)``), or a
/// private in-memory database (``inMemory()``). Opening the wrong way throws and leaves the file as it was.
///
/// The handle is created in the initializer and closed when the last reference to the connection goes away.
/// Statements, cursors and insert statements keep their connection alive, so the handle can never be closed
/// under them. Every public method can be called at any time and in any order.
///
/// A connection is not `Sendable`: one thread or task uses it at a time. Share it across tasks through
/// ``SharedConnection``.
///
/// ```swift
/// let db = try Connection(creating: "/tmp/planets.sqlite")
/// try db.createTable(for: Planet.self)
/// ```
public final class Connection {
    /// The `sqlite3*` handle. Internal: only this module's few SQLite-calling files use it.
    let handle: OpaquePointer
    /// How the connection was opened.
    public let mode: OpenMode
    /// A handle that interrupts this connection's running statement from another thread.
    public let interruptHandle: InterruptHandle
    /// Compiled statements for ad-hoc SQL, keyed by SQL text.
    var statementCache = StatementCache()
    /// The trace hook's box while tracing is on.
    var tracer: Tracer?
    /// How many transactions and savepoints this connection has opened through ``transaction(_:_:)``.
    var transactionDepth = 0
    /// Which models were verified against which schema version (see `verifyOnce`).
    var schemaChecks = SchemaCheckCache()

    /// How long a connection waits for another connection's lock before failing with
    /// ``ResultCode/busy``: 5 seconds.
    public static let defaultBusyTimeout: Duration = .seconds(5)

    /// Opens a connection in the given mode.
    ///
    /// - Parameters:
    ///   - mode: Whether the database must be created, must exist, or lives in memory.
    ///   - busyTimeout: How long to wait for another connection's lock before failing with a busy error.
    /// - Throws: ``SQLiteError`` of kind ``SQLiteError/Kind/databaseAlreadyExists``,
    ///   ``SQLiteError/Kind/databaseNotFound`` or ``SQLiteError/Kind/notADatabase`` when the file does not
    ///   meet the mode's expectation, or an SQLite error naming the path.
    public init(_ mode: OpenMode, busyTimeout: Duration = Connection.defaultBusyTimeout) throws(SQLiteError) {
        handle = try DatabaseFile.connect(mode, busyTimeout: busyTimeout)
        self.mode = mode
        interruptHandle = InterruptHandle(handle)
    }

    /// Creates a new database at `path`, failing if anything already exists there.
    ///
    /// The file is created atomically (`O_CREAT | O_EXCL`); see ``OpenMode/create(path:)``.
    ///
    /// - Parameters:
    ///   - path: Where to create the database file.
    ///   - busyTimeout: How long to wait for another connection's lock.
    /// - Throws: ``SQLiteError`` of kind ``SQLiteError/Kind/databaseAlreadyExists`` if the path is taken.
    public convenience init(creating path: String, busyTimeout: Duration = Connection.defaultBusyTimeout)
        throws(SQLiteError)
    {
        try self.init(.create(path: path), busyTimeout: busyTimeout)
    }

    /// Opens the existing database at `path`, failing if there is none.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - readOnly: Whether to open the database read-only.
    ///   - busyTimeout: How long to wait for another connection's lock.
    /// - Throws: ``SQLiteError`` of kind ``SQLiteError/Kind/databaseNotFound`` if nothing is at `path`, or
    ///   ``SQLiteError/Kind/notADatabase`` if the file is not an SQLite database.
    public convenience init(
        opening path: String, readOnly: Bool = false, busyTimeout: Duration = Connection.defaultBusyTimeout
    ) throws(SQLiteError) {
        try self.init(readOnly ? .openReadOnly(path: path) : .open(path: path), busyTimeout: busyTimeout)
    }

    /// Opens a private, temporary in-memory database.
    ///
    /// - Returns: A connection to a new, empty database that disappears with the connection.
    /// - Throws: ``SQLiteError`` if SQLite cannot allocate the database.
    public static func inMemory() throws(SQLiteError) -> Connection {
        try Connection(.inMemory)
    }

    deinit {
        interruptHandle.invalidate()
        statementCache.removeAll()
        schemaChecks.versionStatement = nil  // the last statement the connection owns: finalized before closing
        if tracer != nil { sqlite3_trace_v2(handle, 0, nil, nil) }
        // Every statement holds a strong reference to its connection, so none is alive here and
        // sqlite3_close_v2 closes at once. The _v2 variant would defer the close rather than fail if a
        // statement were ever leaked, which keeps deinit free of error paths.
        sqlite3_close_v2(handle)
    }

    /// The path of the database file, or `nil` for an in-memory database.
    public var path: String? {
        mode.path
    }

    /// Whether the database is read-only, because of the mode or because the file cannot be written.
    public var isReadOnly: Bool {
        sqlite3_db_readonly(handle, "main") == 1
    }

    /// Whether a transaction is open (SQLite is not in autocommit mode).
    public var isInTransaction: Bool {
        sqlite3_get_autocommit(handle) == 0
    }

    /// The row id of the most recent successful insert on this connection.
    public var lastInsertedRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// The number of rows changed by the most recent INSERT, UPDATE or DELETE.
    public var changes: Int {
        Int(sqlite3_changes64(handle))
    }

    /// The number of rows changed since the connection opened.
    public var totalChanges: Int {
        Int(sqlite3_total_changes64(handle))
    }

    /// The version of the SQLite library in use, such as `"3.40.1"`.
    public static var sqliteVersion: String {
        String(cString: sqlite3_libversion())
    }

    /// Compiles exactly one SQL statement into a raw statement.
    ///
    /// This is the only place statements are prepared. SQL that holds no statement, or more than one,
    /// is refused instead of silently truncated.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement, optionally followed by a semicolon, whitespace or comments.
    ///   - persistent: Whether the statement will be kept long (cached or reused), a hint for SQLite.
    func compile(_ sql: String, persistent: Bool = false) throws(SQLiteError) -> RawStatement {
        var text = sql
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let result: Result<OpaquePointer, SQLiteError> = text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, !utf8.isEmpty else {
                return .failure(SQLiteError(.misuse, message: "the SQL text is empty", sql: sql))
            }
            var statement: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let code = base.withMemoryRebound(to: CChar.self, capacity: utf8.count) { chars in
                sqlite3_prepare_v3(handle, chars, Int32(clamping: utf8.count), flags, &statement, &tail)
            }
            guard code == SQLITE_OK else {
                return .failure(SQLiteCalls.error(code, db: handle, sql: sql))
            }
            guard let statement else {
                return .failure(SQLiteError(.misuse, message: "the SQL text holds no statement", sql: sql))
            }
            let consumed = tail.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? utf8.count
            if let problem = remainderProblem(UnsafeBufferPointer(rebasing: utf8[consumed...])) {
                sqlite3_finalize(statement)
                return .failure(SQLiteError(.misuse, message: problem, sql: sql))
            }
            return .success(statement)
        }
        return RawStatement(handle: try result.get(), sql: sql)
    }

    /// Checks what follows the first statement: only whitespace, semicolons and comments are allowed.
    private func remainderProblem(_ rest: UnsafeBufferPointer<UInt8>) -> String? {
        let blank: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x3B]
        if rest.allSatisfy({ blank.contains($0) }) { return nil }
        if rest.contains(0) { return "the SQL text contains a NUL character after the first statement" }
        // Comments are the only other harmless remainder: compiling the rest yields no statement then.
        var extra: OpaquePointer?
        let code = rest.withMemoryRebound(to: CChar.self) { chars in
            sqlite3_prepare_v2(handle, chars.baseAddress, Int32(clamping: chars.count), &extra, nil)
        }
        if let extra { sqlite3_finalize(extra) }
        if code == SQLITE_OK && extra == nil { return nil }
        return "the SQL text holds more than one statement; run several statements with executeScript(_:)"
    }
}

@available(*, unavailable, message: "A Connection is used by one owner at a time; share it with SharedConnection")
extension Connection: Sendable {}
