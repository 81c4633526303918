import Dispatch
import Foundation
import Synchronization
import Testing

@testable import SQLiteSwiftly

/// A fresh temporary directory per test, removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sqliteswiftly-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the directory; nothing is created there.
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }
}

/// The path of an executable target of this package (a child process for a test), built next to the test
/// bundle in the build products directory; `nil` if it was not built.
func builtExecutable(_ name: String) -> String? {
    var directories: [URL] = []
    if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        directories.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
    }
    directories += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
    directories.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
    return directories.map { $0.appendingPathComponent(name).path }
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// The `SQLiteError` that `body` throws, or `nil` after recording an issue when it throws nothing or another error.
func sqliteError<T>(
    _ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) -> SQLiteError? {
    do {
        _ = try body()
        Issue.record("no error was thrown", sourceLocation: sourceLocation)
    } catch let error as SQLiteError {
        return error
    } catch {
        Issue.record("expected an SQLiteError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// The `SQLiteError` that `body` throws; throws (failing the test) when it throws nothing or another error.
func requireSQLiteError<T>(
    _ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) throws -> SQLiteError {
    let error = sqliteError(body, sourceLocation: sourceLocation)
    return try #require(error, sourceLocation: sourceLocation)
}

/// A new in-memory database with the `test_planets` table holding ``TestPlanet/inner``, or empty.
func planetsDatabase(filled: Bool = true) throws -> Connection {
    let db = try Connection.inMemory()
    try db.createTable(for: TestPlanet.self)
    if filled {
        let insert = try db.makeInsertStatement(for: TestPlanet.self)
        for planet in TestPlanet.inner { try insert.insert(planet) }
    }
    return db
}

/// A one-shot signal between tasks and threads: set once; awaited or blocked on until it is set. Waiting past the
/// deadline throws, so a test that waits for something that never happens fails instead of going on.
final class TestFlag: Sendable {
    private struct State {
        var isSet = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    /// The flag was not set in time.
    struct Timeout: Error, CustomStringConvertible {
        var limit: Duration
        var description: String { "the flag was not set within \(limit)" }
    }

    // TrackedMutex: a contended Mutex hands over where ThreadSanitizer cannot see it (see the library's type).
    private let state = TrackedMutex(State())
    private let group = DispatchGroup()

    init() {
        group.enter()
    }

    var isSet: Bool { state.withLock { $0.isSet } }

    /// Sets the flag and wakes every waiter; setting it again does nothing.
    func set() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
            guard !state.isSet else { return nil }
            state.isSet = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        guard let waiters else { return }
        for waiter in waiters { waiter.resume() }
        group.leave()  // once: only the call that set the flag gets here
    }

    /// Suspends until the flag is set.
    ///
    /// The default limit is long on purpose: it only keeps a broken test from hanging the run. On a loaded machine
    /// the task that sets a flag can wait tens of seconds for a thread of Swift's cooperative pool (one per core),
    /// which other tests' synchronous bodies hold meanwhile.
    ///
    /// - Throws: ``Timeout`` after `limit`.
    func wait(atMost limit: Duration = .seconds(300)) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.waitUntilSet()
                return true
            }
            group.addTask {
                try? await Task.sleep(for: limit)  // a deadline, not an ordering: the test fails if it passes
                return false
            }
            let setInTime = try await group.next() ?? false
            group.cancelAll()
            guard setInTime else { throw Timeout(limit: limit) }
        }
    }

    /// Blocks the calling thread until the flag is set, for synchronous bodies.
    ///
    /// - Throws: ``Timeout`` after `limit`.
    func block(atMost limit: Duration = .seconds(300)) throws {
        let milliseconds = Int(limit.components.seconds * 1000)
        guard group.wait(timeout: .now() + .milliseconds(milliseconds)) == .success else {
            throw Timeout(limit: limit)
        }
    }

    private func waitUntilSet() async {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.isSet || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }
}
