extension UndoHistory {
    /// Runs `body` as a write of `shared` and, once it has committed, records its changes as one step.
    ///
    /// As ``write(on:named:_:)-(Connection,_,_)``, in one exclusive access of the shared connection (a
    /// ``SharedConnection/write(_:)`` transaction, recorded).
    ///
    /// - Parameters:
    ///   - shared: The shared connection to write with.
    ///   - name: The step's name.
    ///   - body: The work to do, given the connection.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws; the errors of ``write(on:named:_:)-(Connection,_,_)``; `CancellationError`.
    @discardableResult
    public func write<Result: Sendable>(
        on shared: SharedConnection, named name: String? = nil, _ body: sending (Connection) throws -> Result
    ) async throws -> Result {
        try await shared.withConnection { db in try self.write(on: db, named: name) { try body(db) } }
    }

    /// Undoes the last step on `shared`; see ``undo(on:)-(Connection)``.
    ///
    /// - Parameter shared: The shared connection the step was written with.
    /// - Returns: Whether there was a step to undo.
    /// - Throws: As ``undo(on:)-(Connection)``; `CancellationError`.
    @discardableResult
    public func undo(on shared: SharedConnection) async throws -> Bool {
        try await shared.withConnection { db in try self.undo(on: db) }
    }

    /// Redoes the last undone step on `shared`; see ``redo(on:)-(Connection)``.
    ///
    /// - Parameter shared: The shared connection the step was written with.
    /// - Returns: Whether there was a step to redo.
    /// - Throws: As ``undo(on:)-(Connection)``; `CancellationError`.
    @discardableResult
    public func redo(on shared: SharedConnection) async throws -> Bool {
        try await shared.withConnection { db in try self.redo(on: db) }
    }

    /// Runs `body` as a write of the pool and, once it has committed, records its changes as one step.
    ///
    /// As ``write(on:named:_:)-(SharedConnection,_,_)``, on the pool's writer.
    ///
    /// - Parameters:
    ///   - pool: The pool to write with.
    ///   - name: The step's name.
    ///   - body: The work to do, given the writer's connection.
    /// - Returns: What `body` returns.
    /// - Throws: As ``write(on:named:_:)-(SharedConnection,_,_)``.
    @discardableResult
    public func write<Result: Sendable>(
        on pool: ConnectionPool, named name: String? = nil, _ body: sending (Connection) throws -> Result
    ) async throws -> Result {
        try await write(on: pool.writer, named: name, body)
    }

    /// Undoes the last step on the pool's writer; see ``undo(on:)-(Connection)``.
    ///
    /// - Parameter pool: The pool the step was written with.
    /// - Returns: Whether there was a step to undo.
    /// - Throws: As ``undo(on:)-(Connection)``; `CancellationError`.
    @discardableResult
    public func undo(on pool: ConnectionPool) async throws -> Bool {
        try await undo(on: pool.writer)
    }

    /// Redoes the last undone step on the pool's writer; see ``redo(on:)-(Connection)``.
    ///
    /// - Parameter pool: The pool the step was written with.
    /// - Returns: Whether there was a step to redo.
    /// - Throws: As ``undo(on:)-(Connection)``; `CancellationError`.
    @discardableResult
    public func redo(on pool: ConnectionPool) async throws -> Bool {
        try await redo(on: pool.writer)
    }
}
