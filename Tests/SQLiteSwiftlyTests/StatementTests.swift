import Foundation
import Testing

@testable import SQLiteSwiftly

/// A connection with an empty `test_planets` table.
@Suite struct StatementTests {
    // MARK: - Compiling

    @Test("prepare refuses SQL that holds no statement", arguments: ["", "   ", "\n\t", ";", "-- only a comment"])
    func refusesEmptySQL(sql: String) throws {
        let db = try Connection.inMemory()
        let error = try #require(sqliteError { try db.prepare(SQL(verbatim: sql)) })
        #expect(error.kind == .misuse)
        #expect(error.sql == sql)
    }

    @Test(
        "prepare refuses SQL holding two statements instead of truncating it",
        arguments: [
            "SELECT 1; SELECT 2", "SELECT 1;SELECT 2;", "CREATE TABLE a (x); DROP TABLE a", "SELECT 1; -- c\n SELECT 2",
        ])
    func refusesTwoStatements(sql: String) throws {
        let db = try Connection.inMemory()
        let error = try #require(sqliteError { try db.prepare(SQL(verbatim: sql)) })
        #expect(error.kind == .misuse)
        #expect(error.message.contains("more than one statement"))
        #expect(error.sql == sql)
        #expect(sqliteError { try db.execute(SQL(verbatim: sql)) }?.kind == .misuse)
        #expect(sqliteError { try db.fetchAll(UntypedRow.self, SQL(verbatim: sql)) }?.kind == .misuse)
    }

    @Test(
        "a statement followed only by blanks and semicolons compiles",
        arguments: ["SELECT 7;", "SELECT 7 ;; ", "SELECT 7\t\n\r\u{0C};\n", "SELECT 7; -- done"])
    func trailingBlanks(sql: String) throws {
        let db = try Connection.inMemory()
        #expect(try db.prepare(SQL(verbatim: sql)).fetchValue(Int.self) == 7)
        #expect(try db.fetchValue(Int.self, SQL(verbatim: sql)) == 7)
    }

    @Test("SQL with a NUL character after the first statement is refused, not cut at the NUL")
    func embeddedNul() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x)")
        for sql in ["SELECT 1;\0DROP TABLE t", "SELECT 1\0DROP TABLE t", "SELECT 1;\0"] {
            #expect(sqliteError { try db.prepare(SQL(verbatim: sql)) } != nil, "\(sql.debugDescription)")
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 0)
    }

    @Test("execute does not run the first of two statements")
    func twoStatementsRunNothing() throws {
        let db = try Connection.inMemory()
        #expect(sqliteError { try db.execute("CREATE TABLE a (x); CREATE TABLE b (y)") }?.kind == .misuse)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master") == 0)
    }

    @Test(
        "prepare accepts a trailing semicolon, whitespace and comments",
        arguments: [
            "SELECT 1;", "SELECT 1 ;  \n", "SELECT 1; -- done", "SELECT 1; /* done */", "SELECT 1 /* c */;;",
            "  SELECT 1\n", "SELECT 1; -- one\n-- two\n",
        ])
    func acceptsTrailingNoise(sql: String) throws {
        let db = try Connection.inMemory()
        let statement = try db.prepare(SQL(verbatim: sql))
        #expect(try statement.fetchAll(UntypedRow.self).map(\.values) == [[.integer(1)]])
        #expect(statement.sql == sql)
    }

    @Test("an SQL syntax error is an SQLite error carrying the SQL")
    func syntaxError() throws {
        let db = try Connection.inMemory()
        let error = try #require(sqliteError { try db.prepare("SELEKT 1") })
        #expect(error.kind == .sqlite)
        #expect(error.code == .error)
        #expect(error.sql == "SELEKT 1")
        #expect(error.message.contains("syntax error"))
    }

    @Test("a statement reports its parameters and columns")
    func introspection() throws {
        let db = try planetsDatabase(filled: false)
        let statement = try db.prepare("SELECT id, name FROM test_planets WHERE id = :id AND name = ?")
        #expect(statement.parameterCount == 2)
        #expect(statement.parameterNames == [":id", nil])
        #expect(statement.columnNames == ["id", "name"])
        #expect(statement.isReadOnly)
        #expect(try !db.prepare("DELETE FROM test_planets").isReadOnly)
    }

    // MARK: - The row type's columns are found before any step

    @Test("a model column the statement does not return is refused before any step, naming it")
    func modelColumnMissing() throws {
        let db = try planetsDatabase(filled: false)
        try db.execute("CREATE TABLE log (x)")
        let statement = try db.prepare("INSERT INTO log VALUES (1) RETURNING x")
        let error = try #require(sqliteError { try statement.fetchAll(TestPlanet.self) })
        #expect(error.kind == .modelMismatch)
        #expect(error.code == .mismatch)
        #expect(error.message.contains("TestPlanet"))
        #expect(error.column == "id")
        #expect(error.sql == "INSERT INTO log VALUES (1) RETURNING x")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM log") == 0)  // refused before it ran
    }

    @Test("a model reads its columns by name: in any order, with other columns besides")
    func modelColumnsByName() throws {
        let db = try planetsDatabase(filled: false)
        let insert = try db.makeInsertStatement(for: TestPlanet.self)
        try insert.insert(TestPlanet.inner[0])
        let reordered = try db.fetchAll(TestPlanet.self, "SELECT moons, 5 AS five, au, name, id FROM test_planets")
        #expect(reordered == [TestPlanet.inner[0]])
        let extra = try db.prepare("SELECT id, name, au, moons, 5 FROM test_planets")
        #expect(try extra.fetchAll(TestPlanet.self) == [TestPlanet.inner[0]])
        let statement = try db.prepare("SELECT id, name, au, moons AS satellites FROM test_planets")
        let error = try #require(sqliteError { try statement.fetchAll(TestPlanet.self) })
        #expect(error.kind == .modelMismatch)
        #expect(error.column == "moons")
        #expect(error.message.contains("satellites"))
        // Names are compared ignoring ASCII case, and the same statement still decodes other row types.
        let upper = try db.fetchAll(TestPlanet.self, "SELECT ID, Name, AU, MOONS FROM test_planets")
        #expect(upper == [TestPlanet.inner[0]])
        #expect(try statement.fetchAll(UntypedRow.self).first?.columnNames == ["id", "name", "au", "satellites"])
    }

    // MARK: - State machine

    @Test("after a constraint failure the same statement runs again")
    func reusableAfterConstraintFailure() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x UNIQUE)")
        let insert = try db.prepare("INSERT INTO t VALUES (?)")
        try insert.execute([1])
        let error = try #require(sqliteError { try insert.execute([1]) })
        #expect(error.code == .constraintUnique)
        #expect(try insert.execute([2]) == 1)
        #expect(try db.fetchAll(UntypedRow.self, "SELECT x FROM t ORDER BY x").map(\.values) == [[1], [2]])
    }

    @Test("after bad arguments the same statement runs again, with no stale bindings")
    func reusableAfterBadArguments() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (a, b)")
        let insert = try db.prepare("INSERT INTO t VALUES (:a, :b)")
        #expect(sqliteError { try insert.execute(["a": "secret", "z": 1]) }?.kind == .parameterMismatch)
        #expect(sqliteError { try insert.execute(["a": Double.nan, "b": 1]) }?.kind == .conversionFailed)
        try insert.execute(["a": 1, "b": 2])
        #expect(try db.fetchAll(UntypedRow.self, "SELECT a, b FROM t").map(\.values) == [[1, 2]])
    }

    @Test("after a decoding failure mid-way the statement restarts from the first row")
    func reusableAfterDecodingFailure() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x)")
        try db.execute("INSERT INTO t VALUES (1), ('two'), (3)")
        let select = try db.prepare("SELECT x FROM t ORDER BY rowid")
        let error = try #require(sqliteError { try select.fetchAll(TestIntRow.self) })
        #expect(error.kind == .conversionFailed)
        #expect(error.row == 2)
        #expect(try select.fetchAll(UntypedRow.self).count == 3)
        #expect(try select.fetchOne(UntypedRow.self)?.values == [1])
        #expect(try select.fetchOne(UntypedRow.self)?.values == [1])
    }

    @Test("fetchOne stops early and leaves the statement ready; changes are counted by execute")
    func fetchOneThenExecute() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x)")
        let insert = try db.prepare("INSERT INTO t VALUES (?)")
        for value in 1...3 { #expect(try insert.execute([value]) == 1) }
        let select = try db.prepare("SELECT x FROM t WHERE x >= ? ORDER BY x")
        #expect(try select.fetchOne(UntypedRow.self, [2])?.values == [2])
        #expect(try select.fetchAll(UntypedRow.self, [1]).count == 3)
        #expect(try select.fetchOne(UntypedRow.self, [9]) == nil)
    }

    @Test("a statement keeps its connection alive after the caller drops the connection")
    func keepsConnectionAlive() throws {
        let directory = try TemporaryDirectory()
        weak var weakConnection: Connection?
        var statement: Statement?
        do {
            let db = try Connection(creating: directory.path("alive.sqlite"))
            weakConnection = db
            try db.execute("CREATE TABLE t (x)")
            try db.execute("INSERT INTO t VALUES ('still here')")
            statement = try db.prepare("SELECT x FROM t")
        }
        #expect(weakConnection != nil)
        let rows = try #require(statement).fetchAll(UntypedRow.self)
        #expect(rows.first?.values == [.text("still here")])
        statement = nil
        #expect(weakConnection == nil)
    }

    @Test("insert statements keep their connection alive too")
    func insertKeepsConnectionAlive() throws {
        func makeInsert() throws -> InsertStatement<TestNote> {
            let db = try Connection.inMemory()
            try db.createTable(for: TestNote.self)
            return try db.makeInsertStatement(for: TestNote.self)
        }
        let insert = try makeInsert()
        #expect(try insert.insert(TestNote(text: "a")) == 1)
        #expect(try insert.insert(TestNote(text: "b")) == 2)
    }
}

/// One INTEGER column named `x`.
private struct TestIntRow: RowDecodable {
    var x: Int
    static let expectedColumnNames: [String]? = ["x"]
    init(row: borrowing Row) throws {
        x = try row[0]
    }
}
