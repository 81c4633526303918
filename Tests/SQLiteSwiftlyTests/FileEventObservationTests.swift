import Foundation
import Testing

@testable import SQLiteSwiftly

/// Other processes' commits are noticed through file-change events where the system has them (Linux), without
/// waiting for the check interval; polling remains where events cannot be used.
@Suite struct FileEventObservationTests {
    /// A database with one table, in the given journal mode.
    private func makeDatabase(_ path: String, wal: Bool) throws {
        let setup = try Connection(creating: path)
        let mode = wal ? "PRAGMA journal_mode = WAL" : "PRAGMA journal_mode = DELETE"
        #expect(try setup.fetchValue(String.self, SQL(verbatim: mode)) == (wal ? "wal" : "delete"))
        try setup.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY)")
    }

    private static let count: @Sendable (Connection) throws -> Int = { db in
        try db.fetchValue(Int.self, "SELECT count(*) FROM notes") ?? -1
    }

    #if os(Linux)
        @Test(
            "with an hour's check interval, each commit of the shell is still noticed at once, in WAL and rollback mode",
            .enabled(if: sqlite3Shell != nil, "the sqlite3 command is not installed (apt-get install sqlite3)"),
            arguments: [true, false], [true, false])
        func noticedByEvents(wal: Bool, pool usesPool: Bool) async throws {
            let directory = try TemporaryDirectory()
            let path = directory.path("events.sqlite")
            try makeDatabase(path, wal: wal)
            let options = ObservationOptions(otherConnectionCheckInterval: .seconds(3600))
            let pool = usesPool ? try ConnectionPool(.open(path: path), readerCount: 2) : nil
            let shared = usesPool ? nil : try SharedConnection(.open(path: path))
            let observation = try #require(
                pool?.observe(options: options, Self.count) ?? shared?.observe(options: options, Self.count))
            let hub = try #require(pool?.observationHub ?? shared?.observationHub)
            let recorder = ObservationRecorder(observation)
            #expect(try await recorder.value(at: 0) == 0)
            #expect(hub.noticing == (watchesFiles: true, pollInterval: ObservationHub.backstopInterval))
            for expected in 1...3 {
                #expect(try runShell(path, "INSERT INTO notes DEFAULT VALUES") == "")
                // Polling would take an hour; the limit is far above the event path's milliseconds.
                #expect(try await recorder.value(atMost: .seconds(15)) { $0 == expected } == expected)
            }
            recorder.cancel()
            await recorder.waitForTask()
            #expect(hub.noticing == (watchesFiles: false, pollInterval: nil), "the watcher outlived the observation")
        }
    #endif

    @Test("watchesFiles: false polls at the check interval instead, and the shell's commit is noticed by polling")
    func pollingWhenAsked() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("polling.sqlite")
        try makeDatabase(path, wal: true)
        let shared = try SharedConnection(.open(path: path))
        let options = ObservationOptions(otherConnectionCheckInterval: .milliseconds(20), watchesFiles: false)
        let recorder = ObservationRecorder(shared.observe(options: options, Self.count))
        #expect(try await recorder.value(at: 0) == 0)
        #expect(shared.observationHub.noticing == (watchesFiles: false, pollInterval: .milliseconds(20)))
        let other = try Connection(opening: path)
        try other.execute("INSERT INTO notes DEFAULT VALUES")
        #expect(try await recorder.value { $0 == 1 } == 1)
    }

    #if os(Linux)
        @Test("an attached database, whose files are not watched, makes the observation poll at its interval as well")
        func attachedDatabasesPoll() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.path("main.sqlite")
            let auxPath = directory.path("aux.sqlite")
            try makeDatabase(path, wal: true)
            try makeDatabase(auxPath, wal: true)
            let shared = try SharedConnection(.open(path: path))
            let options = ObservationOptions(otherConnectionCheckInterval: .milliseconds(20))
            let recorder = ObservationRecorder(shared.observe(options: options, Self.count))
            #expect(try await recorder.value(at: 0) == 0)
            #expect(
                shared.observationHub.noticing == (watchesFiles: true, pollInterval: ObservationHub.backstopInterval))
            _ = try await shared.withConnection { db in try db.execute("ATTACH DATABASE ? AS aux", [auxPath]) }
            #expect(shared.observationHub.noticing == (watchesFiles: true, pollInterval: .milliseconds(20)))
            _ = try await shared.withConnection { db in try db.execute("DETACH DATABASE aux") }
            #expect(
                shared.observationHub.noticing == (watchesFiles: true, pollInterval: ObservationHub.backstopInterval))
        }
    #endif

    @Test("the connection's own writes are still delivered while file events come from them")
    func ownWrites() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("own.sqlite")
        try makeDatabase(path, wal: true)
        let pool = try ConnectionPool(.open(path: path), readerCount: 1)
        let recorder = ObservationRecorder(pool.observe(Self.count))
        #expect(try await recorder.value(at: 0) == 0)
        for _ in 0..<50 {
            try await pool.write { db in try db.execute("INSERT INTO notes DEFAULT VALUES") }
        }
        #expect(try await recorder.value { $0 == 50 } == 50)
    }
}
