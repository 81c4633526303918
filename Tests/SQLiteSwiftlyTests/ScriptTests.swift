import SQLiteSwiftly
import Testing

@Suite struct ScriptTests {
    @Test("a script runs several statements in order, with comments and blank statements")
    func runsAll() throws {
        let db = try Connection.inMemory()
        try db.executeScript(
            """
            -- schema
            CREATE TABLE a (x);;
            CREATE TABLE b (y); /* a comment; with a semicolon */
            INSERT INTO a VALUES ('semi;colon'), (2);
            SELECT * FROM a;
            INSERT INTO b SELECT x FROM a;
            -- trailing comment
            """)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM b") == 2)
        #expect(try db.fetchValue(String.self, "SELECT x FROM a WHERE rowid = 1") == "semi;colon")
    }

    @Test("an empty or comment-only script does nothing")
    func emptyScript() throws {
        let db = try Connection.inMemory()
        try db.executeScript("")
        try db.executeScript("  -- nothing\n /* at all */ ;")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master") == 0)
    }

    @Test("a failing statement is reported by position and text; statements before it stay applied")
    func runtimeFailure() throws {
        let db = try Connection.inMemory()
        let script = """
            CREATE TABLE a (x UNIQUE);
            INSERT INTO a VALUES (1);
            INSERT INTO a VALUES (1);
            INSERT INTO a VALUES (3);
            """
        let error = try #require(throws: SQLiteError.self) { try db.executeScript(SQL(verbatim: script)) }
        #expect(error.code.primary == .constraint)
        #expect(error.message.hasPrefix("statement 3 of the script failed"))
        #expect(error.sql == "INSERT INTO a VALUES (1)")
        #expect(try db.fetchAll(UntypedRow.self, "SELECT x FROM a").map(\.values) == [[.integer(1)]])
    }

    @Test("a syntax error is reported by position and text; statements before it stay applied")
    func syntaxFailure() throws {
        let db = try Connection.inMemory()
        let script =
            "CREATE TABLE a (x); INSERT INTO a VALUES (1);\nINSERT INTO a VALUES (2;\nINSERT INTO a VALUES (3);"
        let error = try #require(throws: SQLiteError.self) { try db.executeScript(SQL(verbatim: script)) }
        #expect(error.kind == .sqlite)
        #expect(error.message.hasPrefix("statement 3 of the script failed"))
        #expect(error.sql == "INSERT INTO a VALUES (2")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM a") == 1)
    }

    @Test("a statement with parameters is refused when its turn comes: a script binds nothing")
    func parameters() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE a (x)")
        for statement in ["INSERT INTO a VALUES (?)", "INSERT INTO a VALUES (:name)", "INSERT INTO a VALUES (?3)"] {
            let error = try requireSQLiteError {
                try db.executeScript(SQL(verbatim: "INSERT INTO a VALUES (1);\n\(statement); INSERT INTO a VALUES (2)"))
            }
            #expect(error.kind == .parameterMismatch)
            #expect(error.sql == statement)
            #expect(error.message.contains("statement 2 of the script failed"))
        }
        // Statement 1 ran each time; nothing ran with NULL bound, and nothing after the refused statement.
        #expect(try db.fetchValue(String.self, "SELECT group_concat(x) FROM a") == "1,1,1")
    }

    @Test("a script inside a transaction is all or nothing")
    func scriptInTransaction() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE a (x UNIQUE)")
        #expect(throws: SQLiteError.self) {
            try db.transaction {
                try db.executeScript("INSERT INTO a VALUES (1); INSERT INTO a VALUES (2); INSERT INTO a VALUES (1);")
            }
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM a") == 0)
    }
}
