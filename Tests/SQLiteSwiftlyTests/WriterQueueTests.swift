import Foundation
import SQLiteSwiftly
import Testing

@Suite struct WriterQueueTests {
    private func makeDatabase(_ directory: TemporaryDirectory, journalMode: String = "DELETE") throws -> String {
        let path = directory.path("queue.sqlite")
        let db = try Connection(creating: path)
        #expect(
            try db.fetchValue(String.self, SQL(verbatim: "PRAGMA journal_mode = \(journalMode)"))?.uppercased()
                == journalMode)
        try db.execute("CREATE TABLE items (value INTEGER NOT NULL)")
        try db.execute("INSERT INTO items VALUES (1)")
        return path
    }

    @Test("a write transaction creates <database>-turnstile beside the database; reads and opening do not")
    func turnstileFileCreated() throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory)
        let turnstile = path + "-turnstile"
        let db = try Connection(opening: path)
        _ = try db.fetchValue(Int.self, "SELECT count(*) FROM items")
        try db.transaction(.deferred) { _ = try db.fetchValue(Int.self, "SELECT count(*) FROM items") }
        #expect(!FileManager.default.fileExists(atPath: turnstile))
        try db.transaction { try db.execute("INSERT INTO items VALUES (2)") }
        #if os(Linux)
            #expect(FileManager.default.fileExists(atPath: turnstile))
            #expect(try FileManager.default.attributesOfItem(atPath: turnstile)[.size] as? Int == 0)
        #endif
    }

    @Test("no turnstile for read-only connections, in-memory databases, or with queuesWriters off")
    func noTurnstile() async throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory)
        let turnstile = path + "-turnstile"
        let unqueued = try Connection(opening: path, options: .init(queuesWriters: false))
        try unqueued.transaction { try unqueued.execute("INSERT INTO items VALUES (2)") }
        let readOnly = try Connection(opening: path, readOnly: true)
        #expect(throws: SQLiteError.self) {
            try readOnly.transaction { try readOnly.execute("INSERT INTO items VALUES (3)") }
        }
        let pool = try ConnectionPool(.open(path: path), options: .init(queuesWriters: false))
        try await pool.write { db in try db.execute("INSERT INTO items VALUES (4)") }
        _ = try await pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM items") }
        let memory = try Connection.inMemory()
        try memory.transaction { try memory.execute("CREATE TABLE t (x)") }
        #expect(!FileManager.default.fileExists(atPath: turnstile))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!names.contains { $0.hasSuffix("-turnstile") }, "\(names)")
    }

    @Test(
        "a writer waiting for its turn gives up after the busy timeout with a busy error naming the turnstile",
        .enabled(if: isLinux, "the turnstile uses Linux open-file-description locks"))
    func turnTimesOut() throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory)
        let holder = try Connection(opening: path)
        let waiter = try Connection(opening: path, options: .init(busyTimeout: .milliseconds(200)))
        try holder.transaction {
            try holder.execute("INSERT INTO items VALUES (2)")
            let start = ContinuousClock.now
            var bodyRan = false
            let error = try requireSQLiteError {
                try waiter.transaction { bodyRan = true }
            }
            let waited = ContinuousClock.now - start
            #expect(error.isBusy && error.kind == .sqlite && error.sql == "BEGIN IMMEDIATE")
            #expect(error.message.contains("-turnstile"), "\(error)")
            #expect(waited >= .milliseconds(150) && waited < .seconds(5))
            #expect(!bodyRan && !waiter.isInTransaction)
        }
        // The turn was left at COMMIT: the waiter writes now, and so does the holder again.
        try waiter.transaction { try waiter.execute("INSERT INTO items VALUES (3)") }
        try holder.transaction { try holder.execute("INSERT INTO items VALUES (4)") }
        #expect(try holder.fetchValue(Int.self, "SELECT count(*) FROM items") == 4)
    }

    @Test(
        "connections that reach the database through a symbolic link queue at the same turnstile",
        .enabled(if: isLinux, "the turnstile uses Linux open-file-description locks"))
    func linkedPathsShareTheQueue() throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory)
        let link = directory.path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let holder = try Connection(opening: path)
        let waiter = try Connection(opening: link, options: .init(busyTimeout: .milliseconds(100)))
        try holder.transaction {
            let error = try requireSQLiteError { try waiter.transaction {} }
            #expect(error.isBusy && error.message.contains("-turnstile"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: link + "-turnstile"))
    }

    @Test("the turn is left when BEGIN fails, the body throws, or the body commits by itself")
    func turnLeftOnEveryPath() throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory)
        let first = try Connection(opening: path, options: .init(busyTimeout: .milliseconds(100)))
        let second = try Connection(opening: path, options: .init(busyTimeout: .milliseconds(100)))
        struct Failure: Error {}
        #expect(throws: Failure.self) { try first.transaction { throw Failure() } }
        try second.transaction { try second.execute("INSERT INTO items VALUES (2)") }
        #expect(throws: SQLiteError.self) { try first.transaction { try first.execute("COMMIT") } }
        try second.transaction { try second.execute("INSERT INTO items VALUES (3)") }
        // A failing BEGIN: a connection outside the queue holds SQLite's lock.
        try second.execute("BEGIN IMMEDIATE")
        let error = try requireSQLiteError { try first.transaction {} }
        #expect(error.isBusy && error.sql == "BEGIN IMMEDIATE" && !error.message.contains("-turnstile"))
        try second.execute("ROLLBACK")
        try second.transaction { try second.execute("INSERT INTO items VALUES (4)") }
        try first.transaction { try first.execute("INSERT INTO items VALUES (5)") }
        #expect(try first.fetchValue(Int.self, "SELECT count(*) FROM items") == 5)
    }

    @Test(
        "a deferred transaction that read, then writes while another connection writes: deferredWriteConflict at once",
        arguments: ["DELETE", "WAL"])
    func deferredWriteWhileAnotherWrites(journalMode: String) throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory, journalMode: journalMode)
        let reader = try Connection(opening: path)  // the default 5-second timeout: the error must not wait
        let writer = try Connection(opening: path)
        try writer.execute("BEGIN IMMEDIATE")
        try writer.execute("INSERT INTO items VALUES (2)")
        let start = ContinuousClock.now
        let error = try requireSQLiteError {
            try reader.transaction(.deferred) {
                _ = try reader.fetchValue(Int.self, "SELECT count(*) FROM items")
                try reader.execute("INSERT INTO items VALUES (3)")
            }
        }
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(error.kind == .deferredWriteConflict && error.isBusy)
        #expect(error.message.contains(".immediate"))
        #expect(error.sql == "INSERT INTO items VALUES (3)")
        #expect(!reader.isInTransaction)
        try writer.execute("COMMIT")
        #expect(try reader.fetchValue(Int.self, "SELECT count(*) FROM items") == 2)
    }

    @Test("WAL: a deferred transaction that read, then writes after another connection committed: conflict")
    func deferredWriteAfterAnotherCommitted() throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory, journalMode: "WAL")
        let reader = try Connection(opening: path)
        let writer = try Connection(opening: path)
        let error = try requireSQLiteError {
            try reader.transaction(.deferred) {
                _ = try reader.fetchValue(Int.self, "SELECT count(*) FROM items")
                try writer.execute("INSERT INTO items VALUES (2)")  // commits while the reader holds a snapshot
                try reader.execute("INSERT INTO items VALUES (3)")
            }
        }
        #expect(error.kind == .deferredWriteConflict)
        #expect(error.code == .busySnapshot)
        #expect(try reader.fetchValue(Int.self, "SELECT count(*) FROM items") == 2)
        // The same work in an immediate transaction waits at BEGIN and succeeds.
        try reader.transaction {
            _ = try reader.fetchValue(Int.self, "SELECT count(*) FROM items")
            try reader.execute("INSERT INTO items VALUES (3)")
        }
        #expect(try writer.fetchValue(Int.self, "SELECT count(*) FROM items") == 3)
    }

    @Test("a busy error outside a deferred read transaction keeps kind .sqlite")
    func plainBusyStaysSQLite() throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory)
        let holder = try Connection(opening: path)
        let other = try Connection(opening: path, options: .init(busyTimeout: .milliseconds(50)))
        try holder.execute("BEGIN IMMEDIATE")
        let autocommit = try requireSQLiteError { try other.execute("INSERT INTO items VALUES (2)") }
        #expect(autocommit.kind == .sqlite && autocommit.isBusy)
        // A deferred transaction whose first statement writes waits (no read lock yet), then fails plainly.
        let firstWrite = try requireSQLiteError {
            try other.transaction(.deferred) { try other.execute("INSERT INTO items VALUES (2)") }
        }
        #expect(firstWrite.kind == .sqlite && firstWrite.isBusy)
        try holder.execute("ROLLBACK")
    }
}

#if os(Linux)
    let isLinux = true
#else
    let isLinux = false
#endif
