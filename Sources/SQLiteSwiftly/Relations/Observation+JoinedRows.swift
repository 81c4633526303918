// Observing a query that joins tables: its rows as tuples, fetched again after each commit that changed any of the
// tables it read (the authorizer reports every table a statement reads, through joins, views and subqueries).

extension SharedConnection {
    /// Observes the rows of a query that joins tables, decoded as tuples: ``observe(options:_:)`` with
    /// ``Connection/fetchAll(_:_:_:)->[(First,Second,Other)]``.
    ///
    /// The query is fetched again after each commit that changes any table it reads.
    ///
    /// - Parameters:
    ///   - type: The tuple of row types.
    ///   - sql: Exactly one query; interpolated values are bound.
    ///   - arguments: One argument per parameter written in `sql`, when it has no interpolated values.
    ///   - options: How often other connections' commits are checked for.
    /// - Returns: An asynchronous sequence of the decoded rows.
    public nonisolated func observe<
        First: JoinedRowMember & Sendable, Second: JoinedRowMember & Sendable, each Other: JoinedRowMember & Sendable
    >(
        _ type: (First, Second, repeat each Other).Type, _ sql: SQL, _ arguments: StatementArguments = .none,
        options: ObservationOptions = .default
    ) -> QueryObservation<[(First, Second, repeat each Other)]> {
        observe(options: options) { db in try db.fetchAll(type, sql, arguments) }
    }
}

extension ConnectionPool {
    /// Observes the rows of a query that joins tables, decoded as tuples, on the pool's readers: see
    /// ``SharedConnection/observe(_:_:_:options:)->QueryObservation<[(First,Second,Other)]>``.
    ///
    /// - Parameters:
    ///   - type: The tuple of row types.
    ///   - sql: Exactly one query; interpolated values are bound.
    ///   - arguments: One argument per parameter written in `sql`, when it has no interpolated values.
    ///   - options: How often other connections' commits are checked for.
    /// - Returns: An asynchronous sequence of the decoded rows.
    public func observe<
        First: JoinedRowMember & Sendable, Second: JoinedRowMember & Sendable, each Other: JoinedRowMember & Sendable
    >(
        _ type: (First, Second, repeat each Other).Type, _ sql: SQL, _ arguments: StatementArguments = .none,
        options: ObservationOptions = .default
    ) -> QueryObservation<[(First, Second, repeat each Other)]> {
        observe(options: options) { db in try db.fetchAll(type, sql, arguments) }
    }
}
