import Foundation
import SQLiteSwiftly
import Testing

/// The examples of the Concurrency article.
@Suite struct ConcurrencyArticleTests {
    @Test("a SharedConnection writes in a transaction and reads a snapshot")
    func sharedConnection() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.sqlite")
        // BEGIN Concurrency: shared connection
        let shared = try SharedConnection(.create(path: path))  // Sendable: hand it to any task
        try await shared.write { db in  // BEGIN IMMEDIATE ... COMMIT; rolled back if the body throws
            try db.execute("CREATE TABLE notes (body TEXT NOT NULL)")
            try db.transaction {  // nested in the write: a savepoint
                try db.execute("INSERT INTO notes VALUES (\("hello"))")
            }
        }
        let count = try await shared.read { db in  // one consistent snapshot; writes are refused
            try db.fetchValue(Int.self, "SELECT count(*) FROM notes")
        }
        // END Concurrency: shared connection
        #expect(count == 1)
        let refused = await #expect(throws: SQLiteError.self) {
            try await shared.read { db in try db.execute("DELETE FROM notes") }
        }
        #expect(refused?.code.primary == .readOnly)
    }

    @Test("a pool writes on its writer and reads on its readers, in WAL mode")
    func pool() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("pool.sqlite")
        // BEGIN Concurrency: pool
        let pool = try ConnectionPool(.create(path: path), readerCount: 4)  // WAL: one writer, four readers
        try await pool.write { db in
            try db.execute("CREATE TABLE notes (body TEXT NOT NULL)")
        }
        async let saved: Void = pool.write { db in  // writes run one at a time, on the writer
            try db.execute("INSERT INTO notes VALUES (\("hello"))")
        }
        let notes = try await pool.read { db in  // never waits for the writer: sees the last commit
            try db.fetchAll(UntypedRow.self, "SELECT body FROM notes")
        }
        try await saved
        // END Concurrency: pool
        #expect(notes.count <= 1)
        let after = try await pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM notes") }
        #expect(after == 1)
        let mode = try await pool.read { db in try db.fetchValue(String.self, "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test("every connection of a pool gets the options' synchronous mode and setup statements")
    func perConnectionSettings() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("settings.sqlite")
        // BEGIN Concurrency: per-connection settings
        let options = ConnectionOptions(
            synchronous: .normal,  // WAL: durable through crashes; a power loss may undo the last commits
            setupStatements: ["PRAGMA cache_size = -20000"])
        let pool = try ConnectionPool(.create(path: path), options: options)
        // END Concurrency: per-connection settings
        let settings = try await pool.read { db in
            [try db.fetchValue(Int.self, "PRAGMA synchronous"), try db.fetchValue(Int.self, "PRAGMA cache_size")]
        }
        #expect(settings == [1, -20000])
        #expect(try await pool.write { db in try db.fetchValue(Int.self, "PRAGMA synchronous") } == 1)
    }

    @Test("a closed pool leaves the database file alone, holding every commit")
    func closing() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.sqlite")
        // BEGIN Concurrency: closing
        let pool = try ConnectionPool(.create(path: path), readerCount: 2)
        try await pool.write { db in
            try db.execute("CREATE TABLE notes (body TEXT NOT NULL)")
            try db.execute("INSERT INTO notes VALUES (\("hello"))")
        }
        try await pool.close()  // the readers, then the writer, which checkpoints the WAL and deletes it
        // The database file alone now holds every commit: copy it, back it up, attach it to an e-mail.
        // END Concurrency: closing
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("")) == ["notes.sqlite"])
        let copy = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: path, toPath: copy.path("copy.sqlite"))
        let db = try Connection(opening: copy.path("copy.sqlite"))
        #expect(try db.fetchValue(String.self, "SELECT body FROM notes") == "hello")
    }

    @Test("code that is not async reads and writes a shared connection, blocking")
    func synchronousAccess() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.sqlite")
        // BEGIN Concurrency: synchronous
        let shared = try SharedConnection(.create(path: path))
        try shared.writeSynchronously { db in  // blocks this thread until the write has committed
            try db.execute("CREATE TABLE notes (body TEXT NOT NULL)")
            try db.execute("INSERT INTO notes VALUES (\("hello"))")
        }
        let count = try shared.readSynchronously { db in
            try db.fetchValue(Int.self, "SELECT count(*) FROM notes")
        }
        try shared.closeSynchronously()
        // END Concurrency: synchronous
        #expect(count == 1)
        #expect(try Connection(opening: path).fetchValue(Int.self, "SELECT count(*) FROM notes") == 1)
    }
}
