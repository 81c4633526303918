extension SharedConnection: ObservationOwner {
    /// Observes a query: the current result, then a fresh one after each committed transaction that changed what
    /// `fetch` read.
    ///
    /// ```swift
    /// for try await count in shared.observe({ db in try db.fetchValue(Int.self, "SELECT count(*) FROM notes") }) {
    ///     print(count ?? 0)
    /// }
    /// ```
    ///
    /// `fetch` runs as a ``read(_:)``, on the connection's thread. Writes made through this shared connection are
    /// noticed at their commit; commits of other connections and processes within
    /// ``ObservationOptions/otherConnectionCheckInterval``. See ``QueryObservation``.
    ///
    /// - Parameters:
    ///   - options: How often other connections' commits are checked for.
    ///   - fetch: The reads whose result is observed. It may run many times, and must only read.
    /// - Returns: An asynchronous sequence of results; nothing runs until it is iterated.
    public nonisolated func observe<Value: Sendable>(
        options: ObservationOptions = .default, _ fetch: @escaping @Sendable (Connection) throws -> Value
    ) -> QueryObservation<Value> {
        QueryObservation(owner: self, options: options, fetch: fetch)
    }

    /// Observes the rows of a query, decoded as `type`: ``observe(options:_:)`` with
    /// ``Connection/fetchAll(_:_:_:)->[Decoded]``.
    ///
    /// ```swift
    /// for try await planets in shared.observe(Planet.self, "SELECT * FROM planets ORDER BY name") {
    ///     show(planets)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The row type.
    ///   - sql: Exactly one query; interpolated values are bound.
    ///   - arguments: One argument per parameter written in `sql`, when it has no interpolated values.
    ///   - options: How often other connections' commits are checked for.
    /// - Returns: An asynchronous sequence of the decoded rows.
    public nonisolated func observe<Decoded: RowDecodable & Sendable>(
        _ type: Decoded.Type, _ sql: SQL, _ arguments: StatementArguments = .none,
        options: ObservationOptions = .default
    ) -> QueryObservation<[Decoded]> {
        observe(options: options) { db in try db.fetchAll(type, sql, arguments) }
    }

    /// The changes of each transaction committed through this shared connection, and the commits of other
    /// connections and processes.
    ///
    /// Each committed transaction is delivered once, after its commit, outside any access: a rolled-back one never.
    /// Transactions are reported from the first access that starts after this call. Commits of other connections
    /// and processes are checked for every `options.otherConnectionCheckInterval`, and delivered as a change with
    /// ``DatabaseChange/isFromAnotherConnection`` set. The stream buffers what its consumer has not read yet; end
    /// it by leaving the loop or cancelling the task, and it ends by itself when the shared connection goes away.
    ///
    /// - Parameter options: How often other connections' commits are checked for.
    /// - Returns: The changes, one per committed transaction.
    public nonisolated func changes(options: ObservationOptions = .default) -> AsyncStream<DatabaseChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: DatabaseChange.self)
        let hub = observationHub
        if let id = hub.addSubscriber(continuation, options: options) {
            continuation.onTermination = { _ in hub.remove(id) }
        }
        return stream
    }

    func startTracking() async throws {
        try await access { _ in }
    }

    func observedFetch<Value: Sendable>(_ fetch: @escaping @Sendable (Connection) throws -> Value) async throws
        -> (Value, ObservedRegion)
    {
        try await read { connection in
            let tracker = connection.changeTracker
            tracker.startRecording()
            do {
                let value = try fetch(connection)
                return (value, tracker.stopRecording())
            } catch {
                _ = tracker.stopRecording()
                throw error
            }
        }
    }

    /// Whether another connection or process committed since the last check, `nil` when the check failed; see
    /// ``ObservationHub``.
    func otherConnectionCommitted() async throws -> Bool? {
        try await access { connection in connection.changeTracker.otherConnectionCommitted() }
    }
}
