import Foundation
import SQLiteSwiftly
import Testing

/// The examples of the Concurrency article, in its order, each continuing from the ones before.
@Suite struct ConcurrencyArticleTests {
    @Test("the article's examples run in order from paths where no file exists, with the results they show")
    func walkthrough() async throws {
        let directory = try TemporaryDirectory()
        let poolDirectory = try TemporaryDirectory()  // to see the files the pool leaves
        let path = directory.path("notes.sqlite")  // the article: "paths where no file exists yet"
        let poolPath = poolDirectory.path("pool.sqlite")
        let newPath = directory.path("tuned.sqlite")
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

        // BEGIN Concurrency: pool
        let pool = try ConnectionPool(.create(path: poolPath), readerCount: 4)  // WAL: one writer, four readers
        try await pool.write { db in
            try db.execute("CREATE TABLE notes (body TEXT NOT NULL)")
        }
        async let saved: Void = pool.write { db in  // writes run one at a time, on the writer
            try db.execute("INSERT INTO notes VALUES (\("hello"))")
        }
        let notes = try await pool.read { db in  // never waits for the writer: sees the last commit
            try db.fetchAll(UntypedRow.self, "SELECT body FROM notes")  // no note, or "hello" if saved first
        }
        try await saved
        // END Concurrency: pool
        #expect(notes.count <= 1)
        #expect(try await pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM notes") } == 1)
        #expect(try await pool.read { db in try db.fetchValue(String.self, "PRAGMA journal_mode") } == "wal")

        // BEGIN Concurrency: closing
        try await pool.write { db in
            try db.execute("INSERT INTO notes VALUES (\("goodbye"))")
        }
        try await pool.close()  // the readers, then the writer, which checkpoints the WAL and deletes it
        // The database file alone now holds every commit: copy it, back it up, attach it to an e-mail.
        // END Concurrency: closing
        #expect(try FileManager.default.contentsOfDirectory(atPath: poolDirectory.path("")) == ["pool.sqlite"])
        let copy = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: poolPath, toPath: copy.path("copy.sqlite"))
        let copied = try Connection(opening: copy.path("copy.sqlite"))
        #expect(try copied.fetchValue(String.self, "SELECT group_concat(body, ', ') FROM notes") == "hello, goodbye")

        // BEGIN Concurrency: synchronous
        try shared.writeSynchronously { db in  // blocks this thread until the write has committed
            try db.execute("INSERT INTO notes VALUES (\("written synchronously"))")
        }
        let total = try shared.readSynchronously { db in
            try db.fetchValue(Int.self, "SELECT count(*) FROM notes")  // 2: "hello" and this one
        }
        try shared.closeSynchronously()
        // END Concurrency: synchronous
        #expect(total == 2)
        #expect(try Connection(opening: path).fetchValue(Int.self, "SELECT count(*) FROM notes") == 2)

        // BEGIN Concurrency: per-connection settings
        let options = ConnectionOptions(
            synchronous: .normal,  // WAL: durable through crashes; a power loss may undo the last commits
            setupStatements: ["PRAGMA cache_size = -20000"])
        let tuned = try ConnectionPool(.create(path: newPath), options: options)
        // END Concurrency: per-connection settings
        let settings = try await tuned.read { db in
            [try db.fetchValue(Int.self, "PRAGMA synchronous"), try db.fetchValue(Int.self, "PRAGMA cache_size")]
        }
        #expect(settings == [1, -20000])
        #expect(try await tuned.write { db in try db.fetchValue(Int.self, "PRAGMA synchronous") } == 1)
    }
}
