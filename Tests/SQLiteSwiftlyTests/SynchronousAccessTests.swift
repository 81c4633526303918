import Foundation
import Testing

@testable import SQLiteSwiftly

/// `readSynchronously`, `writeSynchronously` and `withConnectionSynchronously`: blocking accesses for code that is
/// not async, and their refusals where blocking would wait for itself.
@Suite struct SynchronousAccessTests {
    private func makeShared() throws -> SharedConnection {
        let shared = try SharedConnection(.inMemory)
        _ = try shared.withConnectionSynchronously { db in try db.execute("CREATE TABLE t(x INTEGER)") }
        return shared
    }

    @Test("synchronous accesses read and write a shared connection and a pool")
    func readsAndWrites() throws {
        let shared = try makeShared()
        try shared.writeSynchronously { db in try db.execute("INSERT INTO t VALUES (1), (2)") }
        #expect(try shared.readSynchronously { db in try db.fetchValue(Int.self, "SELECT sum(x) FROM t") } == 3)
        let refused = try requireSQLiteError {
            try shared.readSynchronously { db in try db.execute("INSERT INTO t VALUES (3)") }
        }
        #expect(refused.code.primary == .readOnly)

        let directory = try TemporaryDirectory()
        let pool = try ConnectionPool(.create(path: directory.path("pool.sqlite")), readerCount: 2)
        try pool.writeSynchronously { db in try db.execute("CREATE TABLE t(x INTEGER)") }
        try pool.writeSynchronously { db in try db.execute("INSERT INTO t VALUES (5)") }
        for _ in 0..<4 {
            #expect(try pool.readSynchronously { db in try db.fetchValue(Int.self, "SELECT x FROM t") } == 5)
        }
    }

    @Test("synchronous and async accesses from many threads and tasks take turns and lose nothing")
    func mixedWithAsync() async throws {
        let shared = try makeShared()
        let threads = (0..<4).map { _ in
            let done = TestFlag()
            let thread = Thread {
                for _ in 0..<50 {
                    _ = try? shared.writeSynchronously { db in try db.execute("INSERT INTO t VALUES (1)") }
                }
                done.set()
            }
            thread.start()
            return done
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<50 { try await shared.write { db in try db.execute("INSERT INTO t VALUES (1)") } }
                }
            }
            try await group.waitForAll()
        }
        for done in threads { try await done.wait() }
        #expect(try await shared.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM t") } == 400)
    }

    @Test("a synchronous access inside an async access of the same connection is refused, not deadlocked")
    func refusedInsideAsyncAccess() async throws {
        let shared = try makeShared()
        let error = try await #require(throws: SQLiteError.self) {
            try await shared.write { _ in try shared.readSynchronously { _ in 1 } }
        }
        #expect(error.kind == .misuse)
        #expect(error.message.contains("could wait for itself"))
        // The connection goes on.
        try await shared.write { db in try db.execute("INSERT INTO t VALUES (1)") }
    }

    @Test("a synchronous access inside a synchronous body, of the same or another connection, is refused")
    func refusedInsideSynchronousBody() throws {
        let shared = try makeShared()
        let other = try makeShared()
        let same = try requireSQLiteError {
            try shared.writeSynchronously { _ in try shared.writeSynchronously { _ in 1 } }
        }
        #expect(same.kind == .misuse)
        let another = try requireSQLiteError {
            try shared.readSynchronously { _ in try other.readSynchronously { _ in 1 } }
        }
        #expect(another.kind == .misuse)
        #expect(try shared.readSynchronously { db in try db.fetchValue(Int.self, "SELECT count(*) FROM t") } == 0)
    }

    @Test("a synchronous pool access inside a pool access is refused")
    func poolRefusedInsideAccess() async throws {
        let directory = try TemporaryDirectory()
        let pool = try ConnectionPool(.create(path: directory.path("pool.sqlite")), readerCount: 2)
        try await pool.write { db in try db.execute("CREATE TABLE t(x INTEGER)") }
        let error = try await #require(throws: SQLiteError.self) {
            try await pool.read { _ in try pool.writeSynchronously { _ in 1 } }
        }
        #expect(error.kind == .misuse)
        let nested = try requireSQLiteError {
            try pool.writeSynchronously { _ in try pool.readSynchronously { _ in 1 } }
        }
        #expect(nested.kind == .misuse)
    }

    @Test("a synchronous access runs from the main actor")
    @MainActor func fromMainActor() throws {
        let shared = try makeShared()
        try shared.writeSynchronously { db in try db.execute("INSERT INTO t VALUES (7)") }
        #expect(try shared.readSynchronously { db in try db.fetchValue(Int.self, "SELECT x FROM t") } == 7)
    }

    @Test("a synchronous access is interrupted from another thread")
    func interrupted() throws {
        let shared = try makeShared()
        let started = TestFlag()
        let finished = TestFlag()
        Thread {
            try? started.block()
            // Again until the access ends: an interrupt that lands before the statement starts is forgotten.
            while !finished.isSet {
                shared.interrupt()
                usleep(1000)
            }
        }.start()
        defer { finished.set() }
        let error = try requireSQLiteError {
            try shared.readSynchronously { db in
                started.set()
                return try db.fetchValue(
                    Int.self, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n")
            }
        }
        #expect(error.code == .interrupt)
    }
}
