// Joined rows from a prepared statement: the tuple forms of Statement's verbs (see Connection+JoinedRows).

extension Statement {
    /// Runs the statement and decodes every row into a tuple, one member per table.
    ///
    /// See ``Connection/fetchAll(_:_:_:)->[(First,Second,Other)]`` for how columns are assigned to members.
    ///
    /// - Parameters:
    ///   - type: The tuple of row types.
    ///   - arguments: One argument per parameter.
    /// - Returns: The decoded rows.
    /// - Throws: As ``Connection/fetchAll(_:_:_:)->[(First,Second,Other)]``.
    @inlinable public func fetchAll<First: JoinedRowMember, Second: JoinedRowMember, each Other: JoinedRowMember>(
        _ type: (First, Second, repeat each Other).Type, _ arguments: StatementArguments = .none
    ) throws -> [(First, Second, repeat each Other)] {
        try connection.readJoinedRows(raw, as: JoinedRow<First, Second, repeat each Other>.self) {
            raw throws(SQLiteError) in try raw.bindIfNeeded(arguments)
        }
    }

    /// Runs the statement with typed values and decodes every row into a tuple.
    ///
    /// - Parameters:
    ///   - type: The tuple of row types.
    ///   - first: The first parameter's value (`nil` optionals bind NULL).
    ///   - values: One value for each further parameter, in order.
    /// - Returns: The decoded rows.
    /// - Throws: As ``fetchAll(_:_:)->[(First,Second,Other)]``; a count of values that differs from the
    ///   parameter count is a ``SQLiteError/Kind/parameterMismatch`` error before anything runs.
    @inlinable
    public func fetchAll<
        First: JoinedRowMember, Second: JoinedRowMember, each Other: JoinedRowMember,
        Value: SQLiteValueConvertible, each Argument: SQLiteValueConvertible
    >(
        _ type: (First, Second, repeat each Other).Type, binding first: Value, _ values: repeat each Argument
    ) throws -> [(First, Second, repeat each Other)] {
        try connection.readJoinedRows(raw, as: JoinedRow<First, Second, repeat each Other>.self) {
            raw throws(SQLiteError) in try raw.bind(first, repeat each values)
        }
    }

    /// Runs the statement and decodes its first row into a tuple, or returns `nil` when there is none.
    ///
    /// - Parameters:
    ///   - type: The tuple of row types.
    ///   - arguments: One argument per parameter.
    /// - Returns: The first row; the statement is reset after it.
    /// - Throws: As ``fetchAll(_:_:)->[(First,Second,Other)]``.
    @inlinable public func fetchOne<First: JoinedRowMember, Second: JoinedRowMember, each Other: JoinedRowMember>(
        _ type: (First, Second, repeat each Other).Type, _ arguments: StatementArguments = .none
    ) throws -> (First, Second, repeat each Other)? {
        try connection.readJoinedRows(raw, as: JoinedRow<First, Second, repeat each Other>.self, limit: 1) {
            raw throws(SQLiteError) in try raw.bindIfNeeded(arguments)
        }.first
    }

    /// Runs the statement with typed values and decodes its first row into a tuple.
    ///
    /// - Parameters:
    ///   - type: The tuple of row types.
    ///   - first: The first parameter's value.
    ///   - values: One value for each further parameter, in order.
    /// - Returns: The first row, or `nil`; the statement is reset after it.
    /// - Throws: As ``fetchAll(_:binding:_:)->[(First,Second,Other)]``.
    @inlinable
    public func fetchOne<
        First: JoinedRowMember, Second: JoinedRowMember, each Other: JoinedRowMember,
        Value: SQLiteValueConvertible, each Argument: SQLiteValueConvertible
    >(
        _ type: (First, Second, repeat each Other).Type, binding first: Value, _ values: repeat each Argument
    ) throws -> (First, Second, repeat each Other)? {
        try connection.readJoinedRows(raw, as: JoinedRow<First, Second, repeat each Other>.self, limit: 1) {
            raw throws(SQLiteError) in try raw.bind(first, repeat each values)
        }.first
    }

    /// Runs the statement lazily: the returned cursor decodes one tuple at a time, in constant memory.
    ///
    /// Running the statement again while the cursor is open ends the cursor: its next call throws.
    ///
    /// - Parameters:
    ///   - type: The tuple of row types.
    ///   - arguments: One argument per parameter.
    /// - Returns: A cursor over the rows.
    /// - Throws: ``SQLiteError`` for argument mismatches and columns that cannot be assigned to the members,
    ///   before any row is read.
    public func fetchCursor<First: JoinedRowMember, Second: JoinedRowMember, each Other: JoinedRowMember>(
        _ type: (First, Second, repeat each Other).Type, _ arguments: StatementArguments = .none
    ) throws(SQLiteError) -> JoinedCursor<First, Second, repeat each Other> {
        try JoinedCursor(statement: raw, connection: connection, arguments: arguments)
    }
}
