import Foundation
import Testing

@testable import SQLiteSwiftly

/// Commits of another process (the `sqlite3` shell) reach a pool's and a shared connection's observations, each of
/// them, not only the first: opening the pool's connections no longer drops SQLite's locks.
@Suite struct OtherProcessObservationTests {
    @Test(
        "each of several successive commits of another process is observed",
        .enabled(if: sqlite3Shell != nil, "the sqlite3 command is not installed (apt-get install sqlite3)"),
        arguments: [true, false])
    func successiveCommits(pool usesPool: Bool) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("successive.sqlite")
        do {
            let setup = try Connection(creating: path)
            _ = try setup.fetchValue(String.self, "PRAGMA journal_mode = WAL")
            try setup.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY)")
        }
        let options = ObservationOptions(otherConnectionCheckInterval: .milliseconds(20))
        let fetch: @Sendable (Connection) throws -> Int = { db in
            try db.fetchValue(Int.self, "SELECT count(*) FROM notes") ?? -1
        }
        let pool = usesPool ? try ConnectionPool(.open(path: path), readerCount: 2) : nil
        let shared = usesPool ? nil : try SharedConnection(.open(path: path))
        let observation = try #require(
            pool?.observe(options: options, fetch) ?? shared?.observe(options: options, fetch))
        let recorder = ObservationRecorder(observation)
        #expect(try await recorder.value(at: 0) == 0)
        for count in 1...4 {
            #expect(try runShell(path, "INSERT INTO notes DEFAULT VALUES") == "")
            #expect(try await recorder.value { $0 == count } == count, "commit \(count) of the shell was not observed")
        }
        #expect(try runShell(path, "SELECT count(*) FROM notes") == "4")
    }

    @Test("a check of the data version that fails keeps the last version: the commit before it is still noticed")
    func failedCheckKeepsVersion() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("checks.sqlite")
        let observer = try Connection(creating: path, options: ConnectionOptions(busyTimeout: .zero))
        try observer.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY)")
        let tracker = observer.changeTracker
        tracker.configure(ObservationHub.Wanted(tracksChanges: true))
        #expect(tracker.otherConnectionCommitted() == false)
        let writer = try Connection(opening: path)
        try writer.execute("INSERT INTO notes DEFAULT VALUES")
        // A connection that holds the exclusive lock (rollback-journal mode) makes the next check fail at once, as
        // a check interrupted by its task's cancellation fails.
        let locker = try Connection(opening: path)
        try locker.execute("BEGIN EXCLUSIVE")
        #expect(tracker.otherConnectionCommitted() == nil, "the check did not fail")
        try locker.execute("ROLLBACK")
        #expect(tracker.otherConnectionCommitted() == true, "the writer's commit was lost with the failed check")
        #expect(tracker.otherConnectionCommitted() == false)
    }
}
