/// An app's undo and redo: each committed write, or each named group of writes, is one step that can be undone
/// and redone.
///
/// Write through the history, and each write records its changeset (see ``Connection/recordingChangeset(of:_:)``)
/// as one step. ``undo(on:)-(Connection)`` applies the inverse of the last step, ``redo(on:)-(Connection)`` the step again, each in one
/// transaction; observations (``SharedConnection/observe(options:_:)``) see them like any other commit. A new write
/// after an undo clears the steps that could be redone, and only the last ``depth`` steps are kept.
///
/// ```swift
/// let history = UndoHistory()
/// try history.write(on: db, named: "Rename") {
///     try db.execute("UPDATE notes SET title = 'Groceries' WHERE id = 1")
/// }
/// try history.undo(on: db)  // the title is back
/// try history.redo(on: db)  // and renamed again
/// ```
///
/// Undo never overwrites someone else's work: when a row the step changed was changed since by a write that did
/// not go through the history (another connection, another process, a sync), undo and redo throw
/// ``SQLiteError/Kind/changesetConflict`` naming the table, and leave the database and the history as they were.
/// ``removeAll()`` then starts afresh.
///
/// A history is `Sendable` and belongs to one database: hold it beside the ``SharedConnection`` or
/// ``ConnectionPool`` (or ``Connection``) it records, and use the methods that take it.
public final class UndoHistory: Sendable {
    /// One step: the changesets of the writes it groups, in the order they were made.
    struct Step: Sendable {
        var id: UInt64
        var name: String?
        var parts: [Changeset]
    }

    /// The group open now: the steps recorded while it is open become one.
    struct Group: Sendable {
        var name: String
        var depth: Int
        var parts: [Changeset] = []
    }

    struct State: Sendable {
        var undo: [Step] = []
        var redo: [Step] = []
        var group: Group?
        var nextID: UInt64 = 0
    }

    /// How many steps are kept: recording one more drops the oldest.
    public let depth: Int
    /// The tables whose changes are recorded, or `nil` for every table of the `main` database.
    public let tables: [String]?
    private let state = TrackedMutex(State())

    /// Creates an empty history.
    ///
    /// - Parameters:
    ///   - depth: How many steps to keep (100 by default); the oldest are dropped beyond it. A negative depth
    ///     counts as 0, which keeps none.
    ///   - tables: The tables to record, or `nil` (the default) for every table of the `main` database. Leave out
    ///     tables that hold no user work (a cache, the selection), so that undo does not change them.
    public init(depth: Int = 100, tables: [String]? = nil) {
        self.depth = max(0, depth)
        self.tables = tables
    }

    /// Whether there is a step to undo.
    public var canUndo: Bool { state.withLock { !$0.undo.isEmpty } }
    /// Whether there is a step to redo.
    public var canRedo: Bool { state.withLock { !$0.redo.isEmpty } }
    /// The name of the step ``undo(on:)-(Connection)`` would undo, for a menu item such as "Undo Rename".
    public var undoName: String? { state.withLock { $0.undo.last?.name } }
    /// The name of the step ``redo(on:)-(Connection)`` would redo.
    public var redoName: String? { state.withLock { $0.redo.last?.name } }
    /// The number of steps that can be undone.
    public var undoCount: Int { state.withLock { $0.undo.count } }
    /// The number of steps that can be redone.
    public var redoCount: Int { state.withLock { $0.redo.count } }

    /// Runs `body` in a transaction and, once it has committed, records its changes as one step.
    ///
    /// A write that changes nothing records no step. Otherwise the step clears the steps that could be redone.
    ///
    /// - Parameters:
    ///   - db: The connection to write with; it must not be in a transaction, so that the step is a commit.
    ///   - name: The step's name, for ``undoName`` and ``redoName``.
    ///   - body: The work to do.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, and the errors of ``Connection/recordingChangeset(of:_:)`` (nothing is
    ///   written or recorded then); ``SQLiteError/Kind/misuse`` when `db` is in a transaction.
    @discardableResult
    public func write<Result>(on db: Connection, named name: String? = nil, _ body: () throws -> Result) throws
        -> Result
    {
        try Self.requireOutsideTransaction(db)
        let (result, changeset) = try db.recordingChangeset(of: tables, body)
        record(changeset, named: name)
        return result
    }

    /// Undoes the last step: applies the inverse of its changes in one transaction.
    ///
    /// - Parameter db: The connection the step was written with; it must not be in a transaction.
    /// - Returns: Whether there was a step to undo.
    /// - Throws: ``SQLiteError/Kind/changesetConflict`` when a row the step changed was changed since by a write
    ///   the history did not record; ``SQLiteError/Kind/misuse`` inside a transaction or a ``group(named:_:)``;
    ///   the errors of ``Connection/apply(_:onConflict:)-(Changeset,_)``. The database and the history are then as they were.
    @discardableResult
    public func undo(on db: Connection) throws -> Bool {
        try move(undoing: true, on: db)
    }

    /// Redoes the last undone step: applies its changes again in one transaction.
    ///
    /// - Parameter db: The connection the step was written with; it must not be in a transaction.
    /// - Returns: Whether there was a step to redo.
    /// - Throws: As ``undo(on:)-(Connection)``.
    @discardableResult
    public func redo(on db: Connection) throws -> Bool {
        try move(undoing: false, on: db)
    }

    /// Makes the steps recorded while `body` runs one step named `name`.
    ///
    /// Groups nest: the outermost one's name is kept. Writes that committed before `body` threw stay in the
    /// database and form the step.
    ///
    /// - Parameters:
    ///   - name: The step's name.
    ///   - body: The writes to group.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func group<Result>(named name: String, _ body: () throws -> Result) rethrows -> Result {
        beginGroup(name)
        defer { endGroup() }
        return try body()
    }

    /// Makes the steps recorded while `body` runs one step named `name`; for writes through a
    /// ``SharedConnection`` or a ``ConnectionPool``.
    ///
    /// A group collects every step recorded while it is open, from any task: keep other writes through the
    /// history out of the span.
    ///
    /// - Parameters:
    ///   - name: The step's name.
    ///   - isolation: The caller's isolation, where `body` runs.
    ///   - body: The writes to group.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func group<Result>(
        named name: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async rethrows -> Result {
        beginGroup(name)
        defer { endGroup() }
        return try await body()
    }

    /// Forgets every step; the database is not changed.
    public func removeAll() {
        state.withLock { state in
            state.undo = []
            state.redo = []
            state.group?.parts = []
        }
    }

    /// Records a committed write's changeset as a step, or as part of the open group.
    private func record(_ changeset: Changeset, named name: String?) {
        guard !changeset.isEmpty else { return }
        state.withLock { state in
            state.redo = []
            if state.group != nil {
                state.group?.parts.append(changeset)
            } else {
                push(Step(id: state.nextID, name: name, parts: [changeset]), to: &state)
            }
        }
    }

    private func push(_ step: Step, to state: inout State) {
        state.nextID += 1
        state.undo.append(step)
        if state.undo.count > depth { state.undo.removeFirst(state.undo.count - depth) }
    }

    private func beginGroup(_ name: String) {
        state.withLock { state in
            if state.group == nil { state.group = Group(name: name, depth: 0) }
            state.group?.depth += 1
        }
    }

    private func endGroup() {
        state.withLock { state in
            guard var group = state.group else { return }
            group.depth -= 1
            guard group.depth == 0 else {
                state.group = group
                return
            }
            state.group = nil
            if !group.parts.isEmpty { push(Step(id: state.nextID, name: group.name, parts: group.parts), to: &state) }
        }
    }

    /// Undoes (or redoes) the last step in one transaction, then moves it to the other stack.
    private func move(undoing: Bool, on db: Connection) throws -> Bool {
        try Self.requireOutsideTransaction(db)
        let next = try state.withLock { state throws(SQLiteError) -> Step? in
            guard state.group == nil else {
                throw SQLiteError(.misuse, message: "undo and redo are refused while a group of writes is open")
            }
            return undoing ? state.undo.last : state.redo.last
        }
        guard let step = next else { return false }
        let verb = undoing ? "undo" : "redo"
        try db.transaction(.immediate) {
            for part in undoing ? step.parts.reversed() : step.parts {
                try db.apply(undoing ? part.inverted() : part) { conflict in
                    var error = SQLiteError(
                        .changesetConflict, code: .abort,
                        message: "cannot \(verb) \(step.name.map { "\"\($0)\"" } ?? "the step"): the database was "
                            + "changed since by a write the history did not record (\(conflict.summary)); the database "
                            + "and the history are as they were")
                    error.table = conflict.change?.table
                    throw error
                }
            }
        }
        state.withLock { state in
            // Moved only if still there: another task may have cleared the history meanwhile.
            if undoing, state.undo.last?.id == step.id {
                state.undo.removeLast()
                state.redo.append(step)
            } else if !undoing, state.redo.last?.id == step.id {
                state.redo.removeLast()
                state.undo.append(step)
            }
        }
        return true
    }

    private static func requireOutsideTransaction(_ db: Connection) throws(SQLiteError) {
        guard !db.isInTransaction else {
            throw SQLiteError(
                .misuse,
                message: "an undo step is a committed write: write, undo and redo through the history outside any "
                    + "transaction (for a SharedConnection or a ConnectionPool, pass it instead of its connection)")
        }
    }
}
