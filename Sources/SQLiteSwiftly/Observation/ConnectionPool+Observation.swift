extension ConnectionPool: ObservationOwner {
    /// Observes a query: the current result, then a fresh one after each committed transaction that changed what
    /// `fetch` read.
    ///
    /// Each fetch runs as a ``read(_:)`` on a reader, so it never waits for a write, and it starts after the commit
    /// that triggered it, so it sees that commit. See ``SharedConnection/observe(options:_:)`` and
    /// ``QueryObservation``.
    ///
    /// - Parameters:
    ///   - options: How often other connections' commits are checked for.
    ///   - fetch: The reads whose result is observed. It may run many times, and must only read.
    /// - Returns: An asynchronous sequence of results; nothing runs until it is iterated.
    public func observe<Value: Sendable>(
        options: ObservationOptions = .default, _ fetch: @escaping @Sendable (Connection) throws -> Value
    ) -> QueryObservation<Value> {
        QueryObservation(owner: self, options: options, fetch: fetch)
    }

    /// Observes the rows of a query, decoded as `type`: ``observe(options:_:)`` with
    /// ``Connection/fetchAll(_:_:_:)->[Decoded]``.
    ///
    /// - Parameters:
    ///   - type: The row type.
    ///   - sql: Exactly one query; interpolated values are bound.
    ///   - arguments: One argument per parameter written in `sql`, when it has no interpolated values.
    ///   - options: How often other connections' commits are checked for.
    /// - Returns: An asynchronous sequence of the decoded rows.
    public func observe<Decoded: RowDecodable & Sendable>(
        _ type: Decoded.Type, _ sql: SQL, _ arguments: StatementArguments = .none,
        options: ObservationOptions = .default
    ) -> QueryObservation<[Decoded]> {
        observe(options: options) { db in try db.fetchAll(type, sql, arguments) }
    }

    /// The changes of each transaction committed through the pool's writer, and the commits of other connections
    /// and processes; see ``SharedConnection/changes(options:)``.
    ///
    /// - Parameter options: How often other connections' commits are checked for.
    /// - Returns: The changes, one per committed transaction.
    public func changes(options: ObservationOptions = .default) -> AsyncStream<DatabaseChange> {
        writer.changes(options: options)
    }

    var observationHub: ObservationHub {
        writer.observationHub
    }

    func startTracking() async throws {
        try await writer.startTracking()
    }

    func observedFetch<Value: Sendable>(_ fetch: @escaping @Sendable (Connection) throws -> Value) async throws
        -> (Value, ObservedRegion)
    {
        try await nextReader().observedFetch(fetch)
    }
}
