import Dispatch
import Foundation
import Synchronization
import Testing

@testable import SQLiteSwiftly

/// How long after the interrupt or the cancellation a stopped wait may still run. The promise is 50 ms; the tests
/// allow more, for loaded machines and sanitizers, and still tell a stopped wait from one that runs out the
/// 5-second busy timeout or the 3-second transaction that holds the lock.
let stopTolerance: Duration = .milliseconds(1500)

/// A connection of this process that holds the write lock (and, queued, the writers' turn) until released.
final class LockHolder: Sendable {
    private let release = TestFlag()
    private let done = TestFlag()

    /// Opens `path` on a thread of its own and begins a queued write transaction there.
    init(path: String) throws {
        let started = TestFlag()
        let (release, done) = (release, done)
        Thread {
            defer { done.set() }
            guard let holder = try? Connection(opening: path) else { return started.set() }
            try? holder.transaction {
                started.set()
                try? release.block(atMost: .seconds(600))  // finish() releases it; the limit only ends a broken test
            }
        }.start()
        try started.block()
    }

    /// Ends the transaction and waits for it to end.
    func finish() throws {
        release.set()
        try done.block()
    }
}

/// Runs `body` on a thread of its own, calls `stop` after `delay`, and returns what `body` threw and how long
/// after `stop` it returned.
func stopped(
    after delay: Duration = .milliseconds(100), _ body: @escaping @Sendable () throws -> Void,
    stop: @escaping @Sendable () -> Void
) throws -> (error: (any Error)?, lateness: Duration) {
    let outcome = Mutex<(error: (any Error)?, end: ContinuousClock.Instant)?>(nil)
    let finished = TestFlag()
    Thread {
        let error: (any Error)?
        do {
            try body()
            error = nil
        } catch let thrown {
            error = thrown
        }
        outcome.withLock { $0 = (error, ContinuousClock.now) }
        finished.set()
    }.start()
    Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) / 1e18 + Double(delay.components.seconds))
    let stopAt = ContinuousClock.now
    stop()
    try finished.block()
    let result = try #require(outcome.withLock { $0 })
    return (result.error, result.end - stopAt)
}

@Suite struct WaitStoppingTests {
    private func database(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.path("waits.sqlite")
        let db = try Connection(creating: path)
        try db.execute("CREATE TABLE t(x INTEGER)")
        return path
    }

    @Test(
        "interrupt() ends a wait for the writers' turn and for the lock, and the next write works",
        arguments: [true, false])
    func interruptEndsWait(queued: Bool) async throws {
        try await offPool {
            let directory = try TemporaryDirectory()
            let path = try database(directory)
            let holder = try LockHolder(path: path)
            let waiter = try Connection(opening: path, options: .init(queuesWriters: queued))
            let handle = waiter.interruptHandle
            nonisolated(unsafe) let unsafeWaiter = waiter  // used by the one thread `stopped` starts, then here again
            let (error, lateness) = try stopped(
                {
                    _ = try unsafeWaiter.transaction { try unsafeWaiter.execute("INSERT INTO t VALUES (1)") }
                }, stop: handle.interrupt)
            let failure = try #require(error as? SQLiteError)
            #expect(failure.code == .interrupt)
            #expect(failure.message.contains("interrupt() was called"))
            #expect(failure.message.contains(queued ? "writers' turn" : "another connection's lock"))
            #expect(lateness < stopTolerance, "the wait went on \(lateness) after the interrupt")
            #expect(!waiter.isInTransaction)
            try holder.finish()
            try waiter.transaction { try waiter.execute("INSERT INTO t VALUES (2)") }
            #expect(try waiter.fetchValue(Int.self, "SELECT sum(x) FROM t") == 2)
        }
    }

    @Test("an interrupt that came before the transaction does not stop its wait")
    func staleInterrupt() async throws {
        try await offPool {
            let directory = try TemporaryDirectory()
            let path = try database(directory)
            let waiter = try Connection(opening: path)
            waiter.interruptHandle.interrupt()  // nothing runs: forgotten, as SQLite forgets it
            let holder = try LockHolder(path: path)
            let release = Thread {
                Thread.sleep(forTimeInterval: 0.2); try? holder.finish()
            }
            release.start()
            try waiter.transaction { try waiter.execute("INSERT INTO t VALUES (1)") }
            #expect(try waiter.fetchValue(Int.self, "SELECT count(*) FROM t") == 1)
        }
    }

    @Test("cancelling the task that waits for the turn or the lock ends the wait", arguments: [true, false])
    func cancellationEndsWait(queued: Bool) async throws {
        let directory = try TemporaryDirectory()
        let path = try database(directory)
        let holder = try LockHolder(path: path)
        let waiting = TestFlag()
        let ended = Mutex<ContinuousClock.Instant?>(nil)
        // On threads of its own: a task on Swift's pool starts behind every job queued there, which under a sanitizer
        // took longer than the holder holds its lock.
        let task = Task.detached(executorPreference: OwnThreadExecutor()) {
            let waiter = try Connection(opening: path, options: .init(queuesWriters: queued))
            // The end of the wait is taken here: the test's own task may resume much later on a busy machine.
            defer { ended.withLock { $0 = .now } }
            waiting.set()
            try waiter.transaction { try waiter.execute("INSERT INTO t VALUES (1)") }
        }
        let cancelledAt = try await cancel(task, once: waiting)
        let failure = try #require(await task.result.failure as? SQLiteError)
        #expect(failure.code == .interrupt)
        #expect(failure.message.contains("the task was cancelled"))
        let lateness = try #require(ended.withLock { $0 }) - cancelledAt
        #expect(lateness < stopTolerance, "the wait went on \(lateness) after the cancellation")
        try holder.finish()
    }

    @Test("cancelling a SharedConnection or pool write that waits for the lock ends it, and the next write works")
    func sharedWriteCancelled() async throws {
        let directory = try TemporaryDirectory()
        let path = try database(directory)
        let shared = try SharedConnection(.open(path: path))
        let pool = try ConnectionPool(.open(path: path), readerCount: 1)
        let holder = try LockHolder(path: path)
        // `withConnection` runs `transaction` as `write` does (the pool's writes run on its writer), and notes on the
        // connection's thread when the wait ended.
        for connection in [shared, pool.writer] {
            let waiting = TestFlag()
            let ended = Mutex<ContinuousClock.Instant?>(nil)
            let task = Task(executorPreference: OwnThreadExecutor()) {  // see cancellationEndsWait
                try await connection.withConnection { db in
                    defer { ended.withLock { $0 = .now } }
                    waiting.set()
                    try db.transaction { try db.execute("INSERT INTO t VALUES (1)") }
                }
            }
            let cancelledAt = try await cancel(task, once: waiting)
            let failure = try #require(await task.result.failure as? SQLiteError)
            #expect(failure.code == .interrupt)
            let lateness = try #require(ended.withLock { $0 }) - cancelledAt
            #expect(lateness < stopTolerance, "the wait went on \(lateness) after the cancellation")
        }
        try holder.finish()
        try await shared.write { db in try db.execute("INSERT INTO t VALUES (2)") }
        try await pool.write { db in try db.execute("INSERT INTO t VALUES (3)") }
        #expect(try await pool.read { db in try db.fetchValue(Int.self, "SELECT sum(x) FROM t") } == 5)
    }

    @Test("a cancellation that arrives after its access ended does not interrupt the next access")
    func lateCancellation() async throws {
        let shared = try SharedConnection(.inMemory)
        for _ in 0..<200 {
            let task = Task { try await shared.read { db in try db.fetchValue(Int.self, "SELECT 1") } }
            task.cancel()
            _ = await task.result
            #expect(try await shared.read { db in try db.fetchValue(Int.self, "SELECT 2") } == 2)
        }
    }
}

/// Cancels `task` from a thread of its own `delay` after `started` was set, and returns when it was cancelled.
///
/// The thread, not a task of the test, waits out the delay: a task could not be trusted to wake in time, as the
/// waits under test block threads of Swift's cooperative pool, which has one thread per core. Waiting for `started`
/// has no short limit: on a loaded machine other tests can hold every thread of that pool for tens of seconds, and
/// the task under test starts only then. A cancellation sent before it started would end its wait the moment it
/// began, and the test would measure the starvation instead of the wait.
func cancel<Success, Failure>(
    _ task: Task<Success, Failure>, once started: TestFlag? = nil, after delay: Duration = .milliseconds(100)
) async throws -> ContinuousClock.Instant {
    let cancelled = Mutex<ContinuousClock.Instant?>(nil)
    let done = TestFlag()
    let startedInTime = Mutex(true)
    Thread {
        if let started, (try? started.block(atMost: .seconds(600))) == nil {
            startedInTime.withLock { $0 = false }
        }
        Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) / 1e18 + Double(delay.components.seconds))
        cancelled.withLock { $0 = ContinuousClock.now }
        task.cancel()
        done.set()
    }.start()
    try await done.wait(atMost: .seconds(700))
    try #require(startedInTime.withLock { $0 }, "the task under test did not start within 10 minutes")
    return try #require(cancelled.withLock { $0 })
}

extension Result {
    /// The error, or `nil` for a success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
