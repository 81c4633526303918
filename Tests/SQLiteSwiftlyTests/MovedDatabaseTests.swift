import Foundation
import Testing

@testable import SQLiteSwiftly

/// A database file unlinked, renamed or replaced while a connection has it open: writes are refused before they
/// commit, accesses and observations end with ``SQLiteError/Kind/databaseMoved``, and nothing lands in a file no
/// other program can find.
@Suite struct MovedDatabaseTests {
    enum Move: String, CaseIterable, Sendable {
        case renamed, unlinked, replaced
    }

    /// Moves the database at `path` away; for `.replaced`, another process creates a new database there.
    private func move(_ move: Move, _ path: String, in directory: TemporaryDirectory) throws {
        switch move {
        case .renamed:
            try FileManager.default.moveItem(atPath: path, toPath: directory.path("elsewhere.sqlite"))
        case .unlinked:
            try FileManager.default.removeItem(atPath: path)
        case .replaced:
            // As a program that puts another database in its place would: the old one's side files go too.
            try FileManager.default.moveItem(atPath: path, toPath: directory.path("elsewhere.sqlite"))
            for suffix in ["-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            let other = try Connection(creating: path)
            try other.execute("CREATE TABLE t(x TEXT)")
            try other.execute("INSERT INTO t VALUES ('other')")
        }
    }

    private func makeDatabase(_ directory: TemporaryDirectory, wal: Bool) throws -> String {
        let path = directory.path("moved.sqlite")
        let db = try Connection(creating: path)
        if wal { _ = try db.fetchValue(String.self, "PRAGMA journal_mode = WAL") }
        try db.execute("CREATE TABLE t(x TEXT)")
        try db.execute("INSERT INTO t VALUES ('mine')")
        return path
    }

    @Test(
        "a connection refuses to write to a moved database, before the body and at the commit",
        arguments: Move.allCases, [false, true])
    func connectionRefusesWrites(move: Move, wal: Bool) async throws {
        try await offPool {
            let directory = try TemporaryDirectory()
            let path = try makeDatabase(directory, wal: wal)
            let db = try Connection(opening: path)
            #expect(!db.fileHasMoved)
            try self.move(move, path, in: directory)
            #expect(db.fileHasMoved)
            var bodyRan = false
            let error = try requireSQLiteError {
                try db.transaction {
                    bodyRan = true
                    try db.execute("INSERT INTO t VALUES ('lost')")
                }
            }
            #expect(error.kind == .databaseMoved)
            #expect(error.path == path)
            #expect(!bodyRan, "the body ran although the write was refused before it")
            // A write in autocommit mode, and a deferred transaction, are refused at their commit and rolled back.
            let autocommit = try requireSQLiteError { try db.execute("INSERT INTO t VALUES ('lost')") }
            #expect(autocommit.kind == .databaseMoved)
            let deferred = try requireSQLiteError {
                try db.transaction(.deferred) { try db.execute("INSERT INTO t VALUES ('lost')") }
            }
            #expect(deferred.kind == .databaseMoved)
            #expect(!db.isInTransaction)
            // Reading the file it has open still works, and shows nothing of the refused writes.
            #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t WHERE x = 'lost'") == 0)
            if move == .replaced {
                #expect(try runShell(path, "SELECT group_concat(x) FROM t") == "other")
            }
        }
    }

    @Test("an in-memory database never counts as moved")
    func inMemory() throws {
        let db = try Connection.inMemory()
        #expect(!db.fileHasMoved)
        try db.transaction { try db.execute("CREATE TABLE t(x)") }
    }

    @Test("a shared connection's accesses fail with databaseMoved before their body runs", arguments: Move.allCases)
    func sharedConnection(move: Move) async throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory, wal: true)
        let shared = try SharedConnection(.open(path: path))
        #expect(try await shared.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM t") } == 1)
        try self.move(move, path, in: directory)
        let accesses: [@Sendable () async throws -> Void] = [
            { @Sendable in _ = try await shared.read { db in try db.fetchValue(Int.self, "SELECT 1") } },
            { @Sendable in _ = try await shared.write { db in try db.execute("INSERT INTO t VALUES ('lost')") } },
            { @Sendable in try await shared.withConnection { _ in } },
        ]
        for access in accesses {
            let error = await #expect(throws: SQLiteError.self) { try await access() }
            #expect(error?.kind == .databaseMoved)
        }
    }

    @Test("a pool's observation ends with databaseMoved, its change streams end, and its writes are refused")
    func poolObservation() async throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory, wal: true)
        let pool = try ConnectionPool(.open(path: path), readerCount: 2)
        let options = ObservationOptions(otherConnectionCheckInterval: .milliseconds(10))
        let observation = pool.observe(options: options) { db in
            try db.fetchValue(String.self, "SELECT group_concat(x) FROM t") ?? ""
        }
        let changes = pool.changes(options: options)
        var iterator = observation.makeAsyncIterator()
        #expect(try await iterator.next() == "mine")
        try move(.replaced, path, in: directory)
        let error = await #expect(throws: SQLiteError.self) {
            while let value = try await iterator.next() {
                #expect(value != "other", "the observation delivered another database's rows")
            }
        }
        #expect(error?.kind == .databaseMoved)
        for await change in changes { #expect(change.isFromAnotherConnection) }  // ends
        let refused = await #expect(throws: SQLiteError.self) {
            try await pool.write { db in try db.execute("INSERT INTO t VALUES ('lost')") }
        }
        #expect(refused?.kind == .databaseMoved)
        #expect(try runShell(path, "SELECT group_concat(x) FROM t") == "other")
    }
}
