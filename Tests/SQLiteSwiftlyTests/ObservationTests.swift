import Foundation
import Testing

@testable import SQLiteSwiftly

/// A note row for model observations.
struct ObservedNote: RowDecodable, Sendable, Equatable {
    var id: Int64
    var text: String

    static let expectedColumnNames: [String]? = ["id", "text"]

    init(id: Int64, text: String) {
        self.id = id
        self.text = text
    }

    init(row: borrowing Row) throws(SQLiteError) {
        id = try row[0]
        text = try row[1]
    }
}

@Suite struct ObservationTests {
    /// A shared in-memory database with `notes` and `other`, both empty.
    private func makeShared() async throws -> SharedConnection {
        let shared = try SharedConnection(.inMemory)
        try await shared.write { db in
            try db.executeScript(
                """
                CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
                CREATE TABLE other (id INTEGER PRIMARY KEY, value INTEGER);
                """)
        }
        return shared
    }

    private func countNotes(_ shared: SharedConnection, counter: CallCounter? = nil) -> QueryObservation<Int> {
        shared.observe { db in
            counter?.increment()
            return try db.fetchValue(Int.self, "SELECT count(*) FROM notes") ?? -1
        }
    }

    @Test("the first element is the current result")
    func firstValue() async throws {
        let shared = try await makeShared()
        try await shared.write { db in try db.execute("INSERT INTO notes (text) VALUES ('a'), ('b')") }
        let recorder = ObservationRecorder(countNotes(shared))
        #expect(try await recorder.value(at: 0) == 2)
    }

    @Test("a model and SQL observation delivers decoded rows after each commit")
    func modelObservation() async throws {
        let shared = try await makeShared()
        let recorder = ObservationRecorder(shared.observe(ObservedNote.self, "SELECT id, text FROM notes ORDER BY id"))
        #expect(try await recorder.value(at: 0) == [])
        try await shared.write { db in try db.execute("INSERT INTO notes (id, text) VALUES (1, 'hello')") }
        #expect(try await recorder.value(at: 1) == [ObservedNote(id: 1, text: "hello")])
    }

    @Test("a transaction with many statements notifies once, after its commit")
    func oneNotificationPerTransaction() async throws {
        let shared = try await makeShared()
        let counter = CallCounter()
        let recorder = ObservationRecorder(countNotes(shared, counter: counter))
        #expect(try await recorder.value(at: 0) == 0)
        try await shared.write { db in
            for index in 0..<5 { try db.execute("INSERT INTO notes (text) VALUES (\("n\(index)"))") }
        }
        #expect(try await recorder.value(at: 1) == 5)
        // A marker commit: when its value arrives, every notification before it has been delivered.
        try await shared.write { db in try db.execute("INSERT INTO notes (text) VALUES ('marker')") }
        #expect(try await recorder.value(at: 2) == 6)
        #expect(recorder.values == [0, 5, 6])
        #expect(counter.value == 3)
    }

    @Test("a rolled-back transaction never notifies")
    func rollbackNeverNotifies() async throws {
        let shared = try await makeShared()
        let recorder = ObservationRecorder(countNotes(shared))
        #expect(try await recorder.value(at: 0) == 0)
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await shared.write { db in
                try db.execute("INSERT INTO notes (text) VALUES ('never')")
                throw Refused()
            }
        }
        try await shared.withConnection { db in
            try db.execute("BEGIN")
            try db.execute("INSERT INTO notes (text) VALUES ('never either')")
            try db.execute("ROLLBACK")
        }
        try await shared.write { db in try db.execute("INSERT INTO other (value) VALUES (1)") }
        try await shared.write { db in try db.execute("INSERT INTO notes (text) VALUES ('kept')") }
        #expect(try await recorder.value(at: 1) == 1)
        #expect(recorder.values == [0, 1])
    }

    @Test("a commit refused by a deferred foreign key never notifies")
    func refusedCommit() async throws {
        let shared = try await makeShared()
        try await shared.write { db in
            try db.execute("CREATE TABLE parents (id INTEGER PRIMARY KEY)")
            try db.execute(
                "CREATE TABLE kids (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED)"
            )
        }
        let changes = ObservationRecorder(shared.changes())
        let kids = ObservationRecorder(
            shared.observe { db in try db.fetchValue(Int.self, "SELECT count(*) FROM kids") })
        #expect(try await kids.value(at: 0) == 0)
        let refused = await #expect(throws: SQLiteError.self) {
            try await shared.write { db in try db.execute("INSERT INTO kids (parent) VALUES (42)") }
        }
        #expect(refused?.code.primary == .constraint)
        try await shared.write { db in try db.execute("INSERT INTO parents (id) VALUES (42)") }
        try await shared.write { db in try db.execute("INSERT INTO kids (parent) VALUES (42)") }
        #expect(try await kids.value(at: 1) == 1)
        #expect(kids.values == [0, 1])
        let second = try await changes.value(at: 1)
        #expect(second[table: "kids"]?.rowIDs == [1])
        #expect(changes.values.count == 2)
        #expect(changes.values.first?[table: "parents"] != nil)
    }

    @Test("the check interval for other connections is at least a millisecond")
    func optionsClamp() {
        #expect(
            ObservationOptions(otherConnectionCheckInterval: .zero).otherConnectionCheckInterval == .milliseconds(1))
        #expect(
            ObservationOptions(otherConnectionCheckInterval: .seconds(-5)).otherConnectionCheckInterval
                == .milliseconds(1))
        #expect(ObservationOptions().otherConnectionCheckInterval == .milliseconds(100))
    }

    @Test("a savepoint rolled back inside a committed transaction leaves the right final value")
    func savepointRolledBack() async throws {
        let shared = try await makeShared()
        let recorder = ObservationRecorder(countNotes(shared))
        #expect(try await recorder.value(at: 0) == 0)
        struct Refused: Error {}
        try await shared.write { db in
            try db.execute("INSERT INTO notes (text) VALUES ('kept')")
            _ = try? db.transaction {
                try db.execute("INSERT INTO notes (text) VALUES ('dropped')")
                throw Refused()
            }
        }
        #expect(try await recorder.value(from: 1) { $0 == 1 } == 1)
        #expect(!recorder.values.contains(2))
    }

    @Test("a commit to an unrelated table does not re-run the fetch")
    func unrelatedTable() async throws {
        let shared = try await makeShared()
        let counter = CallCounter()
        let recorder = ObservationRecorder(countNotes(shared, counter: counter))
        #expect(try await recorder.value(at: 0) == 0)
        for value in 0..<3 {
            try await shared.write { db in try db.execute("INSERT INTO other (value) VALUES (\(value))") }
        }
        try await shared.write { db in try db.execute("INSERT INTO notes (text) VALUES ('one')") }
        #expect(try await recorder.value(at: 1) == 1)
        try await shared.write { db in try db.execute("INSERT INTO notes (text) VALUES ('two')") }
        #expect(try await recorder.value(at: 2) == 2)
        #expect(counter.value == 3)
        #expect(recorder.values == [0, 1, 2])
    }

    @Test("a fetch of a join is notified by a commit to either table")
    func joinFetch() async throws {
        let shared = try await makeShared()
        let recorder = ObservationRecorder(
            shared.observe { db in
                try db.fetchValue(
                    Int.self, "SELECT count(*) FROM notes JOIN other ON other.id = notes.id WHERE other.value > 0")
                    ?? -1
            })
        #expect(try await recorder.value(at: 0) == 0)
        try await shared.write { db in try db.execute("INSERT INTO notes (id, text) VALUES (1, 'a')") }
        #expect(try await recorder.value(at: 1) == 0)
        try await shared.write { db in try db.execute("INSERT INTO other (id, value) VALUES (1, 5)") }
        #expect(try await recorder.value(at: 2) == 1)
    }

    @Test("WITHOUT ROWID tables and DELETE without WHERE notify, at table level")
    func unreportedChanges() async throws {
        let shared = try await makeShared()
        try await shared.write { db in
            try db.execute("CREATE TABLE tags (name TEXT PRIMARY KEY) WITHOUT ROWID")
            try db.execute("INSERT INTO notes (text) VALUES ('a'), ('b')")
        }
        let changes = ObservationRecorder(shared.changes())
        let tags = ObservationRecorder(
            shared.observe { db in try db.fetchValue(Int.self, "SELECT count(*) FROM tags") })
        let notes = ObservationRecorder(countNotes(shared))
        #expect(try await tags.value(at: 0) == 0)
        #expect(try await notes.value(at: 0) == 2)
        try await shared.write { db in try db.execute("INSERT INTO tags (name) VALUES ('swift')") }
        #expect(try await tags.value(at: 1) == 1)
        try await shared.write { db in try db.execute("DELETE FROM notes") }
        #expect(try await notes.value(at: 1) == 0)
        let tagChange = try await changes.value { $0[table: "tags"] != nil }
        #expect(tagChange[table: "tags"] == DatabaseChange.TableChange(table: "tags", kinds: .insert, rowIDs: nil))
        let deletion = try await changes.value { $0[table: "notes"] != nil }
        #expect(deletion[table: "notes"]?.kinds == .delete)
        #expect(deletion[table: "notes"]?.rowIDs == nil)
    }

    @Test("changes made by triggers and foreign-key actions notify")
    func triggersAndCascades() async throws {
        let shared = try await makeShared()
        try await shared.write { db in
            try db.executeScript(
                """
                CREATE TABLE log (entry TEXT);
                CREATE TRIGGER log_other AFTER INSERT ON other BEGIN INSERT INTO log VALUES ('other'); END;
                CREATE TABLE parents (id INTEGER PRIMARY KEY);
                CREATE TABLE children (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parents(id) ON DELETE CASCADE);
                INSERT INTO parents VALUES (1);
                INSERT INTO children VALUES (10, 1), (11, 1);
                """)
        }
        let log = ObservationRecorder(shared.observe { db in try db.fetchValue(Int.self, "SELECT count(*) FROM log") })
        let children = ObservationRecorder(
            shared.observe { db in try db.fetchValue(Int.self, "SELECT count(*) FROM children") })
        #expect(try await log.value(at: 0) == 0)
        #expect(try await children.value(at: 0) == 2)
        try await shared.write { db in try db.execute("INSERT INTO other (value) VALUES (1)") }
        #expect(try await log.value(at: 1) == 1)
        try await shared.write { db in try db.execute("DELETE FROM parents WHERE id = 1") }
        #expect(try await children.value(at: 1) == 0)
    }

    @Test("a trigger created under a cached write: its first run after that notifies the trigger's table")
    func triggerCreatedUnderCachedWrite() async throws {
        let shared = try await makeShared()
        try await shared.write { db in try db.execute("CREATE TABLE copies (value INTEGER)") }
        let copies = ObservationRecorder(
            shared.observe { db in try db.fetchValue(Int.self, "SELECT count(*) FROM copies") })
        #expect(try await copies.value(at: 0) == 0)
        // Run twice, the insert is cached with what it writes: `other` only.
        for value in [1, 2] {
            try await shared.write { db in try db.execute("INSERT INTO other (value) VALUES (\(value))") }
        }
        try await shared.write { db in
            try db.execute("CREATE TRIGGER copy AFTER INSERT ON other BEGIN INSERT INTO copies VALUES (new.value); END")
        }
        // The cached insert is re-prepared at its step, and now writes `copies` too.
        try await shared.write { db in try db.execute("INSERT INTO other (value) VALUES (\(3))") }
        #expect(try await copies.value(from: 1, atMost: .seconds(10)) { $0 == 1 } == 1)
    }

    @Test("the change hook reports tables, kinds and row ids after each commit")
    func changeHook() async throws {
        let shared = try await makeShared()
        let changes = ObservationRecorder(shared.changes())
        try await shared.write { db in
            try db.execute("INSERT INTO notes (id, text) VALUES (7, 'a'), (8, 'b')")
            try db.execute("UPDATE other SET value = 1 WHERE id = 99")
        }
        try await shared.write { db in try db.execute("UPDATE notes SET text = 'c' WHERE id = 8") }
        let first = try await changes.value(at: 0)
        #expect(first[table: "notes"] == DatabaseChange.TableChange(table: "notes", kinds: .insert, rowIDs: [7, 8]))
        #expect(first[table: "NOTES"] != nil)
        #expect(first.touches(table: "other"))  // a statement that may update counts, rows or not
        #expect(!first.isFromAnotherConnection)
        let second = try await changes.value(at: 1)
        #expect(second.tables == [DatabaseChange.TableChange(table: "notes", kinds: .update, rowIDs: [8])])
        #expect(!second.touches(table: "other"))
    }

    /// A file with a `notes` table, a plain connection to it (another connection, for the shared one), and a
    /// shared connection to it.
    private func fileWithNotes(_ directory: TemporaryDirectory) throws -> (other: Connection, shared: SharedConnection)
    {
        let path = directory.path("notes.sqlite")
        let other = try Connection(creating: path)
        try other.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        return (other, try SharedConnection(.open(path: path)))
    }

    /// Observes the number of rows of `table`, checking other connections as `options` say.
    private func rowCount(
        of table: String = "notes", in shared: SharedConnection,
        options: ObservationOptions = ObservationOptions(otherConnectionCheckInterval: .milliseconds(10))
    ) -> ObservationRecorder<Int> {
        ObservationRecorder(
            shared.observe(options: options) { db in
                try db.fetchValue(Int.self, SQL(verbatim: "SELECT count(*) FROM \(table)")) ?? -1
            })
    }

    @Test("a commit by another Connection to the same file is noticed")
    func otherConnection() async throws {
        let directory = try TemporaryDirectory()
        let (setup, shared) = try fileWithNotes(directory)
        let recorder = rowCount(in: shared)
        #expect(try await recorder.value(at: 0) == 0)
        try setup.execute("INSERT INTO notes (text) VALUES ('from elsewhere')")
        #expect(try await recorder.value(from: 1) { $0 == 1 } == 1)
    }

    @Test("a commit by another connection to an attached database is noticed")
    func attachedDatabase() async throws {
        let directory = try TemporaryDirectory()
        let (mainPath, auxPath) = (directory.path("main.sqlite"), directory.path("aux.sqlite"))
        _ = try Connection(creating: mainPath)
        let aux = try Connection(creating: auxPath)
        try aux.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY)")
        let shared = try SharedConnection(.open(path: mainPath))
        _ = try await shared.withConnection { db in try db.execute("ATTACH DATABASE \(auxPath) AS aux") }
        let recorder = rowCount(of: "aux.notes", in: shared)
        #expect(try await recorder.value(at: 0) == 0)
        try aux.execute("INSERT INTO notes DEFAULT VALUES")
        #expect(try await recorder.value(from: 1, atMost: .seconds(10)) { $0 == 1 } == 1)
    }

    @Test("check intervals out of range are used within 1 ms and a day; a shorter one applies at once")
    func checkIntervals() async throws {
        let directory = try TemporaryDirectory()
        let (setup, shared) = try fileWithNotes(directory)
        // Set after init, past what the clock can sleep: it used to trap in Task.sleep.
        var huge = ObservationOptions()
        huge.otherConnectionCheckInterval = .seconds(Int64.max)
        #expect(
            ObservationOptions(otherConnectionCheckInterval: .seconds(Int64.max)).otherConnectionCheckInterval
                == .seconds(86_400))
        #expect(
            ObservationOptions(otherConnectionCheckInterval: .zero).otherConnectionCheckInterval == .milliseconds(1))
        let slow = rowCount(in: shared, options: huge)
        #expect(try await slow.value(at: 0) == 0)
        try await Task.sleep(for: .milliseconds(50))  // the poller now sleeps a day
        let fast = rowCount(in: shared)
        #expect(try await fast.value(at: 0) == 0)
        try setup.execute("INSERT INTO notes (text) VALUES ('from elsewhere')")
        #expect(try await fast.value(from: 1, atMost: .seconds(10)) { $0 == 1 } == 1)
        #expect(try await slow.value(from: 1, atMost: .seconds(10)) { $0 == 1 } == 1)
    }

    @Test(
        "a commit by another process through the sqlite3 shell is noticed within the check interval",
        .enabled(if: sqlite3Shell != nil, "the sqlite3 command is not installed (apt-get install sqlite3)"))
    func otherProcess() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("process.sqlite")
        do {
            let setup = try Connection(creating: path)
            try setup.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        }
        let pool = try ConnectionPool(.open(path: path), readerCount: 2)
        let changes = ObservationRecorder(pool.changes())
        let recorder = ObservationRecorder(pool.observe(ObservedNote.self, "SELECT id, text FROM notes"))
        #expect(try await recorder.value(at: 0) == [])
        let shell = try ShellProcess(shell: try #require(sqlite3Shell), database: path)
        shell.send("INSERT INTO notes (id, text) VALUES (1, 'from the shell');")
        try shell.sync()
        let start = ContinuousClock.now
        #expect(try await recorder.value(from: 1) { $0.count == 1 } == [ObservedNote(id: 1, text: "from the shell")])
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(try await changes.value { $0.isFromAnotherConnection }.tables.isEmpty)
        shell.finish()
    }

    @Test("an observation started while another task's transaction runs sees its commit")
    func startedInsideAnotherTransaction() async throws {
        let directory = try TemporaryDirectory()
        let pool = try ConnectionPool(.create(path: directory.path("busy.sqlite")), readerCount: 2)
        try await pool.write { db in try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)") }
        let inside = TestFlag()
        let release = TestFlag()
        let writer = Task {
            try await pool.write { db in
                try db.execute("INSERT INTO notes (text) VALUES ('during')")
                inside.set()
                try release.block()
            }
        }
        try await inside.wait()
        let recorder = ObservationRecorder(
            pool.observe { db in try db.fetchValue(Int.self, "SELECT count(*) FROM notes") ?? -1 })
        release.set()
        try await writer.value
        // Either the first fetch already saw the commit, or the commit notifies; both end at 1.
        #expect(try await recorder.value { $0 == 1 } == 1)
    }

    @Test("cancelling the consuming task and dropping the iterator release the observation and its hooks")
    func cancellationReleases() async throws {
        let shared = try await makeShared()
        let hub = shared.observationHub
        let recorder = ObservationRecorder(countNotes(shared))
        #expect(try await recorder.value(at: 0) == 0)
        let changes = ObservationRecorder(shared.changes())
        #expect(hub.observerCount == 2)
        #expect(hub.wanted == ObservationHub.Wanted(tracksChanges: true, reportsRows: true))
        recorder.cancel()
        guard case .finished = try await recorder.end() else {
            Issue.record("a cancelled observation failed instead of ending")
            return
        }
        changes.cancel()
        await changes.waitForTask()
        await recorder.waitForTask()
        #expect(hub.observerCount == 0)
        #expect(hub.wanted == ObservationHub.Wanted())
        // The next access removes the hooks.
        let active = try await shared.withConnection { db in db.changeTracker.isActive }
        #expect(!active)

        var iterator: QueryObservation<Int>.Iterator? = countNotes(shared).makeAsyncIterator()
        #expect(try await iterator?.next() == 0)
        #expect(hub.observerCount == 1)
        iterator = nil
        #expect(hub.observerCount == 0)
    }

    @Test("the sequence ends when its shared connection or pool goes away")
    func ownerGone() async throws {
        var shared: SharedConnection? = try await makeShared()
        let recorder = ObservationRecorder(try #require(shared).observe { _ in 1 })
        #expect(try await recorder.value(at: 0) == 1)
        weak let weakShared = shared
        shared = nil
        guard case .finished = try await recorder.end() else {
            Issue.record("the sequence failed instead of ending")
            return
        }
        #expect(weakShared == nil)

        let directory = try TemporaryDirectory()
        var pool: ConnectionPool? = try ConnectionPool(.create(path: directory.path("gone.sqlite")), readerCount: 1)
        let poolRecorder = ObservationRecorder(try #require(pool).observe { _ in 1 })
        let poolChanges = ObservationRecorder(try #require(pool).changes())
        #expect(try await poolRecorder.value(at: 0) == 1)
        pool = nil
        guard case .finished = try await poolRecorder.end(), case .finished = try await poolChanges.end() else {
            Issue.record("a pool sequence failed instead of ending")
            return
        }
        // A sequence made from an owner that is gone ends at once.
        let late = try await makeShared()
        let orphan = late.observe { _ in 1 }
        _ = consume late
        var iterator = orphan.makeAsyncIterator()
        #expect(try await iterator.next() == nil)
    }

    @Test("an error during a re-fetch ends the sequence with that error")
    func refetchError() async throws {
        let shared = try await makeShared()
        struct TooMany: Error {}
        let recorder = ObservationRecorder(
            shared.observe { db in
                let count = try db.fetchValue(Int.self, "SELECT count(*) FROM notes") ?? 0
                if count > 0 { throw TooMany() }
                return count
            })
        #expect(try await recorder.value(at: 0) == 0)
        try await shared.write { db in try db.execute("INSERT INTO notes (text) VALUES ('one')") }
        guard case .failed(let error) = try await recorder.end() else {
            Issue.record("the sequence did not fail")
            return
        }
        #expect(error is TooMany)
        #expect(shared.observationHub.observerCount == 0)
    }

    @Test("a fetch with an SQL error ends the sequence with an SQLiteError naming the SQL")
    func sqlError() async throws {
        let shared = try await makeShared()
        let recorder = ObservationRecorder(
            shared.observe { db in try db.fetchValue(Int.self, "SELECT nope FROM notes") })
        guard case .failed(let error) = try await recorder.end() else {
            Issue.record("the sequence did not fail")
            return
        }
        #expect((error as? SQLiteError)?.sql == "SELECT nope FROM notes")
    }

    @Test("removingDuplicates skips results equal to the previous one")
    func removingDuplicates() async throws {
        let shared = try await makeShared()
        let counter = CallCounter()
        let recorder = ObservationRecorder(
            shared.observe { db in
                counter.increment()
                return try db.fetchValue(Int.self, "SELECT count(*) FROM notes WHERE text = 'x'") ?? -1
            }.removingDuplicates())
        #expect(try await recorder.value(at: 0) == 0)
        try await shared.write { db in try db.execute("INSERT INTO notes (text) VALUES ('y')") }
        try await shared.write { db in try db.execute("INSERT INTO notes (text) VALUES ('x')") }
        #expect(try await recorder.value(at: 1) == 1)
        #expect(recorder.values == [0, 1])
        #expect(counter.value >= 2)
    }

    @Test("observation works on a ConnectionPool, with fetches on readers")
    func pool() async throws {
        let directory = try TemporaryDirectory()
        let pool = try ConnectionPool(.create(path: directory.path("pool.sqlite")), readerCount: 2)
        try await pool.write { db in
            try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
            try db.execute("CREATE TABLE other (id INTEGER PRIMARY KEY)")
        }
        let counter = CallCounter()
        let recorder = ObservationRecorder(
            pool.observe { db in
                counter.increment()
                return try db.fetchValue(Int.self, "SELECT count(*) FROM notes") ?? -1
            })
        #expect(try await recorder.value(at: 0) == 0)
        for index in 1...20 {
            try await pool.write { db in try db.execute("INSERT INTO notes (text) VALUES (\("n\(index)"))") }
            try await pool.write { db in try db.execute("INSERT INTO other DEFAULT VALUES") }
        }
        // Commits may be coalesced, but the last state is always delivered.
        #expect(try await recorder.value { $0 == 20 } == 20)
        #expect(recorder.values == recorder.values.sorted())
        #expect(counter.value <= 21)
    }

    @Test("a schema change notifies every observation")
    func schemaChange() async throws {
        let shared = try await makeShared()
        let recorder = ObservationRecorder(
            shared.observe { db in
                try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'") ?? -1
            })
        #expect(try await recorder.value(at: 0) == 2)
        try await shared.write { db in try db.execute("CREATE TABLE third (id INTEGER PRIMARY KEY)") }
        #expect(try await recorder.value(at: 1) == 3)
    }

    @Test("a view redefined under an observation: the fetch then watches the view's new table")
    func viewRedefined() async throws {
        let shared = try await makeShared()
        try await shared.write { db in try db.execute("CREATE VIEW v AS SELECT id FROM notes") }
        let recorder = ObservationRecorder(
            shared.observe { db in try db.fetchValue(Int.self, "SELECT count(*) FROM v") ?? -1 })
        #expect(try await recorder.value(at: 0) == 0)
        try await shared.write { db in
            try db.execute("DROP VIEW v")
            try db.execute("CREATE VIEW v AS SELECT id FROM other")
        }
        #expect(try await recorder.value(at: 1) == 0)
        try await shared.write { db in try db.execute("INSERT INTO other (value) VALUES (1)") }
        #expect(try await recorder.value(at: 2) == 1)
    }

    @Test("blob writes and scripts notify, and a fetch through a blob handle is observed")
    func blobsAndScripts() async throws {
        let shared = try await makeShared()
        try await shared.write { db in
            try db.execute("CREATE TABLE files (id INTEGER PRIMARY KEY, data BLOB)")
            try db.execute("INSERT INTO files VALUES (1, x'00')")
        }
        let recorder = ObservationRecorder(
            shared.observe { db in try db.fetchValue([UInt8].self, "SELECT data FROM files WHERE id = 1") ?? [] })
        let throughHandle = ObservationRecorder(
            shared.observe { db in
                try db.withBlob(table: "files", column: "data", rowID: 1) { blob in try blob.read(count: 1, at: 0) }
            })
        #expect(try await recorder.value(at: 0) == [0])
        #expect(try await throughHandle.value(at: 0) == [0])
        try await shared.write { db in
            try db.withBlob(table: "files", column: "data", rowID: 1, writable: true) { blob in
                try blob.write([UInt8(7)], at: 0)
            }
        }
        #expect(try await recorder.value(at: 1) == [7])
        try await shared.write { db in try db.executeScript("UPDATE files SET data = x'09'; SELECT 1;") }
        #expect(try await recorder.value(at: 2) == [9])
        #expect(try await throughHandle.value { $0 == [9] } == [9])
    }
}
