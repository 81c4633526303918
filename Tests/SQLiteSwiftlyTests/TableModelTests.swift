import Foundation
import Testing

@testable import SQLiteSwiftly

/// A model whose names need quoting and whose columns use every constraint the generator knows.
private struct QuirkyRow: TableModel {
    var id: Int
    var name: String
    var data: Data?
    var ratio: Double
    var count: Int
    var owner: Int?
    var kind: Double?

    static let tableName = #"odd "table""#
    static let columns = [
        Column("id", .integer, primaryKey: true, autoIncrement: true),
        Column(#"na"me"#, .text, unique: true, default: .text(#"it's "x""#)),
        Column("data", .blob, nullable: true, default: .blob([0x00, 0xAB, 0xFF])),
        Column("ratio", .real, default: .real(1.5)),
        Column("count", .integer, default: .integer(-3)),
        Column("owner", .integer, nullable: true, references: ForeignKey("owners", "id", onDelete: .cascade)),
        Column("kind", .numeric, nullable: true, default: .null),
    ]
    static let indexes = [
        TableIndex("odd_by_name", on: [#"na"me"#], unique: true),
        TableIndex("odd by ratio", on: ["ratio", "count"]),
    ]

    init(row: borrowing Row) throws {
        id = try row[0]
        name = try row[1]
        data = try row[2]
        ratio = try row[3]
        count = try row[4]
        owner = try row[5]
        kind = try row[6]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(name)
        try encoder.encode(data)
        try encoder.encode(ratio)
        try encoder.encode(count)
        try encoder.encode(owner)
        try encoder.encode(kind)
    }
}

/// A model with a text primary key, declared inline.
private struct TextKeyed: TableModel {
    var code: String
    static let tableName = "codes"
    static let columns = [Column("code", String.self, primaryKey: true)]
    init(row: borrowing Row) throws { code = try row[0] }
    func encode(to encoder: inout RowEncoder) throws { try encoder.encode(code) }
}

/// A model declaring an index on a column it does not have: its CREATE INDEX fails.
private struct BrokenIndex: TableModel {
    var a: Int
    static let tableName = "broken"
    static let columns = [Column("a", Int.self)]
    static let indexes = [TableIndex("broken_by_b", on: ["b"])]
    init(row: borrowing Row) throws { a = try row[0] }
    func encode(to encoder: inout RowEncoder) throws { try encoder.encode(a) }
}

/// A model with no columns at all.
private struct Columnless: TableModel {
    static let tableName = "nothing"
    static let columns: [Column] = []
    init(row: borrowing Row) throws {}
    func encode(to encoder: inout RowEncoder) throws {}
}

@Suite struct TableModelTests {
    @Test("CREATE TABLE text is pinned: quoted identifiers, constraints, defaults, references, indexes")
    func pinnedQuirkySQL() throws {
        #expect(
            try Connection.createTableSQL(for: QuirkyRow.self) == [
                #"CREATE TABLE "odd ""table""" ("#
                    + #""id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "#
                    + #""na""me" TEXT NOT NULL UNIQUE DEFAULT 'it''s "x"', "#
                    + #""data" BLOB DEFAULT X'00ABFF', "#
                    + #""ratio" REAL NOT NULL DEFAULT 1.5, "#
                    + #""count" INTEGER NOT NULL DEFAULT -3, "#
                    + #""owner" INTEGER REFERENCES "owners" ("id") ON DELETE CASCADE, "#
                    + #""kind" NUMERIC DEFAULT NULL)"#,
                #"CREATE UNIQUE INDEX "odd_by_name" ON "odd ""table""" ("na""me")"#,
                #"CREATE INDEX "odd by ratio" ON "odd ""table""" ("ratio", "count")"#,
            ])
    }

    @Test("CREATE TABLE text is pinned for an INTEGER key, a composite key and a text key")
    func pinnedKeys() throws {
        #expect(
            try Connection.createTableSQL(for: TestPlanet.self) == [
                #"CREATE TABLE "test_planets" ("id" INTEGER PRIMARY KEY NOT NULL, "name" TEXT NOT NULL UNIQUE, "#
                    + #""au" REAL NOT NULL, "moons" INTEGER)"#
            ])
        #expect(
            try Connection.createTableSQL(for: TestMembership.self) == [
                #"CREATE TABLE "test_memberships" ("group" TEXT NOT NULL, "member" INTEGER NOT NULL, "#
                    + #""role" TEXT NOT NULL DEFAULT 'guest', PRIMARY KEY ("group", "member"))"#
            ])
        #expect(
            try Connection.createTableSQL(for: TextKeyed.self) == [
                #"CREATE TABLE "codes" ("code" TEXT PRIMARY KEY NOT NULL)"#
            ])
    }

    @Test("the generated SQL runs, and its defaults and indexes exist")
    func quirkyTableWorks() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE owners (id INTEGER PRIMARY KEY)")  // the table its foreign key refers to
        try db.createTable(for: QuirkyRow.self)
        try db.execute(#"INSERT INTO "odd ""table""" ("owner") VALUES (NULL)"#)
        let row = try #require(try db.fetchAll(QuirkyRow.self).first)
        #expect(row.id == 1)
        #expect(row.name == #"it's "x""#)
        #expect(row.data == Data([0x00, 0xAB, 0xFF]))
        #expect(row.ratio == 1.5)
        #expect(row.count == -3)
        #expect(row.owner == nil)
        #expect(row.kind == nil)
        let indexes = try db.fetchAll(
            UntypedRow.self, "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
        #expect(indexes.map(\.values) == [[.text("odd by ratio")], [.text("odd_by_name")]])
        let insert = try db.makeInsertStatement(for: QuirkyRow.self)
        var copy = row
        copy.id = 2
        do {
            try insert.insert(copy)
            Issue.record("the unique index let a duplicate name in")
        } catch let error as SQLiteError {
            #expect(error.code == .constraintUnique)
        }
    }

    @Test("createTable then readAll returns the inserted rows")
    func roundTrip() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: TestPlanet.self)
        let insert = try db.makeInsertStatement(for: TestPlanet.self)
        for planet in TestPlanet.inner { try insert.insert(planet) }
        #expect(try db.fetchAll(TestPlanet.self) == TestPlanet.inner)
        #expect(
            try db.fetchAll(TestPlanet.self, where: "au > ? ORDER BY au DESC", [0.5]).map(\.name)
                == ["Mars", "Earth", "Venus"])
        #expect(try db.fetchAll(TestPlanet.self, where: "moons IS NULL") == [TestPlanet.inner[3]])
        #expect(try db.fetchOne(TestPlanet.self, where: "name = ?", ["Earth"]) == TestPlanet.inner[2])
        #expect(try db.fetchOne(TestPlanet.self, where: "name = ?", ["Pluto"]) == nil)
    }

    @Test("readAll on an empty table returns no rows; on a missing table it fails")
    func emptyAndMissing() throws {
        let db = try Connection.inMemory()
        #expect(throws: SQLiteError.self) { try db.fetchAll(TestPlanet.self) }
        try db.createTable(for: TestPlanet.self)
        #expect(try db.fetchAll(TestPlanet.self).isEmpty)
    }

    @Test("createTable fails when the table exists, unless ifNotExists, and leaves the data alone")
    func createTwice() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: TestPlanet.self)
        try db.makeInsertStatement(for: TestPlanet.self).insert(TestPlanet.inner[0])
        do throws(SQLiteError) {
            try db.createTable(for: TestPlanet.self)
            Issue.record("creating the table twice succeeded")
        } catch {
            #expect(error.kind == .sqlite)
            #expect(error.message.contains("already exists"))
            #expect(error.table == "test_planets")
            #expect(error.sql?.hasPrefix("CREATE TABLE") == true)
        }
        try db.createTable(for: TestPlanet.self, ifNotExists: true)
        try db.createTable(for: QuirkyRow.self, ifNotExists: true)
        try db.createTable(for: QuirkyRow.self, ifNotExists: true)
        #expect(try db.fetchAll(TestPlanet.self) == [TestPlanet.inner[0]])
        #expect(!db.isInTransaction)
    }

    @Test("createTable is all or nothing: a failing index leaves no table behind")
    func createTableAtomic() throws {
        let db = try Connection.inMemory()
        #expect(throws: SQLiteError.self) { try db.createTable(for: BrokenIndex.self) }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master") == 0)
        #expect(!db.isInTransaction)
    }

    @Test("createTable inside a transaction joins it and rolls back with it")
    func createTableInTransaction() throws {
        let db = try Connection.inMemory()
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try db.transaction {
                try db.createTable(for: TestPlanet.self)
                throw Abort()
            }
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master") == 0)
    }

    @Test("a model without columns is misuse, naming the table")
    func noColumns() throws {
        let db = try Connection.inMemory()
        do throws(SQLiteError) {
            try db.createTable(for: Columnless.self)
            Issue.record("a table without columns was created")
        } catch {
            #expect(error.kind == .misuse)
            #expect(error.table == "nothing")
        }
        #expect(throws: SQLiteError.self) { try db.makeInsertStatement(for: Columnless.self) }
    }

    @Test("a composite primary key refuses a duplicate pair and accepts a new one")
    func compositeKey() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: TestMembership.self)
        let insert = try db.makeInsertStatement(for: TestMembership.self)
        try insert.insert(TestMembership(group: "a", member: 1, role: "owner"))
        try insert.insert(TestMembership(group: "a", member: 2, role: "guest"))
        try insert.insert(TestMembership(group: "b", member: 1, role: "guest"))
        do {
            try insert.insert(TestMembership(group: "a", member: 1, role: "other"))
            Issue.record("a duplicate composite key was inserted")
        } catch let error as SQLiteError {
            #expect(error.code == .constraintPrimaryKey)
            #expect(error.table == "test_memberships")
        }
        try db.execute(#"INSERT INTO "test_memberships" ("group", "member") VALUES ('c', 9)"#)
        #expect(try db.fetchOne(TestMembership.self, where: #""group" = 'c'"#)?.role == "guest")
        #expect(try db.fetchAll(TestMembership.self).count == 4)
    }

    @Test(
        "DEFAULT literals of every kind are valid SQL and read back exactly",
        arguments: [
            SQLiteValue.integer(Int64.min), .integer(Int64.max), .real(1e300), .real(-0.5), .real(.infinity),
            .real(-.infinity), .real(0.1), .text(""), .text("'; DROP TABLE t; --"), .text("é 🪐"), .blob([]),
            .blob([0, 1, 254, 255]), .null,
        ])
    func defaultLiterals(value: SQLiteValue) throws {
        let db = try Connection.inMemory()
        let columns = [Column("id", Int.self, primaryKey: true), Column("v", .blob, nullable: true, default: value)]
        try db.execute(SQL(verbatim: TableSQL.createTable("t", columns: columns, ifNotExists: false)))
        try db.execute("INSERT INTO t (id) VALUES (1)")
        #expect(try db.fetchOne(UntypedRow.self, "SELECT v FROM t")?.values == [value])
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master") == 1)
    }

    @Test("the model's expected column names are its columns, in order")
    func expectedNames() {
        #expect(TestPlanet.expectedColumnNames == ["id", "name", "au", "moons"])
        #expect(TestPlanet.indexes.isEmpty)
    }
}
