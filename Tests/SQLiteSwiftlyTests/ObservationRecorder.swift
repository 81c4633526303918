import Synchronization
import Testing

@testable import SQLiteSwiftly

/// Iterates an asynchronous sequence in a task of its own and records what it delivers, so that a test can await
/// the n-th element (or the end) with a deadline instead of sleeping.
final class ObservationRecorder<Value: Sendable>: Sendable {
    enum Ending: Sendable {
        case finished
        case failed(any Error)
    }

    private struct State {
        var values: [Value] = []
        var ending: Ending?
    }

    /// Nothing arrived in time.
    struct Timeout: Error, CustomStringConvertible {
        var what: String
        var description: String { "timed out waiting for \(what)" }
    }

    /// The recorded state, in a box that the iterating task shares (a `Mutex` cannot be captured).
    private final class Storage: Sendable {
        let mutex = TrackedMutex(State())  // hand-offs ThreadSanitizer can see

        func withLock<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
            mutex.withLock { body(&$0) }
        }
    }

    private let state = Storage()
    private let changed = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    private let task = TrackedMutex<Task<Void, Never>?>(nil)

    init<Sequence: AsyncSequence & Sendable>(_ sequence: Sequence) where Sequence.Element == Value {
        let newTask = Task { [state, changed] in
            do {
                for try await value in sequence {
                    state.withLock { $0.values.append(value) }
                    changed.continuation.yield()
                }
                state.withLock { $0.ending = .finished }
            } catch {
                state.withLock { $0.ending = .failed(error) }
            }
            changed.continuation.yield()
        }
        task.withLock { $0 = newTask }
    }

    deinit {
        task.withLock { $0?.cancel() }
    }

    var values: [Value] { state.withLock { $0.values } }
    var ending: Ending? { state.withLock { $0.ending } }

    /// Cancels the iterating task.
    func cancel() {
        task.withLock { $0?.cancel() }
    }

    /// Waits for the iterating task to end.
    func waitForTask() async {
        let current = task.withLock { $0 }
        await current?.value
    }

    /// Waits until `condition` holds for the recorded state.
    private func wait(
        for what: String, atMost limit: Duration, _ condition: @escaping @Sendable (State) -> Bool
    ) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { [state, changed] in
                if state.withLock({ condition($0) }) { return true }
                for await _ in changed.stream {
                    if state.withLock({ condition($0) }) { return true }
                }
                return state.withLock { condition($0) }
            }
            group.addTask {
                try? await Task.sleep(for: limit)  // a deadline, not an ordering: the test fails if it passes
                return false
            }
            let inTime = try await group.next() ?? false
            group.cancelAll()
            guard inTime else { throw Timeout(what: what) }
        }
    }

    /// The element at `index`, once delivered.
    func value(at index: Int, atMost limit: Duration = .seconds(60)) async throws -> Value {
        try await wait(for: "element \(index)", atMost: limit) { $0.values.count > index }
        return state.withLock { $0.values[index] }
    }

    /// The first delivered element, from `index` on, that satisfies `predicate`.
    func value(
        from index: Int = 0, atMost limit: Duration = .seconds(60), where predicate: @escaping @Sendable (Value) -> Bool
    ) async throws -> Value {
        try await wait(for: "a matching element", atMost: limit) {
            $0.values.dropFirst(index).contains(where: predicate)
        }
        return try #require(state.withLock { $0.values.dropFirst(index).first(where: predicate) })
    }

    /// How the sequence ended, once it did.
    func end(atMost limit: Duration = .seconds(60)) async throws -> Ending {
        try await wait(for: "the end of the sequence", atMost: limit) { $0.ending != nil }
        return try #require(ending)
    }
}

/// Counts calls from any thread.
final class CallCounter: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .acquiring) }

    func increment() {
        count.add(1, ordering: .acquiringAndReleasing)
    }
}
