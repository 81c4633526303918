import Foundation
import Testing

@testable import SQLiteSwiftly

/// A model used against hand-written tables: id INTEGER PK, name TEXT NOT NULL, moons INTEGER NULL.
private struct Body: TableModel, Equatable {
    var id: Int64
    var name: String
    var moons: Int?

    static let tableName = "bodies"
    static let columns = [
        Column("id", Int64.self, primaryKey: true),
        Column("name", String.self),
        Column("moons", Int?.self),
    ]

    init(id: Int64, name: String, moons: Int?) {
        self.id = id
        self.name = name
        self.moons = moons
    }

    static let sample = Body(id: 1, name: "Io", moons: nil)

    init(row: borrowing Row) throws {
        id = try row[0]
        name = try row[1]
        moons = try row[2]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(name)
        try encoder.encode(moons)
    }
}

/// A model with a composite key: (system, name).
private struct Station: TableModel {
    var system: String
    var name: String
    var crew: Int

    static let tableName = "stations"
    static let columns = [
        Column("system", String.self, primaryKey: true),
        Column("name", String.self, primaryKey: true),
        Column("crew", Int.self),
    ]

    init(row: borrowing Row) throws {
        system = try row[0]
        name = try row[1]
        crew = try row[2]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(system)
        try encoder.encode(name)
        try encoder.encode(crew)
    }
}

private func database(_ schema: String) throws -> Connection {
    let db = try Connection.inMemory()
    try db.executeScript(SQL(verbatim: schema))
    return db
}

@Suite struct SchemaVerificationTests {
    @Test("a table created from the model verifies without differences")
    func createdTableMatches() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Body.self)
        try db.createTable(for: Station.self)
        #expect(try db.schemaDifferences(for: Body.self).isEmpty)
        #expect(try db.schemaDifferences(for: Station.self).isEmpty)
        try db.verify(Body.self)
        try db.verify(Station.self)
    }

    @Test("a missing table is one difference, stating expected and actual")
    func missingTable() throws {
        let db = try Connection.inMemory()
        let error = try requireSQLiteError { try db.verify(Body.self) }
        #expect(error.kind == .schemaMismatch)
        #expect(error.code == .mismatch)
        #expect(error.table == "bodies")
        #expect(
            error.differences == [
                SchemaDifference(.missingTable, table: "bodies", expected: "a table with 3 columns", actual: "no table")
            ])
        #expect(error.message.contains("Body does not match table \"bodies\" (1 difference)"))
    }

    @Test("a missing column is reported with its expected declaration")
    func missingColumn() throws {
        let db = try database("CREATE TABLE bodies (id INTEGER PRIMARY KEY NOT NULL, name TEXT NOT NULL)")
        let differences = try db.schemaDifferences(for: Body.self)
        #expect(
            differences == [
                SchemaDifference(
                    .missingColumn, table: "bodies", column: "moons", expected: "INTEGER", actual: "no column")
            ])
    }

    @Test(
        "an extra column breaks inserts only when NOT NULL without default",
        arguments: [
            ("extra TEXT NOT NULL", true), ("extra TEXT NOT NULL DEFAULT 'x'", false), ("extra TEXT", false),
            ("extra INTEGER GENERATED ALWAYS AS (id + 1) NOT NULL", false),
        ])
    func extraColumn(declaration: String, reported: Bool) throws {
        let db = try database(
            "CREATE TABLE bodies (id INTEGER PRIMARY KEY NOT NULL, name TEXT NOT NULL, moons INTEGER, \(declaration))")
        let differences = try db.schemaDifferences(for: Body.self)
        if reported {
            #expect(
                differences == [
                    SchemaDifference(
                        .extraRequiredColumn, table: "bodies", column: "extra", expected: "no column",
                        actual: "TEXT NOT NULL without default")
                ])
        } else {
            #expect(differences.isEmpty)
        }
    }

    @Test(
        "declared types compare by affinity",
        arguments: [
            ("INT", nil), ("BIGINT", nil), ("INTEGER", nil), ("TEXT", "TEXT (TEXT affinity)"),
            ("VARCHAR(20)", "VARCHAR(20) (TEXT affinity)"), ("REAL", "REAL (REAL affinity)"),
            ("", "no declared type (BLOB affinity)"), ("DECIMAL(10,2)", "DECIMAL(10,2) (NUMERIC affinity)"),
        ] as [(String, String?)])
    func declaredType(type: String, actual: String?) throws {
        let db = try database(
            "CREATE TABLE bodies (id INTEGER PRIMARY KEY NOT NULL, name TEXT NOT NULL, moons \(type))")
        let differences = try db.schemaDifferences(for: Body.self)
        if let actual {
            #expect(
                differences == [
                    SchemaDifference(
                        .declaredType, table: "bodies", column: "moons", expected: "INTEGER (INTEGER affinity)",
                        actual: actual)
                ])
        } else {
            #expect(differences.isEmpty)
        }
    }

    @Test(
        "SQLite's affinity rules apply in order",
        arguments: [
            ("INTEGER", "INTEGER"), ("tinyint", "INTEGER"), ("POINT", "INTEGER"), ("CHARINT", "INTEGER"),
            ("NCHAR(5)", "TEXT"), ("CLOB", "TEXT"), ("BLOB", "BLOB"), ("", "BLOB"), ("DOUBLE PRECISION", "REAL"),
            ("FLOAT", "REAL"), ("NUMERIC", "NUMERIC"), ("BOOLEAN", "NUMERIC"), ("DATETIME", "NUMERIC"),
        ])
    func affinityRules(declared: String, affinity: String) {
        #expect(DeclaredType(rawValue: declared).affinity.rawValue == affinity)
    }

    @Test("nullability differences are reported both ways")
    func nullability() throws {
        let db = try database(
            "CREATE TABLE bodies (id INTEGER PRIMARY KEY NOT NULL, name TEXT, moons INTEGER NOT NULL)")
        let differences = try db.schemaDifferences(for: Body.self)
        #expect(
            differences == [
                SchemaDifference(
                    .nullability, table: "bodies", column: "name", expected: "NOT NULL", actual: "NULL allowed"),
                SchemaDifference(
                    .nullability, table: "bodies", column: "moons", expected: "NULL allowed", actual: "NOT NULL"),
            ])
    }

    @Test("an INTEGER PRIMARY KEY matches optional and non-optional ids: it is never NULL")
    func rowIDAlias() throws {
        let db = try database("CREATE TABLE bodies (id INTEGER PRIMARY KEY, name TEXT NOT NULL, moons INTEGER)")
        #expect(try db.schemaDifferences(for: Body.self).isEmpty)
    }

    @Test("an INT PRIMARY KEY is not an alias of the row id, and is reported")
    func intPrimaryKeyIsNotRowID() throws {
        let db = try database("CREATE TABLE bodies (id INT PRIMARY KEY NOT NULL, name TEXT NOT NULL, moons INTEGER)")
        let differences = try db.schemaDifferences(for: Body.self)
        #expect(differences.map(\.kind) == [.declaredType])
        #expect(differences.first?.expected == "INTEGER PRIMARY KEY (an alias of the row id)")
    }

    @Test("primary key differences: missing key, and composite key order")
    func primaryKey() throws {
        let db = try database(
            """
            CREATE TABLE bodies (id INTEGER NOT NULL, name TEXT NOT NULL, moons INTEGER);
            CREATE TABLE stations (system TEXT NOT NULL, name TEXT NOT NULL, crew INTEGER NOT NULL,
                PRIMARY KEY (name, system));
            """)
        #expect(
            try db.schemaDifferences(for: Body.self) == [
                SchemaDifference(
                    .primaryKey, table: "bodies", column: "id", expected: "primary key column 1 of 1",
                    actual: "not in the primary key")
            ])
        #expect(
            try db.schemaDifferences(for: Station.self) == [
                SchemaDifference(
                    .primaryKey, table: "stations", column: "system", expected: "primary key column 1 of 2",
                    actual: "primary key column 2 of 2"),
                SchemaDifference(
                    .primaryKey, table: "stations", column: "name", expected: "primary key column 2 of 2",
                    actual: "primary key column 1 of 2"),
            ])
    }

    @Test("several differences come in one error, each listed and summarized in the message")
    func severalAtOnce() throws {
        let db = try database("CREATE TABLE bodies (id TEXT, moons INTEGER NOT NULL, mass REAL NOT NULL)")
        let error = try requireSQLiteError { try db.verify(Body.self) }
        #expect(
            error.differences.map(\.kind) == [
                .declaredType, .primaryKey, .nullability, .missingColumn, .nullability, .extraRequiredColumn,
            ])
        #expect(error.message.contains("(6 differences)"))
        for difference in error.differences { #expect(error.message.contains(difference.description)) }
        #expect(String(describing: error).contains("schema mismatch"))
    }

    @Test("column names compare ignoring ASCII case")
    func caseInsensitiveNames() throws {
        let db = try database(
            "CREATE TABLE bodies (ID INTEGER PRIMARY KEY NOT NULL, Name TEXT NOT NULL, MOONS INTEGER)")
        #expect(try db.schemaDifferences(for: Body.self).isEmpty)
    }

    @Test("making model statements on a drifted table fails with the schema error, not an SQLite message")
    func statementsVerify() throws {
        let db = try database("CREATE TABLE bodies (id INTEGER PRIMARY KEY NOT NULL, name TEXT NOT NULL)")
        let insert = try requireSQLiteError { _ = try db.makeInsertStatement(for: Body.self) }
        #expect(insert.kind == .schemaMismatch)
        #expect(insert.differences.map(\.column) == ["moons"])
        for write in [{ _ = try db.update(Body.sample) }, { _ = try db.delete(Body.sample) }] {
            #expect(try requireSQLiteError(write).kind == .schemaMismatch)
        }
        let read = try requireSQLiteError { _ = try db.fetchAll(Body.self) }
        #expect(read.kind == .schemaMismatch)
        let missing = try requireSQLiteError { _ = try Connection.inMemory().makeInsertStatement(for: Body.self) }
        #expect(missing.differences.map(\.kind) == [.missingTable])
    }

    @Test("readAll notices a schema that drifted after an earlier, successful read")
    func readAllNoticesDrift() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Body.self)
        try db.makeInsertStatement(for: Body.self).insert(Body(id: 1, name: "Mars", moons: 2))
        #expect(try db.fetchAll(Body.self) == [Body(id: 1, name: "Mars", moons: 2)])
        try db.execute("ALTER TABLE bodies DROP COLUMN moons")
        let error = try requireSQLiteError { _ = try db.fetchAll(Body.self) }
        #expect(error.kind == .schemaMismatch)
        #expect(error.differences.map(\.kind) == [.missingColumn])
        let readOne = try requireSQLiteError { _ = try db.fetchOne(Body.self, where: "id = ?", [1]) }
        #expect(readOne.kind == .schemaMismatch)
    }

    /// Rebuilds `bodies` with `name` declared INTEGER, keeping its rows: a change of type affinity.
    static let nameBecomesInteger = [
        "CREATE TABLE bodies2 (id INTEGER PRIMARY KEY NOT NULL, name INTEGER NOT NULL, moons INTEGER)",
        "INSERT INTO bodies2 SELECT * FROM bodies", "DROP TABLE bodies",
        "/* renamed */ alter TABLE bodies2 RENAME TO bodies",
    ]

    @Test("held and cached model writes notice a schema change before they store values for it")
    func writesNoticeDrift() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Body.self)
        let insert = try db.makeInsertStatement(for: Body.self)
        try insert.insert(Body(id: 1, name: "001", moons: 1))
        #expect(try db.update(Body(id: 1, name: "001", moons: 2)))
        // `name` becomes INTEGER: "007" would be stored as 7 by a statement that re-prepares at its step.
        try db.executeScript(SQL(verbatim: Self.nameBecomesInteger.joined(separator: ";\n")))
        let inserted = try requireSQLiteError { try insert.insert(Body(id: 2, name: "007", moons: nil)) }
        #expect(inserted.kind == .schemaMismatch)
        #expect(inserted.differences.map(\.kind) == [.declaredType])
        let updated = try requireSQLiteError { _ = try db.update(Body(id: 1, name: "0042", moons: 2)) }
        #expect(updated.kind == .schemaMismatch)
        let skipped = try requireSQLiteError { _ = try insert.insertIfNew(Body(id: 3, name: "3", moons: nil)) }
        #expect(skipped.kind == .schemaMismatch)
        #expect(
            try db.fetchAll(UntypedRow.self, "SELECT id, name FROM bodies").map(\.values) == [
                [.integer(1), .integer(1)]
            ])
    }

    @Test("a schema change inside the transaction of the writes is noticed too, by statement or by script")
    func writesNoticeDriftInTheirTransaction() throws {
        for byScript in [false, true] {
            let db = try Connection.inMemory()
            try db.createTable(for: Body.self)
            let insert = try db.makeInsertStatement(for: Body.self)
            let rebuild = Self.nameBecomesInteger
            let error = try requireSQLiteError {
                try db.transaction {
                    try insert.insert(Body(id: 1, name: "001", moons: nil))
                    if byScript {
                        try db.executeScript(SQL(verbatim: rebuild.joined(separator: ";\n")))
                    } else {
                        for statement in rebuild { try db.execute(SQL(verbatim: statement)) }
                    }
                    try insert.insert(Body(id: 2, name: "007", moons: nil))
                }
            }
            #expect(error.kind == .schemaMismatch)
            #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM bodies") == 0)
        }
        #expect(" -- note\n  CREATE TABLE t (a)".leadingKeyword == .schema)
        #expect("drop table t".leadingKeyword == .schema && "/* x */Alter table t add b".leadingKeyword == .schema)
        #expect("INSERT INTO t VALUES (1)".leadingKeyword == .other && "SELECT 'CREATE'".leadingKeyword == .other)
        #expect(["CREATED", "", "/* unterminated"].allSatisfy { $0.leadingKeyword == .other })
        // The first keyword also finds commits, after blanks and comments, in any case; other words are other.
        let commits = ["COMMIT", "commit transaction", "\t-- done\nEnd", "/* x */END TRANSACTION;"]
        #expect(commits.allSatisfy { $0.leadingKeyword == .commit })
        // ROLLBACK too (eight letters, the longest keyword), and ROLLBACK TO a savepoint; longer words are other.
        let rollbacks = ["ROLLBACK", "rollback transaction", "  /* undo */ Rollback TO sp", "ROLLBACK;"]
        #expect(rollbacks.allSatisfy { $0.leadingKeyword == .rollback })
        let others = [
            "SELECT 1", "BEGIN", "EXPLAIN SELECT 1", "ENDING", "COMMITTED", "analyze", "delete from t", "ätsch",
            "ROLLBACKS", "ROLLBAC", "RELEASE sp", "REPLACE INTO t VALUES (1)", "rollbacked",
        ]
        #expect(others.allSatisfy { $0.leadingKeyword == .other })
        #expect(
            ["CREATE INDEX i ON t (a)", "Alter TABLE t ADD b", "drop VIEW v"].allSatisfy {
                $0.leadingKeyword == .schema
            })
    }

    @Test("a held insert statement notices another connection's schema change in its transaction")
    func writesNoticeOtherConnectionDrift() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("writes.sqlite")
        let db = try Connection(creating: path)
        try db.createTable(for: Body.self)
        let insert = try db.makeInsertStatement(for: Body.self)
        try db.transaction { try insert.insert(Body(id: 1, name: "001", moons: nil)) }
        let other = try Connection(opening: path)
        try other.executeScript(SQL(verbatim: Self.nameBecomesInteger.joined(separator: ";\n")))
        let error = try requireSQLiteError {
            try db.transaction { try insert.insert(Body(id: 2, name: "007", moons: nil)) }
        }
        #expect(error.kind == .schemaMismatch)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM bodies") == 1)
    }

    @Test("a change made by another connection is noticed through the schema version")
    func otherConnectionDrift() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("drift.sqlite")
        let db = try Connection(creating: path)
        try db.createTable(for: Body.self)
        #expect(try db.fetchAll(Body.self).isEmpty)
        let other = try Connection(opening: path)
        try other.execute("ALTER TABLE bodies ADD COLUMN mass REAL NOT NULL DEFAULT 0")
        #expect(try db.fetchAll(Body.self).isEmpty)  // a default makes the extra column harmless
        try other.executeScript(
            """
            CREATE TABLE bodies2 (id INTEGER PRIMARY KEY NOT NULL, name INTEGER NOT NULL, moons INTEGER);
            DROP TABLE bodies; ALTER TABLE bodies2 RENAME TO bodies;
            """)
        let error = try requireSQLiteError { _ = try db.fetchAll(Body.self) }
        #expect(error.differences.map(\.kind) == [.declaredType])
    }

    @Test("the check runs once per schema version: repeated reads do not query the schema again")
    func verifiesOncePerSchemaVersion() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Body.self)
        var schemaReads = 0
        db.trace { event in if event.sql.contains("table_xinfo") { schemaReads += 1 } }
        _ = try db.fetchAll(Body.self)
        let firstCheck = schemaReads
        #expect(firstCheck > 0)
        for _ in 0..<5 { _ = try db.fetchAll(Body.self) }
        _ = try db.makeInsertStatement(for: Body.self)
        #expect(schemaReads == firstCheck)
        try db.execute("CREATE TABLE unrelated (x)")
        _ = try db.fetchAll(Body.self)
        #expect(schemaReads == 2 * firstCheck)
        db.trace(nil)
    }

    @Test("the schema-version statement stays out of the statement cache")
    func cacheUntouched() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Body.self)
        db.clearStatementCache()
        _ = try db.fetchAll(Body.self)
        #expect(db.cachedStatementCount == 1)
    }

    @Test("SchemaDifference describes table, column, expected and actual")
    func differenceDescription() {
        let difference = SchemaDifference(
            .nullability, table: "t", column: "c", expected: "NOT NULL", actual: "NULL allowed")
        #expect(difference.description == "nullability at \"t\".\"c\": expected NOT NULL, found NULL allowed")
    }
}
