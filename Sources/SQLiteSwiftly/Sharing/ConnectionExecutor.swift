import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The serial executor of a ``SharedConnection``: runs the actor's jobs, in order, on a thread of its own.
///
/// SQLite calls block their thread until they finish, and a long query can take seconds. Run on Swift's
/// cooperative thread pool (one thread per core), a few long queries would stall every other task of the
/// process, including the one that wants to interrupt them; a dispatch queue does not help on Linux, where a
/// busy (not sleeping) worker gets no extra thread. So each shared connection has one dedicated thread that
/// waits for jobs and runs them. The thread ends once ``stop()`` was called and the queue is empty.
/// See SE-0392 (custom actor executors).
///
/// A synchronous caller borrows the executor (``lend(_:)``): its turn in the queue parks the thread, and the
/// caller runs its work on its own thread while the executor's thread waits, so the two never run at once and
/// nothing crosses threads but two signals. The executor counts as the current one on the borrowing thread
/// (``isIsolatingCurrentContext()``), so the actor's state is reached through `assumeIsolated` there.
final class ConnectionExecutor: SerialExecutor {
    private enum Job {
        /// A job of the actor.
        case task(UnownedJob)
        /// A synchronous caller's turn: the thread parks until the caller gives the executor back.
        case lease(Lease)
    }

    private struct State {
        var jobs: [Job] = []
        var head = 0
        var isStopped = false
    }

    private let state = TrackedMutex(State())
    private let available = DispatchSemaphore(value: 0)
    /// The executor's own thread, and the thread that borrows it now (0: none), as ``ThreadIdentity`` values.
    private let thread = Atomic<UInt>(0)
    private let borrower = Atomic<UInt>(0)

    /// Starts the executor's thread; `nil` if the system refuses to create one.
    init?() {
        // The thread holds the executor until its loop ends.
        guard DetachedThread.start({ [self] in run() }) else { return nil }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        state.withLock { $0.jobs.append(.task(job)) }
        available.signal()
    }

    /// Whether the calling thread is this executor's, or borrows it now.
    func isIsolatingCurrentContext() -> Bool? {
        let current = ThreadIdentity.current
        return current == thread.load(ordering: .acquiring) || current == borrower.load(ordering: .acquiring)
    }

    /// Borrows the executor for the calling thread: returns after every job enqueued before has run, with the
    /// executor's thread parked until ``giveBack(_:)``; jobs enqueued meanwhile wait. Blocks the calling thread.
    ///
    /// The caller must have called ``requireOutsideAccess()`` first: on a thread that runs an access, waiting
    /// could wait for itself.
    ///
    /// - Returns: The lease to give back.
    func borrow() -> Lease {
        let lease = Lease(thread: ThreadIdentity.current)
        state.withLock { $0.jobs.append(.lease(lease)) }
        available.signal()
        lease.waitForTurn()
        ThreadIdentity.isInsideAccess = true
        return lease
    }

    /// Gives the executor back to its thread.
    func giveBack(_ lease: Lease) {
        ThreadIdentity.isInsideAccess = false
        lease.giveBack()
    }

    /// Refuses a synchronous access on a thread that runs an access of any shared connection: the executor's own
    /// thread, or one that borrows an executor.
    ///
    /// - Throws: ``SQLiteError/Kind/misuse``.
    static func requireOutsideAccess() throws(SQLiteError) {
        guard !ThreadIdentity.isInsideAccess else { throw nestedSynchronousAccess }
    }

    /// The error of a synchronous access made inside an access.
    static let nestedSynchronousAccess = SQLiteError(
        .misuse,
        message: "a synchronous access cannot run inside an access of a SharedConnection or ConnectionPool (on its "
            + "thread or in a synchronous body): it could wait for itself. Do the work in the body you are in")

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Lets the thread end once every job enqueued so far has run.
    func stop() {
        state.withLock { $0.isStopped = true }
        available.signal()
    }

    /// The thread's loop: waits for a job, runs it, until stopped with nothing left to run.
    private func run() {
        let executor = asUnownedSerialExecutor()
        thread.store(ThreadIdentity.current, ordering: .releasing)
        ThreadIdentity.isInsideAccess = true
        while true {
            available.wait()
            let next: Job?? = state.withLock { state in
                guard state.head < state.jobs.count else { return state.isStopped ? .none : .some(nil) }
                let job = state.jobs[state.head]
                state.head += 1
                if state.head > 64 && state.head * 2 > state.jobs.count {
                    state.jobs.removeFirst(state.head)
                    state.head = 0
                }
                return .some(job)
            }
            switch next {
            case .none: return
            case .some(.none): continue
            case .some(.some(.task(let job))): job.runSynchronously(on: executor)
            case .some(.some(.lease(let lease))):
                borrower.store(lease.thread, ordering: .releasing)
                lease.grant()
                lease.waitForReturn()
                borrower.store(0, ordering: .releasing)
            }
        }
    }
}

/// A `Mutex` whose hand-offs between threads ThreadSanitizer can see.
///
/// On Linux, a contended `Mutex` parks and wakes threads in the kernel (a priority-inheritance futex) from the
/// toolchain's prebuilt, uninstrumented `Synchronization` library. ThreadSanitizer then sees two critical
/// sections on different threads with nothing ordering them, and reports a data race that cannot happen. This
/// wrapper adds what the sanitizer can see: each critical section begins with an acquiring load of a counter
/// and ends with a releasing increment of it. Mutual exclusion already orders the sections; the counter only
/// makes that order visible, at the cost of two uncontended atomic operations per lock.
struct TrackedMutex<Value: ~Copyable>: ~Copyable {
    private let mutex: Mutex<Value>
    private let handoff = Atomic<Int>(0)

    init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    borrowing func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            _ = handoff.load(ordering: .acquiring)
            defer { handoff.wrappingAdd(1, ordering: .releasing) }
            return try body(&value)
        }
    }
}

extension TrackedMutex: Sendable where Value: ~Copyable {}
