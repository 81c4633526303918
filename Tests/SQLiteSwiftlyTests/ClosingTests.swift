import Foundation
import Testing

@testable import SQLiteSwiftly

/// `close()` on the three owners: what it refuses, what every use after it does, and that a closed database leaves
/// one file holding every commit.
@Suite struct ClosingTests {
    /// The names in the database's directory.
    static func files(_ directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path("")).sorted()
    }

    /// Copies the database file alone into a fresh directory and counts the rows of `t` there.
    static func rowsInCopy(of path: String) throws -> Int? {
        let elsewhere = try TemporaryDirectory()
        let copy = elsewhere.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let db = try Connection(opening: copy, readOnly: true)
        return try db.fetchValue(Int.self, "SELECT count(*) FROM t")
    }

    /// Waits (at most 30 s) until `condition` holds: a released actor's connection closes on whichever thread lets
    /// go of it last, a moment after the caller's last reference goes.
    static func eventually(_ condition: () throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try condition()
    }

    @Test("every use of a closed connection throws misuse; closing again does nothing")
    func closedConnectionRefusesEverything() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("closed.sqlite")
        let db = try Connection(creating: path)
        try db.execute("CREATE TABLE t(x INTEGER)")
        try db.execute("INSERT INTO t VALUES (1)")
        try db.close()
        #expect(db.isClosed)
        try db.close()
        let uses: [(String, () throws -> Void)] = [
            ("execute", { try db.execute("INSERT INTO t VALUES (2)") }),
            ("fetchValue", { _ = try db.fetchValue(Int.self, "SELECT count(*) FROM t") }),
            ("transaction", { try db.transaction { _ = 1 } }),
            ("executeScript", { try db.executeScript("SELECT 1; SELECT 2") }),
            ("prepare", { _ = try db.prepare("SELECT 1") }),
            ("add(function:)", { try db.add(function: SQLFunction("f", argumentCount: 0) { _ in 1 }) }),
            (
                "add(collation:)",
                { try db.add(collation: Collation("c") { $0 < $1 ? .orderedAscending : .orderedSame }) }
            ),
            ("setLimit", { _ = try db.setLimit(.length, to: 10) }),
            ("setForeignKeyEnforcement", { try db.setForeignKeyEnforcement(false) }),
            ("withBlob", { try db.withBlob(table: "t", column: "x", rowID: 1) { _ in } }),
            ("backup", { try db.backup(to: directory.path("copy.sqlite")) }),
        ]
        for (name, use) in uses {
            let error = try requireSQLiteError(use)
            #expect(error.kind == .misuse, "\(name)")
            #expect(error.message.contains("the connection is closed"), "\(name): \(error.message)")
            #expect(error.path == path, "\(name)")
        }
        #expect(!db.isInTransaction)
        #expect(try Self.files(directory) == ["closed.sqlite"])
        // The file was let go: another connection opens and reads it.
        #expect(try Connection(opening: path).fetchValue(Int.self, "SELECT count(*) FROM t") == 1)
    }

    @Test("close refuses while a transaction body runs, and the transaction goes on")
    func refusedInTransaction() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t(x INTEGER)")
        try db.transaction {
            try db.execute("INSERT INTO t VALUES (1)")
            let error = try requireSQLiteError { try db.close() }
            #expect(error.kind == .misuse)
            #expect(error.message.contains("a transaction is open"))
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 1)
        try db.execute("BEGIN")
        #expect(sqliteError { try db.close() }?.message.contains("a transaction is open") == true)
        try db.execute("ROLLBACK")
        try db.close()
    }

    @Test("close refuses while a statement made from the connection is alive, naming its SQL")
    func refusedWithLiveStatement() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t(x INTEGER)")
        var statement: Statement? = try db.prepare("SELECT x FROM t WHERE x > ?")
        let error = try requireSQLiteError { try db.close() }
        #expect(error.kind == .misuse)
        #expect(error.message.contains("SELECT x FROM t WHERE x > ?"))
        #expect(!db.isClosed)
        #expect(try statement?.fetchValue(Int.self, [0]) == nil)
        statement = nil
        try db.close()
        #expect(db.isClosed)
    }

    @Test("close refuses inside a blob body and inside a row loop")
    func refusedWhileRunning() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t(b BLOB)")
        try db.execute("INSERT INTO t VALUES (x'0102')")
        try db.withBlob(table: "t", column: "b", rowID: 1) { _ in
            #expect(sqliteError { try db.close() }?.kind == .misuse)
        }
        let cursor = try db.fetchCursor(UntypedRow.self, "SELECT 1 UNION ALL SELECT 2")
        _ = try cursor.next()
        #expect(sqliteError { try db.close() }?.message.contains("running") == true)
        _ = consume cursor
        try db.close()
    }

    @Test("a body cannot close the connection of a SharedConnection; closing the owner works, and twice")
    func sharedConnectionClose() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("shared.sqlite")
        let shared = try SharedConnection(.create(path: path))
        try await shared.withConnection { db in
            _ = try db.fetchValue(String.self, "PRAGMA journal_mode = WAL")
            try db.execute("CREATE TABLE t(x INTEGER)")
        }
        for value in 1...3 { try await shared.write { db in try db.execute("INSERT INTO t VALUES (?)", [value]) } }
        let refusal = try await #require(throws: SQLiteError.self) {
            try await shared.withConnection { db in try db.close() }
        }
        #expect(refusal.message.contains("close that instead"))
        #expect(try Self.files(directory).contains("shared.sqlite-wal"))
        try await shared.close()
        try await shared.close()
        let error = try await #require(throws: SQLiteError.self) {
            try await shared.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM t") }
        }
        #expect(error.kind == .misuse)
        #expect(error.message.contains("the connection is closed"))
        #expect(try Self.files(directory) == ["shared.sqlite"])
        #expect(try Self.rowsInCopy(of: path) == 3)
    }

    @Test("a WAL connection closed leaves the file alone, holding every commit")
    func connectionLeavesOneFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("wal.sqlite")
        let db = try Connection(creating: path)
        _ = try db.fetchValue(String.self, "PRAGMA journal_mode = WAL")
        try db.execute("CREATE TABLE t(x INTEGER)")
        for value in 1...5 { try db.transaction { try db.execute("INSERT INTO t VALUES (?)", [value]) } }
        #expect(try Self.files(directory).contains("wal.sqlite-wal"))
        try db.close()
        #expect(try Self.files(directory) == ["wal.sqlite"])
        #expect(try Self.rowsInCopy(of: path) == 5)
    }

    @Test("a pool closed leaves the file alone, holding every commit; accesses after it throw misuse")
    func poolCloseLeavesOneFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("pool.sqlite")
        let pool = try ConnectionPool(.create(path: path), readerCount: 3)
        try await pool.write { db in try db.execute("CREATE TABLE t(x INTEGER)") }
        for value in 1...10 { try await pool.write { db in try db.execute("INSERT INTO t VALUES (?)", [value]) } }
        for _ in 0..<3 { _ = try await pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM t") } }
        try await pool.close()
        try await pool.close()
        #expect(try Self.files(directory) == ["pool.sqlite"])
        #expect(try Self.rowsInCopy(of: path) == 10)
        let error = try await #require(throws: SQLiteError.self) { try await pool.write { _ in } }
        #expect(error.message.contains("the connection is closed"))
    }

    @Test("a released pool whose reader is released last leaves the file alone, holding every commit")
    func releasedPoolReaderLast() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("pool.sqlite")
        var pool: ConnectionPool? = try ConnectionPool(.create(path: path), readerCount: 2)
        try await pool?.write { db in try db.execute("CREATE TABLE t(x INTEGER)") }
        for value in 1...10 { try await pool?.write { db in try db.execute("INSERT INTO t VALUES (?)", [value]) } }
        _ = try await pool?.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM t") }
        var reader: SharedConnection? = pool?.readers[0]
        _ = try await reader?.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM t") }
        pool = nil
        // The reader keeps the writer open: nothing is checkpointed yet.
        #expect(try Self.files(directory).contains("pool.sqlite-wal"))
        reader = nil
        let alone = try await Self.eventually { try Self.files(directory) == ["pool.sqlite"] }
        #expect(alone, "left: \((try? Self.files(directory)) ?? [])")
        #expect(try Self.rowsInCopy(of: path) == 10)
    }

    @Test(
        "a pool closed while another process reads keeps the WAL for it, and loses nothing",
        .enabled(if: sqlite3Shell != nil, "the sqlite3 command is not installed (apt-get install sqlite3)"))
    func otherProcessKeepsTheWAL() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("pool.sqlite")
        let pool = try ConnectionPool(.create(path: path), readerCount: 2)
        try await pool.write { db in try db.execute("CREATE TABLE t(x INTEGER)") }
        let shell = try ShellProcess(shell: try #require(sqlite3Shell), database: path)
        shell.send("SELECT count(*) FROM t;")
        try shell.sync()
        for value in 1...10 { try await pool.write { db in try db.execute("INSERT INTO t VALUES (?)", [value]) } }
        try await pool.close()
        // The shell still has the database open: SQLite kept the WAL for it.
        #expect(try Self.files(directory).contains("pool.sqlite-wal"))
        shell.send("INSERT INTO t VALUES (11);")
        try shell.sync()
        shell.finish()  // the shell closes last: it checkpoints and deletes the WAL
        #expect(try Self.files(directory) == ["pool.sqlite"])
        #expect(try Self.rowsInCopy(of: path) == 11)
    }

    @Test("a synchronous close of a pool and of a shared connection, from code that is not async")
    func synchronousClose() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("pool.sqlite")
        let pool = try ConnectionPool(.create(path: path), readerCount: 2)
        try pool.writeSynchronously { db in try db.execute("CREATE TABLE t(x INTEGER)") }
        try pool.writeSynchronously { db in try db.execute("INSERT INTO t VALUES (1)") }
        try pool.closeSynchronously()
        try pool.closeSynchronously()
        #expect(try Self.files(directory) == ["pool.sqlite"])
        #expect(try Self.rowsInCopy(of: path) == 1)
        #expect(sqliteError { try pool.readSynchronously { _ in 1 } }?.message.contains("closed") == true)
    }
}
