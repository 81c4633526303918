import CSQLiteSwiftly

/// A compiled SQL statement, reusable with different arguments.
///
/// A statement is compiled by its ``Connection`` (``Connection/prepare(_:)``) and keeps that connection alive.
/// Each run checks the arguments against the SQL's parameters and the row type against the result columns
/// before the first step, and starts from a reset state machine: a run that failed leaves the statement ready
/// for the next one.
///
/// ```swift
/// let byName = try db.prepare("SELECT * FROM planets WHERE name = ?")
/// let mars = try byName.run(["Mars"], as: Planet.self)
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

    /// Runs the statement and returns every row it produces, decoded as `type`.
    ///
    /// This is the general-purpose run: it resets the statement, checks `arguments` against the parameters and
    /// `type` against the result columns, binds, and steps to the end.
    ///
    /// - Parameters:
    ///   - arguments: One argument per parameter.
    ///   - type: The row type; ``UntypedRow`` accepts any columns.
    /// - Returns: The decoded rows, in the order SQLite produced them. Empty for statements without results.
    /// - Throws: ``SQLiteError`` for argument or model mismatches, conversion failures and SQLite errors; any
    ///   error thrown by `type`'s decoder.
    @inlinable public func run<Decoded: RowDecodable>(
        _ arguments: StatementArguments = .none, as type: Decoded.Type
    ) throws -> [Decoded] {
        try connection.readRows(raw, arguments: arguments, as: type, limit: .max, table: nil)
    }

    /// Runs a statement that returns no rows (or whose rows do not matter) and returns the changed row count.
    ///
    /// - Parameter arguments: One argument per parameter.
    /// - Returns: The number of rows the statement inserted, updated or deleted.
    /// - Throws: ``SQLiteError`` for argument mismatches and SQLite errors.
    @discardableResult
    public func execute(_ arguments: StatementArguments = .none) throws(SQLiteError) -> Int {
        try connection.execute(raw, arguments: arguments)
    }

    /// Runs the statement and returns its first row, or `nil` when there is none.
    ///
    /// - Parameters:
    ///   - arguments: One argument per parameter.
    ///   - type: The row type.
    /// - Returns: The first row, decoded; the statement is reset after it.
    /// - Throws: As ``run(_:as:)``.
    @inlinable public func fetchOne<Decoded: RowDecodable>(
        _ arguments: StatementArguments = .none, as type: Decoded.Type
    ) throws -> Decoded? {
        try connection.readFirst(raw, arguments: arguments, as: type, table: nil)
    }

    /// Runs the statement with typed arguments and returns every row it produces, decoded as `type`.
    ///
    /// The same as ``run(_:as:)``, with the arguments given as typed values, one per parameter in order. They
    /// are bound in place, with no argument list built, which makes this the fastest way to run a statement
    /// many times:
    ///
    /// ```swift
    /// let inner = try db.prepare("SELECT * FROM planets WHERE au < ? AND moons >= ?")
    /// let planets = try inner.run(Planet.self, binding: 2.0, 1)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The row type; ``UntypedRow`` accepts any columns.
    ///   - values: One value per parameter, in order (`nil` optionals bind NULL).
    /// - Returns: The decoded rows, in the order SQLite produced them.
    /// - Throws: As ``run(_:as:)``; a count of values that differs from the parameter count is a
    ///   ``SQLiteError/Kind/parameterMismatch`` error before anything runs.
    @inlinable public func run<Decoded: RowDecodable, each Value: SQLiteValueConvertible>(
        _ type: Decoded.Type, binding values: repeat each Value
    ) throws -> [Decoded] {
        try connection.readRows(raw, as: type, limit: .max, table: nil) { raw throws(SQLiteError) in
            try raw.bind(repeat each values)
        }
    }

    /// Runs the statement with typed arguments and returns its first row, or `nil` when there is none.
    ///
    /// The same as ``fetchOne(_:as:)``, with the arguments bound in place as in ``run(_:binding:)``: the
    /// fastest point lookup.
    ///
    /// ```swift
    /// let byID = try db.prepare("SELECT * FROM planets WHERE id = ?")
    /// let earth = try byID.fetchOne(Planet.self, binding: 3)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The row type.
    ///   - values: One value per parameter, in order.
    /// - Returns: The first row, decoded; the statement is reset after it.
    /// - Throws: As ``run(_:binding:)``.
    @inlinable public func fetchOne<Decoded: RowDecodable, each Value: SQLiteValueConvertible>(
        _ type: Decoded.Type, binding values: repeat each Value
    ) throws -> Decoded? {
        try connection.readFirst(raw, as: type, table: nil) { raw throws(SQLiteError) in
            try raw.bind(repeat each values)
        }
    }

    /// Runs the statement lazily: the returned cursor steps one row at a time, in constant memory.
    ///
    /// Running the statement again while the cursor is open ends the cursor: its next call throws.
    ///
    /// - Parameters:
    ///   - arguments: One argument per parameter.
    ///   - type: The row type.
    /// - Returns: A cursor over the rows.
    /// - Throws: ``SQLiteError`` for argument or model mismatches, before any row is read.
    public func cursor<Decoded: RowDecodable>(
        _ arguments: StatementArguments = .none, as type: Decoded.Type
    ) throws(SQLiteError) -> Cursor<Decoded> {
        try Cursor(statement: raw, connection: connection, arguments: arguments, table: nil)
    }
}

@available(*, unavailable, message: "A Statement belongs to its connection's owner")
extension Statement: Sendable {}
