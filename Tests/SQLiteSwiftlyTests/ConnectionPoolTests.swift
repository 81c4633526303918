import Foundation
import SQLiteSwiftly
import Testing

@Suite struct ConnectionPoolTests {
    private func makePool(_ directory: TemporaryDirectory, readers: Int = 3) async throws -> ConnectionPool {
        let pool = try ConnectionPool(.create(path: directory.path("pool.sqlite")), readerCount: readers)
        try await pool.write { db in
            try db.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
            try db.execute("INSERT INTO items (value) VALUES (1)")
        }
        return pool
    }

    @Test("the pool puts the database in WAL mode")
    func walMode() async throws {
        let directory = try TemporaryDirectory()
        let pool = try await makePool(directory)
        let mode = try await pool.read { db in try db.fetchValue(String.self, "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test("a read runs while a write transaction is open, and sees the last committed state")
    func readsDoNotWaitForTheWriter() async throws {
        let directory = try TemporaryDirectory()
        let pool = try await makePool(directory)
        let writerInside = TestFlag()
        let readDone = TestFlag()
        let writerDone = TestFlag()
        async let writing: Void = pool.write { db in
            try db.execute("INSERT INTO items (value) VALUES (2)")
            writerInside.set()
            try readDone.block()  // holds the write transaction open until the read is over
            writerDone.set()
        }
        try await writerInside.wait()
        let seen = try await pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM items") }
        let writerWasStillInside = !writerDone.isSet
        readDone.set()
        try await writing
        #expect(seen == 1)
        #expect(writerWasStillInside)
        let after = try await pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM items") }
        #expect(after == 2)
    }

    @Test("many concurrent reads and writes all complete, every write visible at the end")
    func concurrentReadsAndWrites() async throws {
        let directory = try TemporaryDirectory()
        let pool = try await makePool(directory)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for step in 0..<20 {
                        try await pool.write { db in
                            try db.execute("INSERT INTO items (value) VALUES (?)", [writer * 100 + step])
                        }
                    }
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    var last = 0
                    for _ in 0..<20 {
                        let count = try await pool.read { db in
                            try db.fetchValue(Int.self, "SELECT count(*) FROM items") ?? 0
                        }
                        #expect(count >= last)  // a reader never goes back in time
                        last = count
                    }
                }
            }
            try await group.waitForAll()
        }
        let count = try await pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM items") }
        #expect(count == 81)
    }

    @Test("a pool refuses in-memory and read-only modes and zero readers")
    func refusesBadConfigurations() throws {
        let directory = try TemporaryDirectory()
        for mode in [OpenMode.inMemory, .openReadOnly(path: directory.path("x.sqlite"))] {
            #expect {
                _ = try ConnectionPool(mode)
            } throws: { error in
                (error as? SQLiteError)?.kind == .misuse
            }
        }
        #expect {
            _ = try ConnectionPool(.create(path: directory.path("none.sqlite")), readerCount: 0)
        } throws: { error in
            (error as? SQLiteError)?.kind == .misuse
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("none.sqlite")))
    }
}
