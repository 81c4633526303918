import Foundation
import SQLiteSwiftly
import Testing

@Suite struct ErrorTests {
    static let secret = "hunter2-top-secret"

    @Test("an SQLite error's description shows kind, message, extended and primary code, and the SQL")
    func sqliteDescription() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE accounts (password TEXT UNIQUE)")
        try db.execute("INSERT INTO accounts VALUES (?)", [Self.secret])
        let sql = "INSERT INTO accounts VALUES (?)"
        let error = try requireSQLiteError { try db.execute(SQL(verbatim: sql), [Self.secret]) }
        #expect(error.kind == .sqlite)
        #expect(error.code == .constraintUnique)
        #expect(error.code.rawValue == 2067)
        #expect(error.code.primary == .constraint)
        #expect(error.sql == sql)
        let text = error.description
        #expect(text.hasPrefix("SQLite error: "))
        #expect(text.contains("UNIQUE constraint failed: accounts.password"))
        #expect(text.contains("[code 2067, primary 19]"))
        #expect(text.contains("in SQL: \(sql)"))
        #expect(!text.contains(Self.secret))
        #expect(!String(reflecting: error).contains(Self.secret))
    }

    @Test(
        "bound values never reach an error, whatever fails",
        arguments: [
            "INSERT INTO accounts (password, pin) VALUES (?, ?)",
            "UPDATE accounts SET pin = ? WHERE password = ?",
        ])
    func noValuesInErrors(sql: String) throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE accounts (password TEXT NOT NULL, pin INTEGER CHECK (pin > 0))")
        try db.execute("INSERT INTO accounts VALUES ('x', 1)")
        let arguments: StatementArguments = sql.hasPrefix("INSERT") ? [Self.secret, -5] : [-5, "x"]
        let failures = [
            try requireSQLiteError { try db.execute(SQL(verbatim: sql), arguments) },
            try requireSQLiteError { try db.prepare(SQL(verbatim: sql)).execute(arguments) },
            try requireSQLiteError { try db.execute(SQL(verbatim: sql), [Self.secret]) },
            try requireSQLiteError { try db.execute(SQL(verbatim: sql), [Self.secret, Self.secret, Self.secret]) },
        ]
        for error in failures {
            #expect(!error.description.contains(Self.secret))
            #expect(!error.message.contains(Self.secret))
            #expect(error.sql == sql)
        }
    }

    @Test("a conversion error while reading does not show the stored value")
    func noStoredValueInReadError() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x)")
        try db.execute("INSERT INTO t VALUES (?)", [Self.secret])
        let error = try requireSQLiteError { try db.fetchValue(Int.self, "SELECT x FROM t") }
        #expect(error.kind == .conversionFailed)
        #expect(!error.description.contains(Self.secret))
        #expect(error.description.contains("column \"x\""))
        #expect(error.description.contains("row 1"))
    }

    @Test("a library error's description shows kind, message and location, and its code is the closest")
    func libraryDescription() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("exists.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let error = try requireSQLiteError { try Connection(creating: path) }
        #expect(error.code == .cannotOpen)
        #expect(error.description.hasPrefix("database already exists: "))
        #expect(error.description.contains("(path '\(path)')"))
        #expect(!error.description.contains("[code"))
    }

    @Test("model errors name the table and column in the description")
    func modelDescription() throws {
        var error = SQLiteError(.conversionFailed, message: "expected INTEGER, found TEXT", sql: "SELECT 1")
        error.table = "planets"
        error.column = "moons"
        error.row = 3
        error.parameter = ":id"
        #expect(
            error.description
                == #"conversion failed: expected INTEGER, found TEXT (table "planets", column "moons", row 3, "#
                + #"parameter :id) in SQL: SELECT 1"#)
        #expect(error.code == .mismatch)
        #expect(!error.isBusy)
    }

    @Test(
        "each wrapper kind has a readable name and a default code",
        arguments: [
            (SQLiteError.Kind.databaseAlreadyExists, ResultCode.cannotOpen),
            (.databaseNotFound, .cannotOpen),
            (.notADatabase, .notADatabase),
            (.parameterMismatch, .range),
            (.modelMismatch, .mismatch),
            (.conversionFailed, .mismatch),
            (.misuse, .misuse),
            (.sqlite, .error),
        ])
    func kinds(kind: SQLiteError.Kind, code: ResultCode) {
        let error = SQLiteError(kind, message: "m")
        #expect(error.code == code)
        #expect(error.description.hasPrefix(kind.rawValue + ": m"))
    }

    @Test("result codes expose their primary code and SQLite's description")
    func resultCodes() {
        #expect(ResultCode.constraintNotNull.primary == .constraint)
        #expect(ResultCode.busy.primary == .busy)
        #expect(ResultCode(rawValue: 12_345).rawValue == 12_345)
        #expect(ResultCode.constraint.description.contains("constraint"))
    }

    @Test("errors compare every field: changing any place makes them differ; a sent copy is equal")
    func valueSemantics() async throws {
        let base = SQLiteError(.conversionFailed, message: "bad", sql: "SELECT 1")
        let copy = await Task { base }.value
        #expect(copy == base)
        #expect(copy.hashValue == base.hashValue)
        let changes: [(String, (inout SQLiteError) -> Void)] = [
            ("kind", { $0.kind = .misuse }), ("code", { $0.code = .constraint }), ("message", { $0.message = "x" }),
            ("sql", { $0.sql = "SELECT 2" }), ("path", { $0.path = "/tmp/x" }), ("table", { $0.table = "t" }),
            ("column", { $0.column = "c" }), ("row", { $0.row = 3 }), ("parameter", { $0.parameter = "?1" }),
            (
                "differences",
                { $0.differences = [SchemaDifference(.missingTable, table: "t", expected: "a", actual: "b")] }
            ),
        ]
        for (field, change) in changes {
            var changed = base
            change(&changed)
            #expect(changed != base, "changing \(field) must make the errors differ")
        }
    }
}
