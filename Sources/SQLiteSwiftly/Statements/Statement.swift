/// A compiled SQL statement, reusable with different arguments.
///
/// A statement is compiled by its ``Connection`` (``Connection/prepare(_:)``) and keeps that connection alive.
/// It reads with the connection's verbs, always type first, then arguments: as an argument list, or as typed
/// values bound in place (`binding:`), the fastest way to run a statement many times. Each run checks the
/// arguments against the SQL's parameters and starts from a reset state machine: a run that failed leaves the
/// statement ready for the next one.
///
/// ```swift
/// let byName = try db.prepare("SELECT * FROM planets WHERE name = ?")
/// let mars = try byName.fetchOne(Planet.self, binding: "Mars")
/// let venus = try byName.fetchOne(Planet.self, ["Venus"])
/// ```
///
/// A statement is not `Sendable`; it belongs to its connection's owner.
public final class Statement {
    @usableFromInline let raw: RawStatement
    @usableFromInline let connection: Connection

    /// Compiles `sql` on `connection`: the statement's handle is born here and never leaves it.
    init(connection: Connection, sql: String) throws(SQLiteError) {
        self.connection = connection
        raw = try connection.compile(sql, persistent: true)
    }

    /// The SQL text the statement was compiled from.
    public var sql: String { raw.sql }

    /// The number of parameters (the largest parameter index for `?NNN`).
    public var parameterCount: Int { Int(raw.parameterCount) }

    /// The parameter names in order, `nil` for anonymous `?` parameters.
    public var parameterNames: [String?] { raw.parameterNames }

    /// The result column names, empty for statements that return no rows.
    public var columnNames: [String] { raw.columnNames }

    /// Whether the statement leaves the database unchanged (a SELECT, most PRAGMAs).
    public var isReadOnly: Bool { raw.isReadOnly }

    /// Runs the statement and returns the number of rows it changed.
    ///
    /// - Parameter arguments: One argument per parameter.
    /// - Returns: The number of rows the statement inserted, updated or deleted.
    /// - Throws: ``SQLiteError`` for argument mismatches and SQLite errors.
    @discardableResult
    public func execute(_ arguments: StatementArguments = .none) throws(SQLiteError) -> Int {
        try connection.execute(raw) { raw throws(SQLiteError) in try raw.bindIfNeeded(arguments) }
    }

    /// Runs the statement with typed values and returns the number of rows it changed.
    ///
    /// - Parameters:
    ///   - first: The first parameter's value (`nil` optionals bind NULL).
    ///   - values: One value for each further parameter, in order.
    /// - Returns: The number of rows the statement inserted, updated or deleted.
    /// - Throws: As ``execute(_:)``.
    @inlinable @discardableResult
    public func execute<First: SQLiteValueConvertible, each Value: SQLiteValueConvertible>(
        binding first: First, _ values: repeat each Value
    ) throws(SQLiteError) -> Int {
        try connection.execute(raw) { raw throws(SQLiteError) in try raw.bind(first, repeat each values) }
    }

    /// Runs the statement and decodes every row.
    ///
    /// - Parameters:
    ///   - type: The row type; ``UntypedRow`` accepts any columns.
    ///   - arguments: One argument per parameter.
    /// - Returns: The decoded rows, in the order SQLite produced them.
    /// - Throws: ``SQLiteError`` for argument or model mismatches, conversion failures and SQLite errors; any
    ///   error thrown by `type`'s decoder.
    @inlinable public func fetchAll<Decoded: RowDecodable>(
        _ type: Decoded.Type, _ arguments: StatementArguments = .none
    ) throws -> [Decoded] {
        try connection.readRows(raw, as: type) { raw throws(SQLiteError) in try raw.bindIfNeeded(arguments) }
    }

    /// Runs the statement with typed values and decodes every row.
    ///
    /// ```swift
    /// let inner = try db.prepare("SELECT * FROM planets WHERE au < ? AND moons >= ?")
    /// let planets = try inner.fetchAll(Planet.self, binding: 2.0, 1)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The row type.
    ///   - first: The first parameter's value (`nil` optionals bind NULL).
    ///   - values: One value for each further parameter, in order.
    /// - Returns: The decoded rows.
    /// - Throws: As ``fetchAll(_:_:)->[Decoded]``; a count of values that differs from the parameter count is a
    ///   ``SQLiteError/Kind/parameterMismatch`` error before anything runs.
    @inlinable
    public func fetchAll<Decoded: RowDecodable, First: SQLiteValueConvertible, each Value: SQLiteValueConvertible>(
        _ type: Decoded.Type, binding first: First, _ values: repeat each Value
    ) throws -> [Decoded] {
        try connection.readRows(raw, as: type) { raw throws(SQLiteError) in try raw.bind(first, repeat each values) }
    }

    /// Runs the statement and decodes its first row, or returns `nil` when there is none.
    ///
    /// - Parameters:
    ///   - type: The row type.
    ///   - arguments: One argument per parameter.
    /// - Returns: The first row; the statement is reset after it.
    /// - Throws: As ``fetchAll(_:_:)->[Decoded]``.
    @inlinable public func fetchOne<Decoded: RowDecodable>(
        _ type: Decoded.Type, _ arguments: StatementArguments = .none
    ) throws -> Decoded? {
        try connection.readFirst(raw, as: type) { raw throws(SQLiteError) in try raw.bindIfNeeded(arguments) }
    }

    /// Runs the statement with typed values and decodes its first row: the fastest point lookup.
    ///
    /// ```swift
    /// let byID = try db.prepare("SELECT * FROM planets WHERE id = ?")
    /// let earth = try byID.fetchOne(Planet.self, binding: 3)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The row type.
    ///   - first: The first parameter's value.
    ///   - values: One value for each further parameter, in order.
    /// - Returns: The first row, or `nil`; the statement is reset after it.
    /// - Throws: As ``fetchAll(_:binding:_:)->[Decoded]``.
    @inlinable
    public func fetchOne<Decoded: RowDecodable, First: SQLiteValueConvertible, each Value: SQLiteValueConvertible>(
        _ type: Decoded.Type, binding first: First, _ values: repeat each Value
    ) throws -> Decoded? {
        try connection.readFirst(raw, as: type) { raw throws(SQLiteError) in try raw.bind(first, repeat each values) }
    }

    /// Runs the statement and returns the first column of its first row.
    ///
    /// - Parameters:
    ///   - type: The value type.
    ///   - arguments: One argument per parameter.
    /// - Returns: The value, or `nil` when there is no row.
    /// - Throws: ``SQLiteError`` for argument mismatches, conversion failures and SQLite errors.
    public func fetchValue<Value: SQLiteValueConvertible>(
        _ type: Value.Type, _ arguments: StatementArguments = .none
    ) throws(SQLiteError) -> Value? {
        try connection.readValue(raw, as: type) { raw throws(SQLiteError) in try raw.bindIfNeeded(arguments) }
    }

    /// Runs the statement with typed values and returns the first column of its first row.
    ///
    /// - Parameters:
    ///   - type: The value type.
    ///   - first: The first parameter's value.
    ///   - values: One value for each further parameter, in order.
    /// - Returns: The value, or `nil` when there is no row.
    /// - Throws: As ``fetchValue(_:_:)``.
    @inlinable
    public func fetchValue<
        Value: SQLiteValueConvertible, First: SQLiteValueConvertible, each Argument: SQLiteValueConvertible
    >(
        _ type: Value.Type, binding first: First, _ values: repeat each Argument
    ) throws(SQLiteError) -> Value? {
        try connection.readValue(raw, as: type) { raw throws(SQLiteError) in try raw.bind(first, repeat each values) }
    }

    /// Runs the statement lazily: the returned cursor steps one row at a time, in constant memory.
    ///
    /// Running the statement again while the cursor is open ends the cursor: its next call throws.
    ///
    /// - Parameters:
    ///   - type: The row type.
    ///   - arguments: One argument per parameter.
    /// - Returns: A cursor over the rows.
    /// - Throws: ``SQLiteError`` for argument or model mismatches, before any row is read.
    public func fetchCursor<Decoded: RowDecodable>(
        _ type: Decoded.Type, _ arguments: StatementArguments = .none
    ) throws(SQLiteError) -> Cursor<Decoded> {
        try Cursor(statement: raw, connection: connection, arguments: arguments)
    }
}

@available(*, unavailable, message: "A Statement belongs to its connection's owner")
extension Statement: Sendable {}
