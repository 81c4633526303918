import CSQLiteSwiftly

/// A connection to one SQLite database: the owner of a private `sqlite3` handle.
///
/// A connection is opened in an explicit ``OpenMode``: a database that must not exist yet
/// (``init(creating:options:)``), one that must exist (``init(opening:readOnly:options:)``), or a private
/// in-memory database (``inMemory(options:)``). Opening the wrong way throws and leaves the file as it was.
/// Foreign keys are enforced (see ``ConnectionOptions``).
///
/// The handle is created in the initializer and closed by ``close()``, or when the last reference to the
/// connection goes away. Statements, cursors and insert statements keep their connection alive, and ``close()``
/// refuses while one exists, so the handle can never be closed under them. Every public method can be called at
/// any time and in any order; after ``close()``, each one that can throw throws ``SQLiteError/Kind/misuse``.
///
/// A connection is not `Sendable`: one thread or task uses it at a time. Share it across tasks through
/// ``SharedConnection`` or ``ConnectionPool``.
///
/// ```swift
/// let db = try Connection(creating: "/tmp/planets.sqlite")
/// try db.createTable(for: Planet.self)
/// ```
public final class Connection {
    /// The `sqlite3*` handle. Internal: only this module's few SQLite-calling files use it. After ``close()`` it is
    /// a private in-memory stand-in that refuses every statement, so that no path can reach a closed handle (see
    /// `Connection+Closing.swift`); only ``close()`` changes it.
    @exclusivity(unchecked) var handle: OpaquePointer
    /// Whether ``close()`` closed the database. A closed connection refuses every use with
    /// ``SQLiteError/Kind/misuse``; closing it again does nothing.
    public internal(set) var isClosed = false
    /// Set by the ``SharedConnection`` that owns this connection: ``close()`` is then refused (close the shared
    /// connection instead), so a body can never close the connection under its owner.
    var isShared = false
    /// An object released only after this connection's handle has closed (a pool's reader keeps the pool's
    /// writer: see `ConnectionPool`).
    var keepsOpen: AnyObject?
    /// How the connection was opened.
    public let mode: OpenMode
    /// The options the connection was opened with.
    public let options: ConnectionOptions
    /// A handle that interrupts this connection's running statement from another thread.
    public let interruptHandle: InterruptHandle
    /// Compiled statements for ad-hoc SQL, keyed by SQL text, and for model reads and writes.
    @exclusivity(unchecked) var statementCache = StatementCache()
    /// The trace hook's box while tracing is on.
    var tracer: Tracer?
    /// How many transactions and savepoints this connection has opened through ``transaction(_:_:)``.
    var transactionDepth = 0
    /// Which models were verified against which schema version (see `verifyOnce`).
    var schemaChecks = SchemaCheckCache()
    /// SQLite's commit, rollback and update hooks and the authorizer: counts rollbacks (which tells a transaction
    /// that ended under a body whether it was rolled back or committed), and reports changes to observations.
    @usableFromInline let changeTracker: ChangeTracker
    /// The errors thrown by this connection's Swift functions (and by its busy handler and commit hook), until the
    /// failing statement reports them.
    let functionErrors: FunctionErrors
    /// The column names of the last result read as ``UntypedRow``s, shared with the next result named the same.
    let columnNameCache = ColumnNameCache()
    /// The busy handler's state (see ``BusyWait``). A pointer, because SQLite's handler reads and writes it.
    let busyWait: UnsafeMutablePointer<BusyWait>
    /// The blobs a streaming ``writeBlob(table:column:rowID:count:from:isolation:)`` is rewriting: zeroed first,
    /// so chunks read from one of them would be zeros (see ``BlobChunks``).
    var blobsBeingRewritten: [BlobCell] = []
    /// The writers' turnstile, opened at the first write transaction that queues (see ``WriterTurnstile``).
    var turnstile = TurnstileSlot.unopened
    /// The database file's device and inode, registered while the connection is open, so that no file operation
    /// of the library opens it with a descriptor of its own (see ``OpenDatabaseFiles``); `nil` in memory.
    let fileIdentity: OpenDatabaseFiles.Identity?

    /// Opens a connection in the given mode.
    ///
    /// - Parameters:
    ///   - mode: Whether the database must be created, must exist, or lives in memory.
    ///   - options: What the connection enforces and how long it waits for locks.
    /// - Throws: ``SQLiteError`` of kind ``SQLiteError/Kind/databaseAlreadyExists``,
    ///   ``SQLiteError/Kind/databaseNotFound`` or ``SQLiteError/Kind/notADatabase`` when the path does not
    ///   meet the mode's expectation (a directory is not a database), or an SQLite error naming the path.
    public init(_ mode: OpenMode, options: ConnectionOptions = .default) throws(SQLiteError) {
        let interrupts = InterruptHandle()
        let errors = FunctionErrors()
        let busyWait = BusyWait.allocate(timeout: options.busyTimeout, interrupts: interrupts, errors: errors)
        do {
            handle = try DatabaseFile.connect(mode, options: options, busyWait: busyWait)
        } catch {
            BusyWait.free(busyWait)
            throw error
        }
        interrupts.attach(handle)
        self.busyWait = busyWait
        self.mode = mode
        self.options = options
        interruptHandle = interrupts
        functionErrors = errors
        changeTracker = ChangeTracker(db: handle, errors: errors, checksFileMoves: mode != .inMemory)
        fileIdentity = mode.path.flatMap(OpenDatabaseFiles.register)
    }

    /// Creates a new database at `path`, failing if anything already exists there.
    ///
    /// The file is created atomically (`O_CREAT | O_EXCL`); see ``OpenMode/create(path:)``.
    ///
    /// - Parameters:
    ///   - path: Where to create the database file.
    ///   - options: What the connection enforces and how long it waits for locks.
    /// - Throws: ``SQLiteError`` of kind ``SQLiteError/Kind/databaseAlreadyExists`` if the path is taken.
    public convenience init(creating path: String, options: ConnectionOptions = .default) throws(SQLiteError) {
        try self.init(.create(path: path), options: options)
    }

    /// Opens the existing database at `path`, failing if there is none.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - readOnly: Whether to open the database read-only.
    ///   - options: What the connection enforces and how long it waits for locks.
    /// - Throws: ``SQLiteError`` of kind ``SQLiteError/Kind/databaseNotFound`` if nothing is at `path`, or
    ///   ``SQLiteError/Kind/notADatabase`` if it is not an SQLite database file.
    public convenience init(
        opening path: String, readOnly: Bool = false, options: ConnectionOptions = .default
    ) throws(SQLiteError) {
        try self.init(readOnly ? .openReadOnly(path: path) : .open(path: path), options: options)
    }

    /// Opens a private, temporary in-memory database.
    ///
    /// - Parameter options: What the connection enforces.
    /// - Returns: A connection to a new, empty database that disappears with the connection.
    /// - Throws: ``SQLiteError`` if SQLite cannot allocate the database.
    public static func inMemory(options: ConnectionOptions = .default) throws(SQLiteError) -> Connection {
        try Connection(.inMemory, options: options)
    }

    deinit {
        interruptHandle.invalidate()
        statementCache.removeAll()
        schemaChecks.versionStatement = nil  // the last statement the connection owns: finalized before closing
        if tracer != nil { sqlite3_trace_v2(handle, 0, nil, nil) }
        // Every statement holds a strong reference to its connection, so none is alive here and
        // sqlite3_close_v2 closes at once. The _v2 variant would defer the close rather than fail if a
        // statement were ever leaked, which keeps deinit free of error paths.
        // After close() the handle is the stand-in, and the file and the turnstile were let go then.
        sqlite3_close_v2(handle)
        BusyWait.free(busyWait)
        if !isClosed {
            if let fileIdentity { OpenDatabaseFiles.unregister(fileIdentity) }
            releaseTurnstile()
        }
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

    /// Whether the open transaction has written, or holds the write lock (`sqlite3_txn_state`).
    var holdsWriteLock: Bool {
        sqlite3_txn_state(handle, nil) == SQLITE_TXN_WRITE
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

    /// Whether foreign keys are enforced now.
    public var enforcesForeignKeys: Bool {
        csqlite_foreign_keys_enforced(handle) != 0
    }

    /// Turns foreign-key enforcement on or off for this connection.
    ///
    /// SQLite ignores the change inside a transaction, so it is refused there instead. A table rebuild that
    /// needs enforcement off (SQLite's 12-step procedure) is easiest as a migration:
    /// ``Migrator/add(_:deferringForeignKeyChecks:_:)``.
    ///
    /// - Parameter enforced: Whether to enforce foreign keys.
    /// - Throws: ``SQLiteError/Kind/misuse`` inside a transaction.
    public func setForeignKeyEnforcement(_ enforced: Bool) throws(SQLiteError) {
        try requireOpen()
        guard !isInTransaction else {
            throw SQLiteError(
                .misuse,
                message: "foreign-key enforcement cannot change inside a transaction (SQLite would ignore it)")
        }
        var enabled: Int32 = 0
        let code = csqlite_enforce_foreign_keys(handle, enforced ? 1 : 0, &enabled)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, db: handle) }
        guard (enabled != 0) == enforced else {
            throw SQLiteError(.misuse, message: "SQLite did not change foreign-key enforcement")
        }
    }

    /// Compiles exactly one SQL statement into a raw statement.
    ///
    /// This is the only place statements are prepared. SQL that holds no statement, or more than one,
    /// is refused instead of silently truncated; so is a NUL character, which would end SQLite's reading.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement, optionally followed by a semicolon, whitespace or comments.
    ///   - persistent: Whether the statement will be kept long (cached or reused), a hint for SQLite.
    func compile(_ sql: String, persistent: Bool = false) throws(SQLiteError) -> RawStatement {
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let length = sql.utf8.count
        guard length > 0 else { throw SQLiteError(.misuse, message: "the SQL text is empty", sql: sql) }
        // withCString guarantees a terminating NUL; passing the length with it spares SQLite a copy of the text.
        // The closure returns a code and sets locals, not a `Result`: a `Result` of an error this size is copied
        // several times over on its way out.
        try requireOpen()
        var statement: OpaquePointer?
        var problem: String?
        let code = sql.withCString { start in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(handle, start, Int32(clamping: length + 1), flags, &statement, &tail)
            let consumed = tail.map { $0 - start } ?? length
            if code == SQLITE_OK && consumed < length {
                let rest = UnsafeRawBufferPointer(start: start + consumed, count: length - consumed)
                problem = remainderProblem(rest.bindMemory(to: UInt8.self))
            }
            return code
        }
        // Nothing calls SQLite between the failed prepare and here, so the connection's message is still its own.
        guard code == SQLITE_OK else { throw SQLiteError(code: code, db: handle, sql: sql) }
        guard let statement, problem == nil else {
            if let statement { sqlite3_finalize(statement) }
            throw SQLiteError(.misuse, message: problem ?? "the SQL text holds no statement", sql: sql)
        }
        return RawStatement(
            handle: statement, sql: sql, functionErrors: functionErrors, tracker: changeTracker,
            columnNameCache: columnNameCache, interrupts: interruptHandle)
    }

    /// Checks what follows the first statement: only whitespace, semicolons and comments are allowed.
    private func remainderProblem(_ rest: UnsafeBufferPointer<UInt8>) -> String? {
        // Spaces, tabs, line feeds, carriage returns, form feeds and semicolons (no Set: this runs per statement).
        if rest.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x0C || $0 == 0x3B }) {
            return nil
        }
        if rest.contains(0) { return "the SQL text contains a NUL character" }
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
