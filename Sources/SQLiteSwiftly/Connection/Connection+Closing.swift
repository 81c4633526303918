import CSQLiteSwiftly

extension Connection {
    /// Closes the database now, and reports what keeps it from closing instead of hiding it.
    ///
    /// Closing in `deinit` cannot fail out loud; `close()` can. It refuses, and leaves the connection open and
    /// usable, while anything still depends on the open database:
    ///
    /// - a transaction is open (a ``transaction(_:_:)`` body is running, or a `BEGIN` was not ended): commit or
    ///   roll back first, since closing would roll it back silently;
    /// - a statement is running (a row being read, a ``Cursor`` part-way, a blob handle in a
    ///   ``withBlob(table:column:rowID:writable:_:)`` body);
    /// - a ``Statement``, ``Cursor`` or ``InsertStatement`` made from this connection is still alive somewhere:
    ///   let it go first;
    /// - the connection belongs to a ``SharedConnection`` or ``ConnectionPool`` (a body received it): close the
    ///   owner instead.
    ///
    /// What closing does is SQLite's own: when this is the last connection of any process to a database in WAL
    /// mode, SQLite checkpoints the WAL into the database file and deletes the `-wal` and `-shm` files, so the
    /// database file alone holds every commit. A checkpoint that cannot run (another process still has the
    /// database open) is not an error: that process's connection finishes the job when it closes. A read-only
    /// connection cannot checkpoint, so a read-only connection that closes last leaves the WAL beside the file.
    /// The writers' turnstile file (see ``ConnectionOptions/queuesWriters``) is removed when nobody holds or
    /// waits for a turn in it.
    ///
    /// After `close()`, every method that can throw throws ``SQLiteError/Kind/misuse`` ("the connection is
    /// closed"); properties describe an empty connection (not read-only, not in a transaction, no changes).
    /// Closing a closed connection does nothing. A connection that is never closed explicitly closes in
    /// `deinit`, as before.
    ///
    /// - Throws: ``SQLiteError/Kind/misuse`` naming what is still open; the connection stays open then.
    public func close() throws(SQLiteError) {
        guard !isClosed else { return }
        guard !isShared else {
            throw closeRefused(
                "it belongs to a SharedConnection or ConnectionPool; close that instead (after the body returns)")
        }
        try closeDatabase()
    }

    /// Closes the database for ``close()`` and for the ``SharedConnection`` that owns this connection.
    func closeDatabase() throws(SQLiteError) {
        guard !isClosed else { return }
        guard transactionDepth == 0, !isInTransaction else {
            throw closeRefused("a transaction is open; commit or roll it back first")
        }
        if let running = openStatement(running: true) {
            throw closeRefused("a statement is running\(Self.naming(running))")
        }
        // The library's own statements go; what remains belongs to someone who can still use it.
        statementCache.removeAll()
        schemaChecks.versionStatement = nil
        if let kept = openStatement(running: false) {
            throw closeRefused(
                "a Statement, Cursor or InsertStatement made from it is still alive\(Self.naming(kept)); let it go first"
            )
        }
        let standIn = try Self.openStandIn()
        interruptHandle.invalidate()
        if tracer != nil { sqlite3_trace_v2(handle, 0, nil, nil) }
        // sqlite3_close, not _v2: a handle still in use (a blob, a backup) is refused with SQLITE_BUSY here rather
        // than closed later behind our back.
        let code = sqlite3_close(handle)
        guard code == SQLITE_OK else {
            let error = SQLiteError(code: code, db: handle)
            interruptHandle.attach(handle)
            sqlite3_close(standIn)
            throw closeRefused(error.message)
        }
        handle = standIn
        isClosed = true
        if let fileIdentity { OpenDatabaseFiles.unregister(fileIdentity) }
        releaseTurnstile()
    }

    /// Throws ``SQLiteError/Kind/misuse`` once the connection is closed.
    @inline(__always) func requireOpen() throws(SQLiteError) {
        if isClosed { throw closedError }
    }

    /// The error of every use of a closed connection.
    var closedError: SQLiteError {
        var error = SQLiteError(.misuse, message: "the connection is closed")
        error.path = path
        return error
    }

    /// Closes the writers' turnstile, removing its file when nobody else holds or waits for a turn in it.
    func releaseTurnstile() {
        if case .open(let turnstile) = turnstile { turnstile.closeRemovingIfUnused() }
        turnstile = .unavailable
    }

    private func closeRefused(_ reason: String) -> SQLiteError {
        var error = SQLiteError(.misuse, message: "the connection cannot close: \(reason)")
        error.path = path
        return error
    }

    /// The first statement of this connection that is running (or, with `running` false, that exists at all).
    private func openStatement(running: Bool) -> OpaquePointer? {
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            if !running || sqlite3_stmt_busy(current) != 0 { return current }
            statement = sqlite3_next_stmt(handle, current)
        }
        return nil
    }

    /// ": SQL" for a statement that has SQL (a blob handle's statement has none).
    private static func naming(_ statement: OpaquePointer) -> String {
        guard let sql = sqlite3_sql(statement).map({ String(cString: $0) }), !sql.isEmpty else {
            return " (a blob handle, or a statement without SQL text)"
        }
        return ": \(sql)"
    }

    /// The handle a closed connection keeps: a private in-memory database whose authorizer denies every
    /// statement. Every internal use of ``handle`` after ``close()`` then meets a live handle that refuses work,
    /// never a freed one; the public methods throw ``closedError`` before they get that far.
    private static func openStandIn() throws(SQLiteError) -> OpaquePointer {
        var standIn: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(":memory:", &standIn, flags, nil)
        guard code == SQLITE_OK, let standIn else {
            sqlite3_close(standIn)
            throw SQLiteError(
                .misuse, code: ResultCode(rawValue: code),
                message: "the connection cannot close: "
                    + "SQLite could not allocate the closed connection's placeholder (code \(code))")
        }
        sqlite3_set_authorizer(standIn, { _, _, _, _, _, _ in SQLITE_DENY }, nil)
        return standIn
    }
}
