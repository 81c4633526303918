import Observation
import Testing

/// A condition checked on the main actor did not hold in time.
struct MainActorTimeout: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Waits on the main actor until `condition` holds, checking it again after each change that observation tracking
/// reports for what it read, and throws ``MainActorTimeout`` after `limit`: a deadline, never a sleep that a test
/// relies on.
@MainActor func waitUntil(
    _ what: String, atMost limit: Duration = .seconds(20), _ condition: @escaping @MainActor () -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while true {
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        if withObservationTracking({ condition() }, onChange: { continuation.yield() }) { return }
        guard ContinuousClock.now < deadline else { throw MainActorTimeout(what: what) }
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            continuation.yield()
        }
        for await _ in changes { break }
        timer.cancel()
    }
}

/// Waits for `task` to end, throwing ``MainActorTimeout`` after `limit`.
func waitForEnd(of task: Task<Void, Never>, atMost limit: Duration = .seconds(20)) async throws {
    let ended = TestFlag()
    Task {
        await task.value
        ended.set()
    }
    do {
        try await ended.wait(atMost: limit)
    } catch {
        throw MainActorTimeout(what: "the end of the task")
    }
}
