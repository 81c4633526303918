extension SharedConnection {
    /// Runs `body` as a write from code that is not async, blocking the calling thread; see ``write(_:)``.
    ///
    /// The access waits for its turn among this connection's accesses (async and synchronous alike, in the order
    /// they came), then runs `body` on the calling thread while the connection's own thread waits, so the two
    /// never use the connection at once. The calling thread is blocked until then: call it where blocking is
    /// fine (a command-line tool, a test, `main.swift`, a thread of your own). From async code, prefer
    /// ``write(_:)``: a task blocked here holds one of the few threads that run every task of the process.
    ///
    /// It refuses to run inside an access (in the body of any ``SharedConnection`` or ``ConnectionPool``
    /// access, on its thread), where waiting could wait for itself: do the work in the body you are in.
    ///
    /// - Parameter body: The work to do atomically, given the owned connection.
    /// - Returns: What `body` returns.
    /// - Throws: As ``write(_:)``; ``SQLiteError/Kind/misuse`` inside an access, or after ``close()``.
    @discardableResult
    public nonisolated func writeSynchronously<Result: Sendable>(_ body: sending (Connection) throws -> Result) throws
        -> Result
    {
        try synchronousAccess { connection in try Self.writing(connection, body) }
    }

    /// Runs `body` as a read from code that is not async, blocking the calling thread; see ``read(_:)`` and
    /// ``writeSynchronously(_:)``.
    ///
    /// - Parameter body: The reads to do, given the owned connection.
    /// - Returns: What `body` returns.
    /// - Throws: As ``read(_:)``; ``SQLiteError/Kind/misuse`` inside an access, or after ``close()``.
    public nonisolated func readSynchronously<Result: Sendable>(_ body: sending (Connection) throws -> Result) throws
        -> Result
    {
        try synchronousAccess { connection in try Self.reading(connection, body) }
    }

    /// Runs `body` with exclusive use of the connection, and no transaction, from code that is not async,
    /// blocking the calling thread; see ``withConnection(_:)`` and ``writeSynchronously(_:)``.
    ///
    /// - Parameter body: The work to do, given the owned connection.
    /// - Returns: What `body` returns.
    /// - Throws: As ``withConnection(_:)``; ``SQLiteError/Kind/misuse`` inside an access, or after ``close()``.
    public nonisolated func withConnectionSynchronously<Result: Sendable>(_ body: sending (Connection) throws -> Result)
        throws -> Result
    {
        try synchronousAccess(body)
    }

    /// The synchronous path to the connection: borrows the executor, then runs the access as ``access(_:)`` does.
    nonisolated func synchronousAccess<Result: Sendable>(_ body: sending (Connection) throws -> Result) throws -> Result
    {
        try ConnectionExecutor.requireOutsideAccess()
        let lease = executor.borrow()
        defer { executor.giveBack(lease) }
        return try assumeIsolated { shared in
            defer { shared.interruptHandle.endAccess() }
            return try shared.run(body)
        }
    }
}
