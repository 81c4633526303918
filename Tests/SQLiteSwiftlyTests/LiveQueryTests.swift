import Foundation
import Observation
import Testing

@testable import SQLiteSwiftly

/// The error of a fetch that finds two notes.
private struct TwoNotes: Error {}

/// `LiveQuery`: a query's result kept up to date on the main actor, for apps.
@Suite @MainActor struct LiveQueryTests {
    /// A shared in-memory database with an empty `notes` table.
    private func makeShared() async throws -> SharedConnection {
        let shared = try SharedConnection(.inMemory)
        try await shared.write { db in try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        }
        return shared
    }

    private func countNotes(_ shared: SharedConnection) -> QueryObservation<Int> {
        shared.observe { db in try db.fetchValue(Int.self, "SELECT count(*) FROM notes") ?? -1 }
    }

    @Test("the main actor's executor runs while a main-actor test awaits (on Linux, not on the main thread)")
    func mainActorRuns() async throws {
        MainActor.assertIsolated()
        let ran = MainActorFlag()
        Task.detached {
            await MainActor.run {
                MainActor.assertIsolated()
                ran.isSet = true
            }
        }
        try await waitUntil("a main-actor job") { ran.isSet }
    }

    @Test("nothing runs until the live query is read; then it loads, and updates on the main actor after a commit")
    func loadsAndUpdates() async throws {
        let shared = try await makeShared()
        let live = LiveQuery(countNotes(shared), initialValue: -1)
        #expect(live.task == nil)
        #expect(shared.observationHub.observerCount == 0)

        #expect(live.isLoading)  // the first read starts it; the result comes on a later turn of the main actor
        #expect(live.value == -1)
        #expect(live.task != nil)
        try await waitUntil("the first result") { !live.isLoading }
        #expect(live.value == 0)
        #expect(live.error == nil)

        let changed = TestFlag()
        withObservationTracking {
            _ = live.value
        } onChange: {
            MainActor.assertIsolated()  // called as the value is about to change: it is published on the main actor
            changed.set()
        }
        try await shared.write { db in try db.execute("INSERT INTO notes (text) VALUES ('one')") }
        try await waitUntil("the count after the commit") { live.value == 1 }
        #expect(changed.isSet)
        #expect(!live.isLoading)
    }

    @Test("collections start empty, optionals nil, and the first result replaces them")
    func initialValues() async throws {
        let shared = try await makeShared()
        try await shared.write { db in try db.execute("INSERT INTO notes (id, text) VALUES (1, 'one')") }
        let all = LiveQuery(shared.observe(ObservedNote.self, "SELECT id, text FROM notes ORDER BY id"))
        let one = LiveQuery(shared.observe { db in try db.fetchOne(ObservedNote.self, "SELECT id, text FROM notes") })
        #expect(all.value == [])
        #expect(one.value == nil)
        try await waitUntil("both results") { !all.isLoading && !one.isLoading }
        #expect(all.value == [ObservedNote(id: 1, text: "one")])
        #expect(one.value == ObservedNote(id: 1, text: "one"))
    }

    @Test("with removingDuplicates, a commit that leaves the result as it was publishes nothing; without, it does")
    func duplicates() async throws {
        for removesDuplicates in [true, false] {
            let shared = try await makeShared()
            try await shared.write { db in try db.execute("INSERT INTO notes (id, text) VALUES (1, 'one')") }
            let fetches = CallCounter()
            let secondFetch = TestFlag()
            let observation = shared.observe { db in
                fetches.increment()
                if fetches.value == 2 { secondFetch.set() }
                return try db.fetchValue(Int.self, "SELECT count(*) FROM notes") ?? -1
            }
            let live = LiveQuery(removesDuplicates ? observation.removingDuplicates() : observation, initialValue: -1)
            try await waitUntil("the first result") { live.value == 1 }

            // The fetch count when `value` is first about to change: the fetch before a publish always ends before it.
            let fetchesAtChange = TrackedMutex<Int?>(nil)
            withObservationTracking {
                _ = live.value
            } onChange: {
                fetchesAtChange.withLock { $0 = fetches.value }
            }
            try await shared.write { db in try db.execute("UPDATE notes SET text = 'same count' WHERE id = 1") }
            try await secondFetch.wait()  // its result, equal to the last one, is published or skipped next
            try await shared.write { db in try db.execute("INSERT INTO notes (id, text) VALUES (2, 'two')") }
            try await waitUntil("the count after the insert") { live.value == 2 }
            #expect(fetchesAtChange.withLock { $0 } == (removesDuplicates ? 3 : 2))
        }
    }

    @Test("a failed fetch shows its error and keeps the value; the next commit fetches again and clears the error")
    func errorsAndRecovery() async throws {
        let shared = try await makeShared()
        let live = LiveQuery(
            shared.observe { db in
                let count = try db.fetchValue(Int.self, "SELECT count(*) FROM notes") ?? -1
                if count == 2 { throw TwoNotes() }
                return count
            }.removingDuplicates(), initialValue: -1)
        try await waitUntil("the first result") { live.value == 0 }
        try await shared.write { db in try db.execute("INSERT INTO notes (text) VALUES ('a'), ('b')") }
        try await waitUntil("the error") { live.error != nil }
        #expect(live.error is TwoNotes)
        #expect(live.value == 0)
        #expect(!live.isLoading)
        // Observation goes on. The next result equals the one before the error, and is published all the same,
        // clearing the error.
        try await shared.write { db in try db.execute("DELETE FROM notes") }
        try await waitUntil("the error cleared") { live.error == nil }
        #expect(live.value == 0)
        try await shared.write { db in try db.execute("INSERT INTO notes (text) VALUES ('c')") }
        try await waitUntil("the count after the insert") { live.value == 1 }
    }

    @Test("a first fetch that fails ends loading with the error, and a later commit to any table recovers")
    func firstFetchFails() async throws {
        let shared = try await makeShared()
        let live = LiveQuery(
            shared.observe { db in try db.fetchValue(Int.self, "SELECT count(*) FROM later") ?? -1 }, initialValue: -1)
        try await waitUntil("the error") { !live.isLoading }
        let error = try #require(live.error as? SQLiteError)
        #expect(error.sql == "SELECT count(*) FROM later")
        #expect(live.value == -1)
        try await shared.write { db in
            try db.execute("CREATE TABLE later (x)")
            try db.execute("INSERT INTO later VALUES (1)")
        }
        try await waitUntil("the value once the table exists") { live.value == 1 }
        #expect(live.error == nil)
    }

    @Test("releasing a live query cancels its task and unregisters its observation; no cycle keeps it alive")
    func releaseStopsEverything() async throws {
        let directory = try TemporaryDirectory()
        let shared = try SharedConnection(.create(path: directory.path("release.sqlite")))
        try await shared.write { db in try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        }
        let hub = shared.observationHub
        var live: LiveQuery<Int>? = LiveQuery(countNotes(shared), initialValue: -1)
        try await waitUntil("the first result") { live?.isLoading == false }
        #expect(hub.observerCount == 1)
        #expect(hub.noticing.watchesFiles || hub.noticing.pollInterval != nil)
        let task = try #require(live?.task)
        weak let released = live
        live = nil
        #expect(released == nil)  // the task holds it weakly
        try await waitForEnd(of: task)
        #expect(hub.observerCount == 0)
        #expect(hub.noticing == (watchesFiles: false, pollInterval: nil))
        #expect(hub.wanted == ObservationHub.Wanted())
        let active = try await shared.withConnection { db in db.changeTracker.isActive }
        #expect(!active)
    }

    @Test("a live query over a pool shows model rows, and keeps its value when the pool goes away")
    func poolAndOwnerGone() async throws {
        let directory = try TemporaryDirectory()
        var pool: ConnectionPool? = try ConnectionPool(.create(path: directory.path("pool.sqlite")), readerCount: 1)
        try await #require(pool).write { db in
            try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        }
        let live = LiveQuery(
            try #require(pool).observe(ObservedNote.self, "SELECT id, text FROM notes ORDER BY id").removingDuplicates()
        )
        try await waitUntil("the first result") { !live.isLoading }
        try await #require(pool).write { db in try db.execute("INSERT INTO notes (id, text) VALUES (1, 'one')") }
        try await waitUntil("the inserted row") { live.value.map(\.text) == ["one"] }
        let task = try #require(live.task)
        pool = nil
        try await waitForEnd(of: task)
        #expect(live.value.map(\.text) == ["one"])
        #expect(live.error == nil)
    }
}
