import CSQLiteSwiftly

extension Connection {
    /// Runs `body` in a transaction and returns, with its result, the changeset of the rows it changed.
    ///
    /// SQLite's session extension records every row that `body` inserts, updates or deletes in the `main`
    /// database: in all tables, or only in `tables`. The changeset holds each changed row once, with its values
    /// before and after (see ``Changeset``). Recording costs nothing outside this call: no hook is installed on a
    /// connection that does not record.
    ///
    /// The body runs in a transaction (a savepoint inside one already open), so that the changeset and the work
    /// are all or nothing: when `body` throws, or recording fails, the work is rolled back and nothing is
    /// returned. Inside ``SharedConnection/write(_:)`` or ``ConnectionPool/write(_:)``, record on the connection
    /// the body receives:
    ///
    /// ```swift
    /// let changeset = try await pool.write { db in
    ///     try db.recordingChangeset { try db.execute("DELETE FROM notes WHERE done") }.changeset
    /// }
    /// ```
    ///
    /// Rows of tables without a primary key cannot be recorded: a body that changes one throws
    /// ``SQLiteError/Kind/misuse`` naming it (and its work is rolled back), and naming one in `tables` throws
    /// before `body` runs. Changes to the schema, to `temp` tables and to attached databases are not recorded.
    ///
    /// - Parameters:
    ///   - tables: The tables to record, or `nil` (the default) for every table of the `main` database.
    ///   - body: The work to record.
    /// - Returns: What `body` returns, and the changeset (empty when nothing changed).
    /// - Throws: What `body` throws; ``SQLiteError/Kind/misuse`` for a table without a primary key, or a table in
    ///   `tables` that does not exist; ``SQLiteError/Kind/schemaMismatch`` when a recorded table's columns changed
    ///   during the recording, or SQLite cannot record it (generated columns, with SQLite 3.40);
    ///   ``SQLiteError/Kind/sessionUnavailable``; the errors of ``transaction(_:_:)``.
    public func recordingChangeset<Result>(
        of tables: [String]? = nil, _ body: () throws -> Result
    ) throws -> (result: Result, changeset: Changeset) {
        let (result, bytes) = try record(tables: tables, patchset: false, body)
        return (result, Changeset(bytes: bytes))
    }

    /// Runs `body` in a transaction and returns, with its result, the patchset of the rows it changed.
    ///
    /// As ``recordingChangeset(of:_:)``, but the result is the smaller ``Patchset``, which cannot be inverted.
    ///
    /// - Parameters:
    ///   - tables: The tables to record, or `nil` (the default) for every table of the `main` database.
    ///   - body: The work to record.
    /// - Returns: What `body` returns, and the patchset.
    /// - Throws: As ``recordingChangeset(of:_:)``.
    public func recordingPatchset<Result>(
        of tables: [String]? = nil, _ body: () throws -> Result
    ) throws -> (result: Result, patchset: Patchset) {
        let (result, bytes) = try record(tables: tables, patchset: true, body)
        return (result, Patchset(bytes: bytes))
    }

    /// Records `body` in a transaction with a session object, and returns the session's output.
    private func record<Result>(
        tables: [String]?, patchset: Bool, _ body: () throws -> Result
    ) throws -> (Result, [UInt8]) {
        let functions = try SessionFunctions.available()
        return try transaction(.immediate) { () throws -> (Result, [UInt8]) in
            for table in tables ?? [] where try !hasPrimaryKey(table) {
                throw try unrecordable(table)
            }
            let session = try SessionRecorder(connection: self, functions: functions, tables: tables)
            let result = try body()
            for table in session.changedTables where try !hasPrimaryKey(table) {
                throw try unrecordable(table)
            }
            let bytes: [UInt8]
            do throws(SQLiteError) {
                bytes = try session.output(patchset: patchset)
            } catch {
                guard error.code.primary == .schema else { throw error }
                throw try schemaChanged(session.changedTables)
            }
            return (result, bytes)
        }
    }

    /// Whether the `main` table `table` has a primary key (`sqlite_` tables count as having one: SQLite's session
    /// code records `sqlite_stat1` by its own key, and never the others).
    private func hasPrimaryKey(_ table: String) throws -> Bool {
        if table.sqlIdentifierKey.hasPrefix("sqlite_") { return true }
        let key = try fetchValue(
            Int.self, "SELECT count(*) FROM pragma_table_xinfo(\(table), 'main') WHERE pk > 0 AND hidden = 0")
        return (key ?? 0) > 0
    }

    /// The error for a table whose changes cannot be recorded: it has no primary key, or does not exist.
    private func unrecordable(_ table: String) throws -> SQLiteError {
        let exists =
            try fetchValue(Int.self, "SELECT count(*) FROM pragma_table_xinfo(\(table), 'main')").map { $0 > 0 }
            ?? false
        var error = SQLiteError(
            .misuse,
            message: exists
                ? "table \"\(table)\" has no PRIMARY KEY: SQLite's session extension cannot record its changes "
                    + "(declare a primary key, or leave the table out); nothing was kept"
                : "table \"\(table)\" does not exist in the main database, so it cannot be recorded")
        error.table = table
        return error
    }

    /// The error for a recording SQLite refused with `SQLITE_SCHEMA`: a recorded table's columns changed during
    /// it, or (with SQLite 3.40) a recorded table has generated columns.
    private func schemaChanged(_ tables: [String]) throws -> SQLiteError {
        var generated: String?
        for table in tables where generated == nil {
            let count = try fetchValue(
                Int.self, "SELECT count(*) FROM pragma_table_xinfo(\(table), 'main') WHERE hidden IN (2, 3)")
            if (count ?? 0) > 0 { generated = table }
        }
        var error = SQLiteError(
            .schemaMismatch, code: .schema,
            message: generated.map {
                "table \"\($0)\" has generated columns, which the session extension of this SQLite "
                    + "(\(Connection.sqliteVersion)) cannot record; nothing was kept"
            }
                ?? "a recorded table's columns changed during the recording: a changeset cannot capture schema "
                + "changes; nothing was kept")
        error.table = generated
        return error
    }
}

/// One `sqlite3_session`, attached to a connection's `main` database for the span of a recording, and deleted
/// with this object (before the connection, which it keeps alive).
private final class SessionRecorder {
    private let connection: Connection
    private let functions: SessionFunctions
    private let session: OpaquePointer
    /// The tables SQLite offered to the table filter: every table changed while recording all tables.
    private(set) var changedTables: [String] = []

    init(connection: Connection, functions: SessionFunctions, tables: [String]?) throws(SQLiteError) {
        var session: OpaquePointer?
        let created = functions.api.session_create(connection.handle, "main", &session)
        guard created == SQLITE_OK, let session else {
            throw SQLiteError(code: created, db: connection.handle)
        }
        self.connection = connection
        self.functions = functions
        self.session = session
        if let tables {
            for table in tables {
                let attached = functions.api.session_attach(session, table)
                guard attached == SQLITE_OK else { throw SQLiteError(code: attached, db: connection.handle) }
            }
        } else {
            // Every table, through the filter, which SQLite calls at the first change to each: it notes the table
            // (a table without a primary key is checked after the body) and lets SQLite attach it.
            functions.api.session_table_filter(
                session,
                { context, table in
                    guard let context, let table else { return 1 }
                    Unmanaged<SessionRecorder>.fromOpaque(context).takeUnretainedValue().changedTables.append(
                        String(cString: table))
                    return 1
                }, Unmanaged.passUnretained(self).toOpaque())
            let attached = functions.api.session_attach(session, nil)
            guard attached == SQLITE_OK else { throw SQLiteError(code: attached, db: connection.handle) }
        }
    }

    deinit {
        functions.api.session_delete(session)
    }

    /// The changeset or patchset of what was recorded.
    func output(patchset: Bool) throws(SQLiteError) -> [UInt8] {
        var count: Int32 = 0
        var buffer: UnsafeMutableRawPointer?
        let code =
            patchset
            ? functions.api.session_patchset(session, &count, &buffer)
            : functions.api.session_changeset(session, &count, &buffer)
        guard code == SQLITE_OK else {
            sqlite3_free(buffer)
            throw SQLiteError(code: code, db: connection.handle)
        }
        return ChangesetBytes.take(buffer, count: count)
    }
}
