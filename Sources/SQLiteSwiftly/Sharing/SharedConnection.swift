/// One ``Connection`` shared safely by many threads and Swift tasks: an actor that owns the connection.
///
/// A ``Connection`` is not `Sendable`: one owner uses it at a time. `SharedConnection` is that owner, and it is
/// `Sendable`. The actor opens the connection itself, from an ``OpenMode``, so the connection never crosses an
/// isolation boundary. Every access is an `async` call whose synchronous closure receives the connection:
///
/// ```swift
/// let shared = try SharedConnection(.open(path: path))
/// try await shared.write { db in
///     try db.execute("INSERT INTO notes (text) VALUES (?)", ["hello"])
/// }
/// let count = try await shared.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM notes") }
/// ```
///
/// ## Exclusive accesses
///
/// The actor runs one access at a time, in full: a ``write(_:)`` transaction never interleaves with another
/// access from this process. Other connections and processes are kept out by SQLite's locks; a write takes the
/// write lock at `BEGIN IMMEDIATE`, so a busy database fails there (``SQLiteError/isBusy``), before the body runs.
///
/// ## Reentrancy
///
/// The closures are synchronous, so a closure cannot `await` another access of the same `SharedConnection`:
/// nesting `read` or `write` inside a body is refused by the compiler, and the deadlock that a nested
/// synchronous lock would cause cannot be written. Nest work inside one body instead: call
/// ``Connection/transaction(_:_:)`` on the connection the body receives, which becomes a savepoint inside a
/// ``write(_:)``. The connection and the statements made in a body cannot leave it: they are not `Sendable`, and
/// a body's result must be. Blocking a body on work that itself waits for this actor (a semaphore, a
/// synchronous wait on a task) is the one way to deadlock, and is not supported.
///
/// ## Transactions left open
///
/// Every access ends with the connection out of any transaction. A ``withConnection(_:)`` or ``read(_:)`` body
/// that begins a transaction with `execute("BEGIN")` and returns without ending it has it rolled back, and the
/// access throws ``SQLiteError/Kind/misuse``, so no later access runs inside a stranger's transaction.
///
/// ## Threads
///
/// Bodies run on a thread owned by the actor (its ``unownedExecutor``), not on Swift's cooperative thread pool:
/// a long query blocks that one thread, never the threads that run the rest of the process's tasks, so other
/// tasks (including one that wants to interrupt the query) keep running. The thread ends with the actor.
///
/// ## Cancellation and interrupts
///
/// Cancelling the calling task while its body runs interrupts the access, as ``interrupt()`` does: the running
/// statement fails with ``ResultCode/interrupt``, a wait for a lock or for the writers' turn ends, and the Swift
/// functions and collations the statement calls are not called again. A task cancelled before its turn comes
/// throws `CancellationError` without running its body. ``interrupt()`` stops whatever runs now, from anywhere.
///
/// ## A moved database
///
/// Every access first checks that the database file is still at its path. A file that was unlinked, renamed or
/// replaced fails the access with ``SQLiteError/Kind/databaseMoved`` before its body runs, and observations end
/// with that error.
///
/// ## Closing
///
/// ``close()`` closes the connection after the accesses already queued, and reports a failure instead of hiding
/// it; every access after it throws ``SQLiteError/Kind/misuse``. Without it, the connection closes when the
/// actor goes away.
///
/// ## Code that is not async
///
/// ``readSynchronously(_:)``, ``writeSynchronously(_:)`` and ``withConnectionSynchronously(_:)`` run the same
/// accesses from code that cannot `await` (a command-line tool, a test, `main.swift`), blocking the calling
/// thread until their turn comes and their body has run.
public actor SharedConnection {
    private let connection: Connection
    let executor: ConnectionExecutor
    /// The interrupt handle of the owned connection; `Sendable`, usable from any thread.
    public nonisolated let interruptHandle: InterruptHandle
    /// How the owned connection was opened.
    public nonisolated let mode: OpenMode
    /// The observations of this connection's commits (see ``observe(options:_:)``).
    nonisolated let observationHub = ObservationHub()

    /// Opens a connection in the given mode and takes ownership of it.
    ///
    /// - Parameters:
    ///   - mode: Whether the database must be created, must exist, is opened read-only, or lives in memory.
    ///   - options: What the connection enforces and how long it waits for locks.
    /// - Throws: The errors of ``Connection/init(_:options:)``; ``SQLiteError/Kind/misuse`` in the unlikely
    ///   case that the system refuses to create the connection's thread.
    public init(_ mode: OpenMode, options: ConnectionOptions = .default) throws(SQLiteError) {
        try self.init(mode, options: options, keepingOpen: nil)
    }

    /// The connection, keeping `other` alive until this connection's handle has closed (a pool's reader keeps
    /// the pool's writer, so that the writer, which alone can checkpoint, closes last; see `ConnectionPool`).
    init(_ mode: OpenMode, options: ConnectionOptions, keepingOpen other: SharedConnection?) throws(SQLiteError) {
        let connection = try Connection(mode, options: options)
        connection.isShared = true
        connection.keepsOpen = other
        guard let executor = ConnectionExecutor() else {
            throw SQLiteError(.misuse, message: "the system refused to create the SharedConnection's thread")
        }
        self.executor = executor
        self.connection = connection
        self.interruptHandle = connection.interruptHandle
        self.mode = mode
        observationHub.attach(self)
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`): committed when it returns, rolled back when it
    /// throws.
    ///
    /// The write lock is taken before `body` runs, so a database locked by another connection fails at
    /// `BEGIN` with a busy error once the busy timeout has passed, never half-way through the body.
    ///
    /// - Parameter body: The work to do atomically, given the owned connection.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (after the rollback), an ``SQLiteError`` from `BEGIN` or `COMMIT`
    ///   (``SQLiteError/isBusy`` when the lock could not be had), ``SQLiteError/Kind/transactionRolledBack``
    ///   when SQLite rolled the transaction back by itself, or `CancellationError`.
    @discardableResult
    public func write<Result: Sendable>(_ body: sending (Connection) throws -> Result) async throws -> Result {
        try await access { connection in try Self.writing(connection, body) }
    }

    /// Runs `body` as a read: in a deferred transaction, so that it sees one consistent snapshot, with
    /// `PRAGMA query_only` on, so that any attempt to write fails.
    ///
    /// A body that turns `query_only` off and writes anyway has its changes rolled back, and the read throws.
    ///
    /// - Parameter body: The reads to do, given the owned connection.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws; a write attempted in `body` fails with ``ResultCode/readOnly``;
    ///   ``SQLiteError/Kind/misuse`` when `body` wrote or committed, ``SQLiteError/Kind/transactionRolledBack`` when
    ///   it rolled the read transaction back (its message says whether writes after that were committed on their
    ///   own); `CancellationError`.
    public func read<Result: Sendable>(_ body: sending (Connection) throws -> Result) async throws -> Result {
        try await access { connection in try Self.reading(connection, body) }
    }

    /// A write access's work: `body` in an immediate transaction.
    static func writing<Result>(_ connection: Connection, _ body: (Connection) throws -> Result) throws -> Result {
        try connection.transaction(.immediate) { try body(connection) }
    }

    /// A read access's work: `body` in a deferred transaction with `query_only` on; a body that wrote anyway is
    /// rolled back and throws.
    static func reading<Result>(_ connection: Connection, _ body: (Connection) throws -> Result) throws -> Result {
        try connection.execute("PRAGMA query_only = ON")
        defer { _ = try? connection.execute("PRAGMA query_only = OFF") }
        return try connection.transaction(.deferred) {
            let result = try body(connection)
            // Throwing here rolls the transaction back: nothing a read body wrote is kept.
            if connection.holdsWriteLock { throw Self.writingRead }
            return result
        }
    }

    /// Runs `body` with exclusive use of the connection and no transaction around it.
    ///
    /// For what cannot run in a transaction (`PRAGMA journal_mode`, `VACUUM`, `ATTACH`), or for a body that
    /// manages its own transactions with ``Connection/transaction(_:_:)``.
    ///
    /// - Parameter body: The work to do, given the owned connection.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws; ``SQLiteError/Kind/misuse`` when `body` left a transaction open (it is
    ///   rolled back); `CancellationError`.
    public func withConnection<Result: Sendable>(_ body: sending (Connection) throws -> Result) async throws -> Result {
        try await access(body)
    }

    deinit {
        observationHub.close()
        executor.stop()
    }

    /// The actor's executor: a thread of its own, so that a long query blocks this connection's thread and never
    /// one of the threads that run the process's other Swift tasks.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Interrupts the statement running now, if any, from any thread or task.
    ///
    /// The running statement fails with code ``ResultCode/interrupt``; accesses that start later run normally.
    public nonisolated func interrupt() {
        interruptHandle.interrupt()
    }

    /// Closes the connection once the accesses queued before this call have run; see ``Connection/close()``.
    ///
    /// Observations end. Every later access throws ``SQLiteError/Kind/misuse`` ("the connection is closed");
    /// closing again does nothing. When this is the last connection of any process to a database in WAL mode,
    /// SQLite checkpoints the WAL into the database file and deletes it, so the file alone holds every commit.
    ///
    /// - Throws: ``SQLiteError/Kind/misuse`` when something still holds the database open (see
    ///   ``Connection/close()``); the connection stays open then.
    public func close() throws(SQLiteError) {
        try connection.closeDatabase()
        observationHub.close()
    }

    /// Closes the connection from code that is not async; see ``close()`` and ``readSynchronously(_:)`` for the
    /// blocking.
    ///
    /// - Throws: As ``close()``; ``SQLiteError/Kind/misuse`` inside an access.
    public nonisolated func closeSynchronously() throws(SQLiteError) {
        try ConnectionExecutor.requireOutsideAccess()
        let lease = executor.borrow()
        defer { executor.giveBack(lease) }
        let outcome = assumeIsolated { shared in Result { () throws(SQLiteError) in try shared.close() } }
        try outcome.get()
    }

    /// The one path to the connection: checks cancellation, runs `body` without ever suspending (so no other
    /// access can interleave), and makes sure no transaction outlives it. It installs the hooks that observations
    /// need before `body` runs, and delivers the transactions committed by `body` after it. Cancelling the task
    /// while `body` runs interrupts the connection, for this access only.
    func access<Result: Sendable>(_ body: (Connection) throws -> Result) async throws -> Result {
        try Task.checkCancellation()
        let interrupts = interruptHandle
        let number = interrupts.currentAccess
        defer { interrupts.endAccess() }
        return try await withTaskCancellationHandler {
            try run(body)
        } onCancel: {
            interrupts.interrupt(access: number)
        }
    }

    /// Runs one access's body; see ``access(_:)``.
    func run<Result: Sendable>(_ body: (Connection) throws -> Result) throws -> Result {
        try connection.requireOpen()  // before anything reaches the handle, or the tracker that keeps it
        try connection.requireFileInPlace(before: "this access")
        let tracker = connection.changeTracker
        tracker.configure(observationHub.wanted)
        let outcome = Swift.Result { try body(connection) }
        if connection.isInTransaction {
            _ = try? connection.execute("ROLLBACK")
            if case .success = outcome {
                observationHub.publish(tracker.takeCommitted())
                throw Self.strayTransaction
            }
        }
        if tracker.isActive {
            observationHub.publish(tracker.takeCommitted())
            observationHub.noteAttachedDatabases(tracker.hasAttachedDatabases)
            if observationHub.inlineCheckIsDue { observationHub.checkInline(tracker) }
        }
        return try outcome.get()
    }

    /// The error for a read body that wrote (after turning `query_only` off); its changes were rolled back.
    static let writingRead = SQLiteError(
        .misuse,
        message: "a read body changed the database; its changes were rolled back. Use write(_:) to write")

    /// The error for a body that returned with a transaction still open (which was then rolled back).
    static let strayTransaction = SQLiteError(
        .misuse,
        message: "a SharedConnection access returned with a transaction still open; it was rolled back. "
            + "Use write(_:) or Connection.transaction(_:_:) for transactions")
}
