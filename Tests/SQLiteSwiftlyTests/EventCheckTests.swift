import Foundation
import Testing

@testable import SQLiteSwiftly

/// How the hub checks the data version after the file watcher's notices: at the end of an access of the owner's
/// connection when one comes, in a task when a check is due that nothing has covered. Here the notices are given by
/// hand, on a hub with neither watcher nor poller (an hour's interval, no file events), so that only the path under
/// test can deliver the other connection's commit.
@Suite struct EventCheckTests {
    private static let count: @Sendable (Connection) throws -> Int = { db in
        try db.fetchValue(Int.self, "SELECT count(*) FROM notes") ?? -1
    }

    /// A WAL database with an empty table, its observed SharedConnection, and a second connection that writes.
    private func observedDatabase(_ directory: TemporaryDirectory) async throws
        -> (SharedConnection, ObservationRecorder<Int>, Connection)
    {
        let path = directory.path("checks.sqlite")
        let setup = try Connection(creating: path)
        #expect(try setup.fetchValue(String.self, "PRAGMA journal_mode = WAL") == "wal")
        try setup.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY)")
        try setup.execute("CREATE TABLE other (id INTEGER PRIMARY KEY)")
        let shared = try SharedConnection(.open(path: path))
        let options = ObservationOptions(otherConnectionCheckInterval: .seconds(3600), watchesFiles: false)
        let recorder = ObservationRecorder(shared.observe(options: options, Self.count))
        #expect(try await recorder.value(at: 0) == 0)
        #expect(shared.observationHub.noticing == (watchesFiles: false, pollInterval: .seconds(3600)))
        return (shared, recorder, setup)
    }

    @Test("a change makes the next access of the owner check the data version as it ends, with no task")
    func inlineCheck() async throws {
        let directory = try TemporaryDirectory()
        let (shared, recorder, other) = try await observedDatabase(directory)
        let hub = shared.observationHub
        try other.execute("INSERT INTO notes DEFAULT VALUES")
        hub.noticed(.changed)
        #expect(hub.state.withLock { $0.lastCheckStart } == nil)
        try await Task.sleep(for: .milliseconds(2))  // the settle time
        #expect(hub.inlineCheckIsDue)
        try await shared.write { db in try db.execute("INSERT INTO other DEFAULT VALUES") }
        #expect(!hub.inlineCheckIsDue, "the check is still due after the access")
        #expect(try await recorder.value { $0 == 1 } == 1)
        #expect(hub.state.withLock { ($0.requestedChecks, $0.checkTask == nil) } == (0, true))
        #expect(hub.state.withLock { $0.lastCheckStart } != nil)
    }

    @Test("a due check that no check covered runs in a task; one that a later check covered asks for nothing")
    func requestedCheck() async throws {
        let directory = try TemporaryDirectory()
        let (shared, recorder, other) = try await observedDatabase(directory)
        let hub = shared.observationHub
        let before = ContinuousClock.now
        try other.execute("INSERT INTO notes DEFAULT VALUES")
        hub.noticed(.checkDue(since: before))
        #expect(try await recorder.value { $0 == 1 } == 1)
        #expect(hub.state.withLock { $0.requestedChecks } == 1)
        let checked = try #require(hub.state.withLock { $0.lastCheckStart })
        #expect(checked >= before)
        // Covered: the check that delivered started after `before`.
        hub.noticed(.checkDue(since: before))
        #expect(hub.state.withLock { $0.requestedChecks } == 1)
        // Not covered: due since after that check.
        try other.execute("INSERT INTO notes DEFAULT VALUES")
        hub.noticed(.checkDue(since: .now))
        #expect(try await recorder.value { $0 == 2 } == 2)
        #expect(hub.state.withLock { $0.requestedChecks } == 2)
    }
}
