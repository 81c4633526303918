import CSQLiteSwiftly

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a connection waits for a lock another connection holds: the state of its busy handler.
///
/// SQLite's own handler (`sqlite3_busy_timeout`) sleeps in growing steps, up to 100 ms a step. A lock that is
/// released often but briefly (a writer in another process committing short transactions back to back) is
/// then almost never free at the moment the waiter looks, and the waiter fails with `SQLITE_BUSY` once the
/// timeout has passed although the lock was free every few milliseconds. This handler retries in short steps
/// (0.5 to 1.5 ms, randomized so that several waiters do not retry in step) until the timeout has passed.
/// See <https://www.sqlite.org/c3ref/busy_handler.html>.
///
/// SQLite calls the handler only where waiting cannot deadlock: not when a transaction that has read already
/// wants to write (see ``SQLiteError/Kind/deferredWriteConflict``). An interrupt or the cancellation of the waiting
/// task ends the wait within one step.
struct BusyWait {
    /// How long one wait for a lock may last: the connection's busy timeout, or less while a transaction
    /// that already waited at the writers' turnstile begins.
    var timeout: Duration
    /// When the current wait gives up; set at the first call for each lock SQLite waits for.
    var deadline: ContinuousClock.Instant?
    /// The connection's interrupt handle: a raised interrupt ends the wait.
    let interrupts: InterruptHandle
    /// Where the handler leaves the error that explains the `SQLITE_BUSY` it makes SQLite report when it stops.
    let errors: FunctionErrors

    /// Allocates the state for a connection; the connection frees it with ``free(_:)`` after closing its handle.
    static func allocate(timeout: Duration, interrupts: InterruptHandle, errors: FunctionErrors)
        -> UnsafeMutablePointer<BusyWait>
    {
        let state = UnsafeMutablePointer<BusyWait>.allocate(capacity: 1)
        state.initialize(
            to: BusyWait(timeout: clamped(timeout), deadline: nil, interrupts: interrupts, errors: errors))
        return state
    }

    /// Releases what the state refers to and frees it.
    static func free(_ state: UnsafeMutablePointer<BusyWait>) {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// A timeout between zero and about 24 days (`Int32.max` milliseconds, `sqlite3_busy_timeout`'s limit), so
    /// that adding it to an instant cannot overflow.
    static func clamped(_ timeout: Duration) -> Duration {
        min(max(.zero, timeout), .milliseconds(Int64(Int32.max)))
    }

    /// Installs the handler on `database`, with `state` as its context.
    static func install(on database: OpaquePointer, state: UnsafeMutablePointer<BusyWait>) {
        sqlite3_busy_handler(database, handler, state)
    }

    /// The error of a wait that an interrupt or the cancellation of the waiting task ended.
    static func stopped(_ what: String, byCancellation: Bool) -> SQLiteError {
        SQLiteError(
            .sqlite, code: .interrupt,
            message: "interrupted: \(byCancellation ? "the task was cancelled" : "interrupt() was called") while "
                + what)
    }

    /// The handler: SQLite passes how many times it has called it for the current lock (0 the first time);
    /// returning non-zero makes SQLite try the lock again, zero makes it fail with `SQLITE_BUSY`.
    ///
    /// Each turn (every 0.5 to 1.5 ms) it also looks at the connection's interrupt flag and at the cancellation
    /// of the task it runs in, if any: either ends the wait, and the step reports it as an interrupt.
    private static let handler: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { context, count in
        guard let state = context?.assumingMemoryBound(to: BusyWait.self) else { return 0 }
        let cancelled = currentTaskIsCancelled()
        if cancelled || state.pointee.interrupts.isRaised {
            let error = stopped("waiting for another connection's lock", byCancellation: cancelled)
            state.pointee.errors.replace(.busy, with: error)
            return 0
        }
        let now = ContinuousClock.now
        if count == 0 || state.pointee.deadline == nil { state.pointee.deadline = now + state.pointee.timeout }
        guard let deadline = state.pointee.deadline, now < deadline else { return 0 }
        let step = min(deadline - now, .microseconds(Int.random(in: 500...1500)))
        usleep(microseconds(step))
        return 1
    }
}

/// A duration as whole microseconds for `usleep`, at least 1 and clamped to what `usleep` takes.
func microseconds(_ duration: Duration) -> UInt32 {
    let (seconds, attoseconds) = duration.components
    let whole = min(seconds, 1000) * 1_000_000 + attoseconds / 1_000_000_000_000
    return UInt32(clamping: max(1, whole))
}
