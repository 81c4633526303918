import Foundation
import SQLiteSwiftly
import Testing

/// A table with a text key and a user column named `rowid`, which hides SQLite's own `rowid` name.
private struct Tagged: TableModel {
    var code: String
    var rowid: Int
    var note: String
    static let tableName = "tagged"
    static let columns = [
        Column("code", String.self, primaryKey: true), Column("rowid", Int.self), Column("note", String.self),
    ]
    init(code: String, rowid: Int, note: String) {
        self.code = code
        self.rowid = rowid
        self.note = note
    }
    init(row: borrowing Row) throws {
        code = try row[0]
        rowid = try row[1]
        note = try row[2]
    }
    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(code)
        try encoder.encode(rowid)
        try encoder.encode(note)
    }
}

/// A model whose declaration SQLite cannot create: the names and the default come from the test.
private struct Declared: TableModel {
    @TaskLocal static var table = "declared"
    @TaskLocal static var declaredColumns = [Column("x", .real)]
    static var tableName: String { table }
    static var columns: [Column] { declaredColumns }
    init(row: borrowing Row) throws {}
    func encode(to encoder: inout RowEncoder) throws {}
}

/// Regression tests for the fault campaign of issue 15: each shows a wrong value or a crash that is now an error
/// or the right answer.
@Suite struct ReliabilityTests {
    @Test("empty text reads as an empty string, also converted from UTF-16; an empty blob as no bytes")
    func emptyValues() throws {
        for encoding in ["UTF-8", "UTF-16le"] {
            let db = try Connection.inMemory()
            try db.execute(SQL(verbatim: "PRAGMA encoding = '\(encoding)'"))
            try db.execute("CREATE TABLE t (x)")
            try db.execute("INSERT INTO t VALUES ('')")
            #expect(try db.fetchValue(String.self, "SELECT x FROM t") == "")
            #expect(try db.fetchValue([UInt8].self, "SELECT x FROM t") == [])
            #expect(try db.fetchValue(String.self, "SELECT CAST(x'' AS TEXT)") == "")
            #expect(try db.fetchValue([UInt8].self, "SELECT x''") == [])
            #expect(try db.fetchValue([UInt8].self, "SELECT zeroblob(0)") == [])
            #expect(try db.fetchValue([UInt8].self, "SELECT zeroblob(3)") == [0, 0, 0])
        }
    }

    @Test("a NUL inside a script is refused before anything runs, not a silent end of the script")
    func nulInScript() throws {
        let db = try Connection.inMemory()
        let error = try requireSQLiteError {
            try db.executeScript("CREATE TABLE a (x);\0CREATE TABLE b (x);")
        }
        #expect(error.kind == .misuse && error.message.contains("NUL"))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master") == 0)
    }

    @Test("a NUL inside a path is refused; no file is created or opened at the path before the NUL")
    func nulInPath() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let creating = try requireSQLiteError { try Connection(creating: path + "\0.other") }
        #expect(creating.kind == .misuse && creating.message.contains("NUL"))
        #expect(!FileManager.default.fileExists(atPath: path))
        _ = try Connection(creating: path)
        let opening = try requireSQLiteError { try Connection(opening: path + "\0.other") }
        #expect(opening.kind == .misuse)
        let readOnly = try requireSQLiteError { try Connection(opening: path + "\0", readOnly: true) }
        #expect(readOnly.kind == .misuse)
    }

    @Test("a transaction body that runs COMMIT (or END) is refused before the commit: nothing of the body is kept")
    func bodyCommits() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x)")
        for commit in ["COMMIT", " /* now */ end transaction", "Commit"] {
            let error = try requireSQLiteError {
                try db.transaction {
                    try db.execute("INSERT INTO t VALUES (1)")
                    try db.execute(SQL(verbatim: commit))
                }
            }
            #expect(error.kind == .misuse && error.message.contains("COMMIT inside a transaction body"))
            #expect(error.sql == commit)
            #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 0)
            #expect(!db.isInTransaction)
        }
        // Through a prepared statement, and a script.
        let prepared = try db.prepare("COMMIT")
        let viaStatement = try requireSQLiteError {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (2)")
                try prepared.execute()
            }
        }
        #expect(viaStatement.kind == .misuse)
        let viaScript = try requireSQLiteError {
            try db.transaction { try db.executeScript("INSERT INTO t VALUES (3); COMMIT; INSERT INTO t VALUES (4);") }
        }
        #expect(viaScript.kind == .misuse && viaScript.message.contains("statement 2 of the script"))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 0)
        // A body that catches the refusal goes on, and commits on return as usual.
        try db.transaction {
            try db.execute("INSERT INTO t VALUES (5)")
            #expect(throws: SQLiteError.self) { try db.execute("COMMIT") }
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 1)
        // Outside a transaction body, COMMIT is the user's own: allowed.
        try db.execute("BEGIN")
        try db.execute("INSERT INTO t VALUES (6)")
        try db.execute("COMMIT")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 2)
        // With no transaction open, the same statement gets SQLite's own error, not the library's refusal.
        let noTransaction = try requireSQLiteError { try prepared.execute() }
        #expect(!noTransaction.message.contains("transaction body"))
    }

    @Test("an upsert on a table with a column named rowid returns the real row id, not the column's value")
    func upsertWithRowidColumn() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Tagged.self)
        try db.execute("INSERT INTO tagged VALUES ('first', 500, 'filler')")
        let upsert = try db.makeInsertStatement(for: Tagged.self, onConflict: .update)
        let inserted = try upsert.insert(Tagged(code: "a", rowid: 999, note: "x"))
        let updated = try upsert.insert(Tagged(code: "a", rowid: 998, note: "y"))
        let real = try db.fetchValue(Int64.self, "SELECT _rowid_ FROM tagged WHERE code = 'a'")
        #expect(inserted == 2 && real == 2)
        #expect(updated == 2)
        #expect(try db.fetchValue(String.self, "SELECT note FROM tagged WHERE code = 'a'") == "y")
    }

    @Test("a NaN default, an empty table name and an empty column name are refused, not created")
    func undeclarableModels() throws {
        let db = try Connection.inMemory()
        let nan = try Declared.$declaredColumns.withValue([Column("x", .real, default: .real(.nan))]) {
            try requireSQLiteError { try db.createTable(for: Declared.self) }
        }
        #expect(nan.kind == .misuse && nan.message.contains("NaN"))
        let emptyTable = try Declared.$table.withValue("") {
            try requireSQLiteError { try db.createTable(for: Declared.self) }
        }
        #expect(emptyTable.kind == .misuse && emptyTable.message.contains("empty table name"))
        let emptyColumn = try Declared.$declaredColumns.withValue([Column("", .real)]) {
            try requireSQLiteError { try db.createTable(for: Declared.self) }
        }
        #expect(emptyColumn.kind == .misuse && emptyColumn.message.contains("empty name"))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master") == 0)
    }

    @Test("a trace hook that runs SQL on its own connection does not recurse; its statements run")
    func traceHookRunsSQL() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x)")
        try db.execute("CREATE TABLE log (sql TEXT)")
        var traced: [String] = []
        db.trace { event in
            traced.append(event.sql)
            _ = try? db.execute("INSERT INTO log VALUES (?)", [event.sql])
        }
        try db.execute("INSERT INTO t VALUES (1)")
        try db.execute("INSERT INTO t VALUES (2)")
        db.trace(nil)
        #expect(traced == ["INSERT INTO t VALUES (1)", "INSERT INTO t VALUES (2)"])
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM log") == 2)
    }

    @Test("a SharedConnection read body that turns query_only off and writes: rolled back, and the read throws")
    func readBodyCannotWrite() async throws {
        let shared = try SharedConnection(.inMemory)
        try await shared.write { db in try db.execute("CREATE TABLE t (x)") }
        await #expect(throws: SQLiteError.self) {
            try await shared.read { db in
                try db.execute("PRAGMA query_only = OFF")
                try db.execute("INSERT INTO t VALUES (1)")
            }
        }
        let count = try await shared.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM t") }
        #expect(count == 0)
    }

    @Test("UntypedRow with fewer or more values than names throws instead of trapping on a subscript")
    func untypedRowCounts() throws {
        let fewer = try requireSQLiteError { try UntypedRow(columnNames: ["a", "b"], values: [.integer(1)]) }
        #expect(fewer.kind == .misuse && fewer.message.contains("2 names, 1 values"))
        let more = try requireSQLiteError { try UntypedRow(columnNames: ["a"], values: [.integer(1), .integer(2)]) }
        #expect(more.kind == .misuse)
        let row = try UntypedRow(columnNames: ["a", "b"], values: [.integer(1), .null])
        #expect(row.values.count == 2)
    }
}
