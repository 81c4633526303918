import Foundation
import Testing

/// A task executor that runs each job on a new thread of its own, marked in its thread dictionary (``isCurrentThread``).
///
/// Swift Testing calls a synchronous test on a thread of Swift's cooperative pool, which has one thread per core:
/// two on the CI machine. A test that blocks there (it waits for another process, for a busy timeout, or for a
/// thread it started) keeps every asynchronous test from starting meanwhile; on a loaded machine that starved tasks
/// for tens of seconds, and tests that measure how fast something stops measured the starvation instead. Those tests
/// run their body through ``offPool(_:)``.
final class OwnThreadExecutor: TaskExecutor {
    private static let marker = "sqliteswiftly-tests.own-thread"

    /// Whether the calling thread is one that an executor of this type started.
    static var isCurrentThread: Bool {
        Thread.current.threadDictionary[marker] as? Bool == true
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread {
            Thread.current.threadDictionary[Self.marker] = true
            job.runSynchronously(on: executor)
        }.start()
    }
}

/// Runs `body`, which blocks, on a thread of its own rather than one of Swift's cooperative pool; see
/// ``OwnThreadExecutor``. The body stays in the test's task, so its expectations are the test's.
func offPool<Result>(_ body: () throws -> Result) async throws -> Result {
    try await withTaskExecutorPreference(OwnThreadExecutor()) { try body() }
}

@Suite struct OwnThreadExecutorTests {
    @Test("offPool runs its body on a thread of its own, inside the test")
    func runsOnOwnThread() async throws {
        #expect(try await offPool { OwnThreadExecutor.isCurrentThread })
        #expect(!(try await offPool { Thread.isMainThread }))
        let failure = await #expect(throws: CocoaError.self) {
            try await offPool { throw CocoaError(.fileNoSuchFile) }
        }
        #expect(failure?.code == .fileNoSuchFile)
    }
}
