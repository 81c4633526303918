// Running ad-hoc SQL: prepare, execute, fetch rows and values, cursors and scripts.

extension Connection {
    /// Compiles one SQL statement for repeated use.
    ///
    /// - Parameter sql: Exactly one SQL statement. More than one is refused, not truncated.
    /// - Returns: A statement bound to this connection.
    /// - Throws: ``SQLiteError`` for SQL errors, empty SQL, or several statements.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(connection: self, sql: sql)
    }

    /// Runs one SQL statement with arguments and returns the number of changed rows.
    ///
    /// The statement is compiled once and kept in the connection's statement cache.
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement.
    ///   - arguments: One argument per parameter; a ``ValueList`` expands an `IN (?)` placeholder.
    /// - Returns: The number of rows inserted, updated or deleted (0 for other statements).
    /// - Throws: ``SQLiteError`` for argument mismatches and SQLite errors.
    @discardableResult
    public func execute(_ sql: String, _ arguments: StatementArguments = .none) throws(SQLiteError) -> Int {
        let (raw, arguments) = try cachedStatement(sql, arguments: arguments)
        return try execute(raw, arguments: arguments)
    }

    /// Runs a query and decodes every row.
    ///
    /// - Parameters:
    ///   - type: The row type: a ``TableModel``, another ``RowDecodable``, or ``UntypedRow``.
    ///   - sql: Exactly one SQL statement.
    ///   - arguments: One argument per parameter.
    /// - Returns: The decoded rows.
    /// - Throws: ``SQLiteError`` for argument or model mismatches, conversion failures and SQLite errors.
    @inlinable public func fetchAll<Decoded: RowDecodable>(
        _ type: Decoded.Type, _ sql: String, _ arguments: StatementArguments = .none
    ) throws -> [Decoded] {
        let (raw, arguments) = try cachedStatement(sql, arguments: arguments)
        return try readRows(raw, arguments: arguments, as: type, limit: .max, table: nil)
    }

    /// Runs a query and decodes its first row, or returns `nil` when there is none.
    ///
    /// - Parameters:
    ///   - type: The row type.
    ///   - sql: Exactly one SQL statement.
    ///   - arguments: One argument per parameter.
    /// - Returns: The first row, or `nil`.
    /// - Throws: As ``fetchAll(_:_:_:)``.
    @inlinable public func fetchOne<Decoded: RowDecodable>(
        _ type: Decoded.Type, _ sql: String, _ arguments: StatementArguments = .none
    ) throws -> Decoded? {
        let (raw, arguments) = try cachedStatement(sql, arguments: arguments)
        return try readFirst(raw, arguments: arguments, as: type, table: nil)
    }

    /// Runs a query and returns the first column of its first row as a single value.
    ///
    /// ```swift
    /// let count = try db.fetchValue(Int.self, "SELECT count(*) FROM planets")  // Int?
    /// ```
    ///
    /// - Parameters:
    ///   - type: The value type.
    ///   - sql: Exactly one SQL statement returning at least one column.
    ///   - arguments: One argument per parameter.
    /// - Returns: The value, or `nil` when the query returns no row. A NULL value reads as `nil` only when
    ///   `type` is optional; otherwise it is a conversion error.
    /// - Throws: ``SQLiteError`` for argument mismatches, conversion failures and SQLite errors.
    public func fetchValue<Value: SQLiteValueConvertible>(
        _ type: Value.Type, _ sql: String, _ arguments: StatementArguments = .none
    ) throws(SQLiteError) -> Value? {
        let (raw, arguments) = try cachedStatement(sql, arguments: arguments)
        guard raw.columnCount > 0 else {
            throw SQLiteError(.modelMismatch, message: "the statement returns no column to read a value from", sql: sql)
        }
        do {
            return try readRows(raw, arguments: arguments, as: SingleValue<Value>.self, limit: 1, table: nil)
                .first?.value
        } catch let error as SQLiteError {
            throw error
        } catch {
            throw SQLiteError(.misuse, message: "unexpected error: \(error)", sql: sql)
        }
    }

    /// Runs a query lazily: the cursor steps one row at a time, in constant memory.
    ///
    /// The cursor compiles its own statement, so other queries can run while it is open. Stop early by
    /// dropping it or calling ``Cursor/close()``; the connection stays usable either way.
    ///
    /// - Parameters:
    ///   - type: The row type.
    ///   - sql: Exactly one SQL statement.
    ///   - arguments: One argument per parameter.
    /// - Returns: A cursor over the rows.
    /// - Throws: ``SQLiteError`` for SQL errors and argument or model mismatches, before any row is read.
    public func cursor<Decoded: RowDecodable>(
        _ type: Decoded.Type, _ sql: String, _ arguments: StatementArguments = .none
    ) throws(SQLiteError) -> Cursor<Decoded> {
        let (sql, arguments) = try SQLPlaceholders.expand(sql, arguments)
        return try Cursor(statement: compile(sql), connection: self, arguments: arguments, table: nil)
    }

    /// Runs several semicolon-separated statements in order, such as a schema script.
    ///
    /// The script is not wrapped in a transaction; wrap it in ``transaction(_:_:)`` to make it all or nothing.
    /// The script takes no arguments.
    ///
    /// - Parameter sql: Zero or more SQL statements.
    /// - Throws: ``SQLiteError`` whose message names the failing statement's position and whose
    ///   ``SQLiteError/sql`` is that statement's text; statements before it stay applied.
    public func executeScript(_ sql: String) throws(SQLiteError) {
        try ScriptRunner.run(sql, on: handle)
    }

    /// Finalizes every statement in the connection's statement cache.
    ///
    /// Statements are compiled again on their next use. Useful after schema changes or to free memory.
    public func clearStatementCache() {
        statementCache.removeAll()
    }

    /// The number of statements in the connection's statement cache.
    public var cachedStatementCount: Int {
        statementCache.count
    }

    /// The compiled statement for `sql`, from the cache or newly compiled, with list arguments expanded.
    @usableFromInline func cachedStatement(
        _ sql: String, arguments: StatementArguments
    ) throws(SQLiteError) -> (RawStatement, StatementArguments) {
        var (sql, arguments) = (sql, arguments)
        if arguments.containsList { (sql, arguments) = try SQLPlaceholders.expand(sql, arguments) }
        // A statement that is still mid-way belongs to an outer run (a decoder that queries); leave it alone.
        if let cached = statementCache.statement(for: sql), !cached.isMidway {
            return (cached, arguments)
        }
        let raw = try compile(sql, persistent: true)
        statementCache.insert(raw)
        return (raw, arguments)
    }
}

/// Decodes the first column of a row as one value, for ``Connection/fetchValue(_:_:_:)``.
struct SingleValue<Value: SQLiteValueConvertible>: RowDecodable {
    let value: Value

    init(row: Row) throws {
        value = try row[0]
    }
}
