import Foundation
import Testing

@testable import SQLiteSwiftly

@Suite struct ConnectionTests {
    @Test("an in-memory database works and is private to its connection")
    func inMemoryIsPrivate() throws {
        let first = try Connection.inMemory()
        let second = try Connection.inMemory()
        try first.execute("CREATE TABLE t (x)")
        try first.execute("INSERT INTO t VALUES (1)")
        #expect(try first.fetchValue(Int.self, "SELECT count(*) FROM t") == 1)
        #expect(first.path == nil)
        #expect(first.mode == .inMemory)
        #expect(try second.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master") == 0)
        #expect(throws: SQLiteError.self) { try second.execute("INSERT INTO t VALUES (1)") }
    }

    @Test("a read-only connection reads, and its writes fail with code readOnly")
    func readOnlyRefusesWrites() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("ro.sqlite")
        do {
            let db = try Connection(creating: path)
            try db.execute("CREATE TABLE t (x)")
            try db.execute("INSERT INTO t VALUES (1)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let db = try Connection(opening: path, readOnly: true)
        #expect(db.isReadOnly)
        #expect(db.mode == .openReadOnly(path: path))
        #expect(try db.fetchValue(Int.self, "SELECT x FROM t") == 1)
        for sql in ["INSERT INTO t VALUES (2)", "CREATE TABLE u (y)", "DELETE FROM t"] {
            do throws(SQLiteError) {
                try db.execute(SQL(verbatim: sql))
                Issue.record("\(sql) succeeded on a read-only connection")
            } catch {
                #expect(error.kind == .sqlite)
                #expect(error.code.primary == .readOnly, "\(sql)")
                #expect(error.sql == sql)
            }
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a read-only connection cannot create a table from a model")
    func readOnlyRefusesCreateTable() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("ro.sqlite")
        _ = try Connection(creating: path)
        let db = try Connection(opening: path, readOnly: true)
        do throws(SQLiteError) {
            try db.createTable(for: TestPlanet.self)
            Issue.record("createTable succeeded on a read-only connection")
        } catch {
            #expect(error.code.primary == .readOnly)
        }
    }

    @Test("a read-write connection is not read-only")
    func readWriteIsWritable() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("rw.sqlite")
        _ = try Connection(creating: path)
        let db = try Connection(opening: path)
        #expect(!db.isReadOnly)
        #expect(!(try Connection.inMemory().isReadOnly))
    }

    @Test("the busy timeout is 5 seconds by default, and bounds how long a writer waits for a lock")
    func busyTimeout() throws {
        #expect(ConnectionOptions.default.busyTimeout == .seconds(5))
        #expect(ConnectionOptions.default.queuesWriters)
        let directory = try TemporaryDirectory()
        let path = directory.path("busy.sqlite")
        let holder = try Connection(creating: path)
        // The library's busy handler replaces SQLite's, so SQLite's own setting reads 0.
        #expect(try holder.fetchValue(Int.self, "PRAGMA busy_timeout") == 0)
        try holder.execute("BEGIN IMMEDIATE")
        for milliseconds in [0, 250] {
            let waiter = try Connection(opening: path, options: .init(busyTimeout: .milliseconds(milliseconds)))
            let start = ContinuousClock.now
            let error = try requireSQLiteError { try waiter.execute("BEGIN IMMEDIATE") }
            let waited = ContinuousClock.now - start
            #expect(error.isBusy)
            #expect(waited >= .milliseconds(milliseconds) - .milliseconds(10), "\(milliseconds) ms: \(waited)")
            #expect(waited < .milliseconds(milliseconds) + .seconds(2), "\(milliseconds) ms: \(waited)")
        }
        try holder.execute("ROLLBACK")
    }

    @Test("out-of-range busy timeouts are clamped, never a crash")
    func busyTimeoutClamped() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("clamped.sqlite")
        _ = try Connection(creating: path)
        for timeout: Duration in [.seconds(Int64.max), .seconds(-5), .milliseconds(-1), .zero, .microseconds(2500)] {
            let db = try Connection(opening: path, options: .init(busyTimeout: timeout))
            try db.transaction { try db.execute("CREATE TABLE IF NOT EXISTS t (x)") }
            try db.execute("INSERT INTO t VALUES (1)")
        }
        // A negative timeout waits no more than zero does.
        let holder = try Connection(opening: path)
        try holder.execute("BEGIN IMMEDIATE")
        let negative = try Connection(opening: path, options: .init(busyTimeout: .seconds(-5)))
        let start = ContinuousClock.now
        #expect(throws: SQLiteError.self) { try negative.transaction {} }
        #expect(ContinuousClock.now - start < .seconds(1))
        try holder.execute("ROLLBACK")
    }

    @Test("a second writer waits for the busy timeout, then fails with a busy error")
    func busyWriterFails() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("locked.sqlite")
        let holder = try Connection(creating: path)
        try holder.execute("CREATE TABLE t (x)")
        try holder.execute("BEGIN IMMEDIATE")
        let waiter = try Connection(opening: path, options: .init(busyTimeout: .milliseconds(100)))
        let start = ContinuousClock.now
        do throws(SQLiteError) {
            try waiter.execute("INSERT INTO t VALUES (1)")
            Issue.record("the write succeeded under another connection's lock")
        } catch {
            #expect(error.isBusy)
            #expect(error.code.primary == .busy)
        }
        #expect(ContinuousClock.now - start >= .milliseconds(90))
        try holder.execute("COMMIT")
        try waiter.execute("INSERT INTO t VALUES (1)")
    }

    @Test("row id, changes and transaction state are reported")
    func connectionProperties() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x)")
        #expect(!db.isInTransaction)
        #expect(try db.execute("INSERT INTO t VALUES (1), (2), (3)") == 3)
        #expect(db.changes == 3)
        #expect(db.lastInsertedRowID == 3)
        try db.execute("BEGIN")
        #expect(db.isInTransaction)
        #expect(try db.execute("UPDATE t SET x = x + 1 WHERE x > 1") == 2)
        try db.execute("COMMIT")
        #expect(!db.isInTransaction)
        #expect(db.changes == 2)
        #expect(db.totalChanges == 5)
        #expect(try db.execute("SELECT * FROM t") == 0)
        // Statements that change no rows report 0, not the count of an earlier statement.
        #expect(try db.execute("CREATE TABLE u (y)") == 0)
        #expect(try db.execute("UPDATE t SET x = 0 WHERE x > 100") == 0)
        #expect(try db.prepare("DROP TABLE u").execute() == 0)
    }

    @Test("a double-quoted name that matches no column is an error, not a string literal")
    func noDoubleQuotedStrings() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x)")
        try db.execute("INSERT INTO t VALUES (1)")
        #expect(try db.fetchValue(Int.self, #"SELECT "x" FROM t"#) == 1)
        for sql in [#"SELECT "y" FROM t"#, #"CREATE INDEX i ON t ("y")"#, #"INSERT INTO t VALUES ("text")"#] {
            do throws(SQLiteError) {
                try db.execute(SQL(verbatim: sql))
                Issue.record("\(sql) succeeded")
            } catch {
                #expect(error.message.contains("no such column"), "\(sql)")
            }
        }
        #expect(try db.fetchValue(String.self, "SELECT 'single quotes are text'") == "single quotes are text")
    }

    @Test("the SQLite version is reported")
    func sqliteVersion() throws {
        let reported = try Connection.inMemory().fetchValue(String.self, "SELECT sqlite_version()")
        #expect(Connection.sqliteVersion == reported)
    }

    @Test("a connection closes when its last owner lets go")
    func closesWhenReleased() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("closed.sqlite")
        weak var weakConnection: Connection?
        do {
            let db = try Connection(creating: path)
            weakConnection = db
            try db.execute("CREATE TABLE t (x)")
            for _ in 1...2 { _ = try db.fetchAll(UntypedRow.self, "SELECT * FROM t") }
            #expect(db.cachedStatementCount > 0)
        }
        #expect(weakConnection == nil)
        // With the handle closed, an exclusive lock is free at once.
        let db = try Connection(opening: path, options: .init(busyTimeout: .zero))
        try db.execute("BEGIN EXCLUSIVE")
        try db.execute("COMMIT")
    }

    @Test("public methods can be called in any order: queries after failures, before and after tables exist")
    func anyOrder() throws {
        let db = try Connection.inMemory()
        #expect(throws: SQLiteError.self) { try db.fetchAll(TestNote.self) }
        #expect(throws: SQLiteError.self) { try db.makeInsertStatement(for: TestNote.self) }
        #expect(throws: SQLiteError.self) { try db.fetchAll(UntypedRow.self, "SELECT * FROM missing") }
        db.clearStatementCache()
        #expect(try db.fetchValue(Int.self, "SELECT 1") == 1)
        try db.createTable(for: TestNote.self)
        let insert = try db.makeInsertStatement(for: TestNote.self)
        db.clearStatementCache()
        try insert.insert(TestNote(text: "a"))
        #expect(try db.fetchAll(TestNote.self) == [TestNote(text: "a")])
    }
}
