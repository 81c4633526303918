import CSQLiteSwiftly

// The read and write vocabulary of a connection: execute, fetchAll, fetchOne, fetchValue, fetchCursor, always
// in the order type, SQL, arguments. Statements are compiled once and kept in the connection's cache.

extension Connection {
    /// Compiles one SQL statement for repeated use.
    ///
    /// - Parameter sql: Exactly one SQL statement, with `?` or named parameters for the values of each run.
    /// - Returns: A statement bound to this connection.
    /// - Throws: ``SQLiteError`` for SQL errors, empty SQL, several statements, or interpolated values (a
    ///   prepared statement receives its values at each run).
    public func prepare(_ sql: SQL) throws(SQLiteError) -> Statement {
        guard sql.arguments.isEmpty else {
            throw SQLiteError(
                .parameterMismatch,
                message: "a prepared statement takes its values at each run: write ? or :name parameters instead of "
                    + "interpolating values", sql: sql.text)
        }
        return try Statement(connection: self, sql: sql.text)
    }

    /// Runs one SQL statement and returns the number of changed rows.
    ///
    /// ```swift
    /// try db.execute("UPDATE planets SET moons = \(2) WHERE name = \(name)")
    /// try db.execute("UPDATE planets SET moons = ? WHERE name = ?", [2, name])
    /// ```
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement; interpolated values are bound.
    ///   - arguments: One argument per parameter written in `sql`, when it has no interpolated values.
    /// - Returns: The number of rows inserted, updated or deleted (0 for other statements).
    /// - Throws: ``SQLiteError`` for argument mismatches and SQLite errors.
    @discardableResult
    public func execute(_ sql: SQL, _ arguments: StatementArguments = .none) throws(SQLiteError) -> Int {
        let (text, arguments) = try sql.resolved(with: arguments)
        return try execute(cachedStatement(text)) { raw throws(SQLiteError) in try raw.bindIfNeeded(arguments) }
    }

    /// Runs a query and decodes every row.
    ///
    /// - Parameters:
    ///   - type: The row type: a ``TableModel``, another ``RowDecodable``, or ``UntypedRow``.
    ///   - sql: Exactly one SQL statement; interpolated values are bound.
    ///   - arguments: One argument per parameter written in `sql`, when it has no interpolated values.
    /// - Returns: The decoded rows.
    /// - Throws: ``SQLiteError`` for argument or model mismatches, conversion failures and SQLite errors; errors
    ///   thrown by `type`'s ``RowDecodable/init(row:)``.
    @inlinable public func fetchAll<Decoded: RowDecodable>(
        _ type: Decoded.Type, _ sql: SQL, _ arguments: StatementArguments = .none
    ) throws -> [Decoded] {
        let (text, arguments) = try sql.resolved(with: arguments)
        return try readRows(cachedStatement(text), as: type) { raw throws(SQLiteError) in
            try raw.bindIfNeeded(arguments)
        }
    }

    /// Runs a query and decodes its first row, or returns `nil` when there is none.
    ///
    /// - Parameters:
    ///   - type: The row type.
    ///   - sql: Exactly one SQL statement; interpolated values are bound.
    ///   - arguments: One argument per parameter written in `sql`, when it has no interpolated values.
    /// - Returns: The first row, or `nil`.
    /// - Throws: As ``fetchAll(_:_:_:)->[Decoded]``.
    @inlinable public func fetchOne<Decoded: RowDecodable>(
        _ type: Decoded.Type, _ sql: SQL, _ arguments: StatementArguments = .none
    ) throws -> Decoded? {
        let (text, arguments) = try sql.resolved(with: arguments)
        return try readFirst(cachedStatement(text), as: type) { raw throws(SQLiteError) in
            try raw.bindIfNeeded(arguments)
        }
    }

    /// Runs a query and returns the first column of its first row as a single value.
    ///
    /// ```swift
    /// let count = try db.fetchValue(Int.self, "SELECT count(*) FROM planets")  // Int?
    /// ```
    ///
    /// - Parameters:
    ///   - type: The value type.
    ///   - sql: Exactly one SQL statement returning at least one column; interpolated values are bound.
    ///   - arguments: One argument per parameter written in `sql`, when it has no interpolated values.
    /// - Returns: The value, or `nil` when the query returns no row. A NULL value reads as `nil` only when
    ///   `type` is optional; otherwise it is a conversion error.
    /// - Throws: ``SQLiteError`` for argument mismatches, conversion failures and SQLite errors.
    public func fetchValue<Value: SQLiteValueConvertible>(
        _ type: Value.Type, _ sql: SQL, _ arguments: StatementArguments = .none
    ) throws(SQLiteError) -> Value? {
        let (text, arguments) = try sql.resolved(with: arguments)
        return try readValue(cachedStatement(text), as: type) { raw throws(SQLiteError) in
            try raw.bindIfNeeded(arguments)
        }
    }

    /// Runs a query lazily: the cursor steps one row at a time, in constant memory.
    ///
    /// The cursor compiles its own statement, so other queries can run while it is open. Stop early by
    /// dropping it or calling ``Cursor/close()``; the connection stays usable either way.
    ///
    /// - Parameters:
    ///   - type: The row type.
    ///   - sql: Exactly one SQL statement; interpolated values are bound.
    ///   - arguments: One argument per parameter written in `sql`, when it has no interpolated values.
    /// - Returns: A cursor over the rows.
    /// - Throws: ``SQLiteError`` for SQL errors and argument or model mismatches, before any row is read.
    public func fetchCursor<Decoded: RowDecodable>(
        _ type: Decoded.Type, _ sql: SQL, _ arguments: StatementArguments = .none
    ) throws(SQLiteError) -> Cursor<Decoded> {
        let (text, arguments) = try sql.resolved(with: arguments)
        return try Cursor(statement: compile(text), connection: self, arguments: arguments)
    }

    /// Runs several semicolon-separated statements in order, such as a schema script.
    ///
    /// The script is not wrapped in a transaction; wrap it in ``transaction(_:_:)`` to make it all or nothing.
    /// It runs in time proportional to its length.
    ///
    /// - Parameter script: Zero or more SQL statements, without interpolated values.
    /// - Throws: ``SQLiteError`` whose message names the failing statement's position and whose
    ///   ``SQLiteError/sql`` is that statement's text; statements before it stay applied. A NUL character in
    ///   the script, or interpolated values, are refused before anything runs; a statement with parameters
    ///   (`?`, `:name`), which a script cannot bind, fails with ``SQLiteError/Kind/parameterMismatch`` when its turn
    ///   comes.
    public func executeScript(_ script: SQL) throws(SQLiteError) {
        try requireOpen()
        guard script.arguments.isEmpty else {
            throw SQLiteError(
                .parameterMismatch,
                message: "a script takes no values: run a statement that needs values with execute(_:_:)",
                sql: script.text)
        }
        try runScript(script.text)
    }

    /// Finalizes every statement in the connection's statement cache.
    ///
    /// Statements are compiled again on their next use. Useful to free memory.
    public func clearStatementCache() {
        statementCache.removeAll()
    }

    /// The number of statements in the connection's statement cache.
    ///
    /// An SQL text is kept from its second run on (the statements of table reads and writes from their first):
    /// a text run once is compiled, run and finalized.
    public var cachedStatementCount: Int {
        statementCache.count
    }

    /// The compiled statement for `sql`: from the cache, or newly compiled and kept when this is the text's
    /// second run (or `keepingAtFirstRun`, for model statements).
    @usableFromInline func cachedStatement(_ sql: String, keepingAtFirstRun: Bool = false) throws(SQLiteError)
        -> RawStatement
    {
        let key = SQLKey(sql)
        if let cached = statementCache.statement(for: key) {
            if !cached.isMidway { return cached }
            // Mid-way, it belongs to an outer run (a decoder that queries): this run gets a statement of its own.
            return try compile(sql, persistent: false)
        }
        let keep = keepingAtFirstRun || statementCache.shouldKeep(missed: key)
        let raw = try compile(sql, persistent: keep)
        if keep { statementCache.insert(raw, for: key) }
        return raw
    }
}

// MARK: - Scripts

extension Connection {
    /// Runs a script of several SQL statements, compiling and running one statement at a time.
    ///
    /// The text is handed to SQLite with its length *including* the terminating NUL that `withCString`
    /// guarantees: given a length without it, SQLite copies the rest of the script before compiling each
    /// statement, which makes a long script quadratic. A NUL inside the script would end SQLite's reading
    /// there, silently dropping what follows, so it is refused before anything runs.
    func runScript(_ script: String) throws(SQLiteError) {
        if let offset = script.utf8.firstIndex(of: 0).map({ script.utf8.distance(from: script.utf8.startIndex, to: $0) }
        ) {
            throw SQLiteError(
                .misuse, message: "the script contains a NUL character at byte \(offset); nothing was run",
                sql: String(script.prefix(200)))
        }
        let length = script.utf8.count
        let failure: SQLiteError? = script.withCString { start -> SQLiteError? in
            let end = start + length
            var cursor = start
            var position = 0
            while cursor < end {
                // Skip blanks between statements, so that each statement's text (errors, traces) starts with
                // the statement itself.
                while cursor < end && (cursor.pointee == 0x20 || (0x09...0x0D).contains(cursor.pointee)) {
                    cursor += 1
                }
                guard cursor < end else { break }
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, cursor, Int32(clamping: end - cursor + 1), &statement, &tail)
                let consumed = min(tail ?? end, end)
                let sql = String(
                    decoding: UnsafeRawBufferPointer(start: cursor, count: consumed - cursor), as: UTF8.self
                ).trimmingSQLBlanks()
                guard code == SQLITE_OK else {
                    return Self.located(SQLiteError(code: code, db: handle, sql: sql), position: position + 1)
                }
                guard let statement else { break }  // only whitespace or comments remain
                // A script binds nothing: a parameter would run as NULL.
                guard sqlite3_bind_parameter_count(statement) == 0 else {
                    sqlite3_finalize(statement)
                    let error = SQLiteError(
                        .parameterMismatch,
                        message: "a script statement cannot have parameters (it would run with NULL bound): run it "
                            + "with execute and its arguments", sql: sql)
                    return Self.located(error, position: position + 1)
                }
                if changeTracker.isActive { changeTracker.willRun(sql: sql) }
                let keyword = sql.leadingKeyword
                switch keyword {
                case .schema: changeTracker.schemaEpoch &+= 1
                case .commit where changeTracker.openTransactionBodies > 0:
                    sqlite3_finalize(statement)
                    return Self.located(ChangeTracker.commitInBody(sql: sql), position: position + 1)
                default: break
                }
                position += 1
                if interruptHandle.lower(), keyword != .rollback {  // as RawStatement.begin() does
                    sqlite3_finalize(statement)
                    let error = SQLiteError(
                        .sqlite, code: .interrupt,
                        message: "interrupted: the task was cancelled before this statement started", sql: sql)
                    return Self.located(error, position: position)
                }
                var step = sqlite3_step(statement)
                while step == SQLITE_ROW { step = sqlite3_step(statement) }
                if step != SQLITE_DONE {
                    // Before finalize resets the message; a Swift function's error is reported as thrown.
                    let error = functionErrors.resolve(SQLiteError(code: step, db: handle, sql: sql))
                    sqlite3_finalize(statement)
                    return Self.located(error, position: position)
                }
                sqlite3_finalize(statement)
                guard consumed > cursor else { break }
                cursor = consumed
            }
            return nil
        }
        if let failure { throw failure }
    }

    private static func located(_ error: SQLiteError, position: Int) -> SQLiteError {
        var error = error
        error.message = "statement \(position) of the script failed: " + error.message
        return error
    }
}

extension String {
    /// The text without leading and trailing whitespace and semicolons.
    func trimmingSQLBlanks() -> String {
        let blank: (Character) -> Bool = { $0.isWhitespace || $0 == ";" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
