import Observation
import Testing

/// A condition checked on the main actor did not hold in time.
struct MainActorTimeout: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Waits on the main actor until `condition` holds, checking it again after each change that observation tracking
/// reports for what it read, and at least every half second; throws ``MainActorTimeout`` once `limit` has passed.
///
/// The deadline counts only the time the main actor was there to check: each wake-up counts for at most the half
/// second it was scheduled for. When the cooperative pool is starved (the whole test suite runs on two cores), the
/// main actor may not run for a minute; a wall-clock deadline would then fail a test whose results were only
/// waiting for their turn on the main actor, while a condition that never comes true still fails after `limit`.
@MainActor func waitUntil(
    _ what: String, atMost limit: Duration = .seconds(60), _ condition: @escaping @MainActor () -> Bool
) async throws {
    let step = Duration.milliseconds(500)
    var left = limit
    while true {
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        if withObservationTracking({ condition() }, onChange: { continuation.yield() }) { return }
        guard left > .zero else { throw MainActorTimeout(what: what) }
        let timer = Task {
            try? await Task.sleep(for: step)
            continuation.yield()
        }
        let start = ContinuousClock.now
        for await _ in changes { break }
        timer.cancel()
        left -= min(ContinuousClock.now - start, step)
    }
}

/// Waits on the main actor for `task` to end; see ``waitUntil(_:atMost:_:)``.
@MainActor func waitForEnd(of task: Task<Void, Never>, atMost limit: Duration = .seconds(60)) async throws {
    let ended = MainActorFlag()
    Task {
        await task.value
        ended.isSet = true
    }
    try await waitUntil("the end of the task", atMost: limit) { ended.isSet }
}

/// A flag that observation tracking sees, set on the main actor.
@MainActor @Observable final class MainActorFlag {
    var isSet = false
}
