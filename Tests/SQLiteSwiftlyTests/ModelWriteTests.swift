import Foundation
import Testing

@testable import SQLiteSwiftly

/// A model whose `INTEGER PRIMARY KEY` is `nil` until SQLite assigns it, with a unique name.
private struct Comet: TableModel, Equatable {
    var id: Int64?
    var name: String
    var period: Double?  // years

    static let tableName = "comets"
    static let columns = [
        Column("id", Int64?.self, primaryKey: true),
        Column("name", String.self, unique: true),
        Column("period", Double?.self),
    ]

    init(id: Int64? = nil, name: String, period: Double?) {
        (self.id, self.name, self.period) = (id, name, period)
    }

    init(row: borrowing Row) throws {
        (id, name, period) = (try row[0], try row[1], try row[2])
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(name)
        try encoder.encode(period)
    }

    mutating func willSave() throws {
        if name.isEmpty { throw CometError.unnamed }
    }
}

private enum CometError: Error {
    case unnamed
}

/// A model without a primary key.
private struct LogLine: CodableTableModel {
    var text: String
    static let tableName = "log"
    static let columns = [Column("text", String.self)]
}

/// A model with only primary-key columns.
private struct Tag: CodableTableModel {
    var name: String
    static let tableName = "tags"
    static let columns = [Column("name", String.self, primaryKey: true)]
}

@Suite struct ModelWriteTests {
    private func comets() throws -> Connection {
        let db = try Connection.inMemory()
        try db.createTable(for: Comet.self)
        return db
    }

    @Test("insert(_:) returns the row id, and a nil INTEGER PRIMARY KEY is assigned by SQLite")
    func insertAssignsIDs() throws {
        let db = try comets()
        let halley = try db.insert(Comet(name: "Halley", period: 75.3))
        let encke = try db.insert(Comet(name: "Encke", period: 3.3))
        let chosen = try db.insert(Comet(id: 40, name: "Tempel", period: nil))
        #expect([halley, encke, chosen] == [1, 2, 40])
        #expect(try db.insert(Comet(name: "Biela", period: 6.6)) == 41)
        #expect(try db.fetchAll(Comet.self, where: "1 ORDER BY id").map(\.id) == [1, 2, 40, 41])
        let planets = try planetsDatabase(filled: false)
        try planets.insert(TestPlanet.inner[0])
        #expect(try planets.fetchAll(TestPlanet.self) == [TestPlanet.inner[0]])
    }

    @Test("each model write compiles its statement once and keeps it in the connection's cache")
    func statementsAreCached() throws {
        let db = try comets()
        let before = db.cachedStatementCount
        try db.insert(Comet(name: "Halley", period: 75.3))
        try db.insertIfNew(Comet(name: "Encke", period: 3.3))
        try db.upsert(Comet(id: 1, name: "Halley", period: 76))
        _ = try db.fetchOne(Comet.self, id: 1)
        try db.delete(Comet.self, id: 2)
        let kept = db.cachedStatementCount
        #expect(kept == before + 5)
        for index in 0..<20 {
            let id = try db.insert(Comet(name: "C\(index)", period: nil))
            try db.insertIfNew(Comet(name: "D\(index)", period: nil))
            try db.upsert(Comet(id: id, name: "C\(index)", period: 1))
            _ = try db.fetchOne(Comet.self, id: id)
            try db.delete(Comet.self, id: id)
        }
        #expect(db.cachedStatementCount == kept)
    }

    @Test("insert errors name the table and column, and nothing is written")
    func insertErrors() throws {
        let db = try comets()
        try db.insert(Comet(name: "Halley", period: 75.3))
        let duplicate = try requireSQLiteError { try db.insert(Comet(name: "Halley", period: 1)) }
        #expect(duplicate.code == .constraintUnique)
        #expect(duplicate.table == "comets" && duplicate.column == "name")
        let nan = try requireSQLiteError { try db.insert(Comet(name: "Nan", period: .nan)) }
        #expect(nan.kind == .conversionFailed)
        #expect(nan.table == "comets" && nan.column == "period")
        #expect(throws: CometError.unnamed) { try db.insert(Comet(name: "", period: nil)) }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM comets") == 1)

        let planets = try planetsDatabase(filled: false)
        let miscounted = try requireSQLiteError {
            try planets.insert(TestMiscountedPlanet(id: 1, name: "Mercury", encodedCount: 3))
        }
        #expect(miscounted.kind == .parameterMismatch)
        #expect(miscounted.table == "test_planets")
        #expect(try planets.fetchValue(Int.self, "SELECT count(*) FROM test_planets") == 0)

        let missing = try requireSQLiteError { try Connection.inMemory().insert(Comet(name: "Halley", period: 1)) }
        #expect(missing.kind == .schemaMismatch)
        #expect(missing.table == "comets")
    }

    @Test("a cached insert verifies its model again after the table changed under it")
    func insertAfterSchemaChange() throws {
        let db = try comets()
        try db.insert(Comet(name: "Halley", period: 75.3))
        try db.execute("DROP TABLE comets")
        try db.execute("CREATE TABLE comets (id INTEGER PRIMARY KEY, name INTEGER NOT NULL UNIQUE, period REAL)")
        let changed = try requireSQLiteError { try db.insert(Comet(name: "007", period: nil)) }
        #expect(changed.kind == .schemaMismatch)
        #expect(changed.table == "comets")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM comets") == 0)
    }

    @Test("insertIfNew(_:) skips only a uniqueness conflict")
    func insertIfNew() throws {
        let db = try comets()
        #expect(try db.insertIfNew(Comet(name: "Halley", period: 75.3)) == 1)
        #expect(try db.insertIfNew(Comet(name: "Halley", period: 1)) == nil)
        #expect(try db.insertIfNew(Comet(id: 1, name: "Other", period: 1)) == nil)
        #expect(try db.fetchAll(Comet.self) == [Comet(id: 1, name: "Halley", period: 75.3)])
        try db.execute("CREATE TABLE strict (id INTEGER PRIMARY KEY, name TEXT NOT NULL CHECK (name <> 'x'))")
        struct Strict: CodableTableModel {
            var id: Int
            var name: String
            static let tableName = "strict"
            static let columns = [Column("id", Int.self, primaryKey: true), Column("name", String.self)]
        }
        let check = try requireSQLiteError { try db.insertIfNew(Strict(id: 1, name: "x")) }
        #expect(check.code.primary == .constraint && check.code != .constraintUnique)
        #expect(check.table == "strict")
    }

    @Test("upsert(_:) inserts, or updates the row with the same key in place and returns its row id")
    func upsert() throws {
        let db = try comets()
        #expect(try db.upsert(Comet(id: 5, name: "Halley", period: 75.3)) == 5)
        try db.insert(Comet(name: "Encke", period: 3.3))
        #expect(try db.upsert(Comet(id: 5, name: "Halley", period: 76.0)) == 5)
        #expect(try db.upsert(Comet(name: "Biela", period: 6.6)) == 7)  // a nil key never conflicts
        #expect(
            try db.fetchAll(Comet.self, where: "1 ORDER BY id") == [
                Comet(id: 5, name: "Halley", period: 76.0), Comet(id: 6, name: "Encke", period: 3.3),
                Comet(id: 7, name: "Biela", period: 6.6),
            ])
        // A conflict on another unique column is not the key's: it throws, naming the column.
        let unique = try requireSQLiteError { try db.upsert(Comet(id: 9, name: "Encke", period: nil)) }
        #expect(unique.code == .constraintUnique)
        #expect(unique.table == "comets" && unique.column == "name")
        #expect(throws: CometError.unnamed) { try db.upsert(Comet(id: 5, name: "", period: nil)) }
        #expect(try db.fetchOne(Comet.self, id: 5)?.name == "Halley")
    }

    @Test("an upsert needs a primary key and another column")
    func upsertRefusals() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: LogLine.self)
        try db.createTable(for: Tag.self)
        let keyless = try requireSQLiteError { try db.upsert(LogLine(text: "a")) }
        #expect(keyless.kind == .misuse && keyless.table == "log")
        #expect(keyless.message.contains("no primary key"))
        let onlyKey = try requireSQLiteError { try db.upsert(Tag(name: "red")) }
        #expect(onlyKey.kind == .misuse && onlyKey.table == "tags")
        #expect(onlyKey.message.contains("insertIfNew"))
        #expect(try db.insertIfNew(Tag(name: "red")) != nil)
        #expect(try db.insertIfNew(Tag(name: "red")) == nil)
    }

    @Test("an upsert of a searchable model keeps its full-text index in step with recursive triggers off")
    func upsertKeepsSearchIndex() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: SearchFolder.self)
        try db.createTable(for: SearchNote.self)
        #expect(try db.fetchValue(Int.self, "PRAGMA recursive_triggers") == 0)
        try db.insert(SearchNote(id: 1, title: "Harbour", body: "boats"))
        try db.upsert(SearchNote(id: 1, title: "Lighthouse", body: "beacon"))
        try db.upsert(SearchNote(id: 2, title: "Harbour", body: "ferries"))
        #expect(try db.searchIDs("lighthouse") == [1])
        #expect(try db.searchIDs("boats").isEmpty)
        #expect(try db.searchIDs("harbour") == [2])
        #expect(try db.delete(SearchNote.self, id: 2))
        #expect(try db.searchIDs("harbour").isEmpty)
        try db.execute("INSERT INTO notes_fts(notes_fts) VALUES ('integrity-check')")
    }

    @Test("fetchOne(_:id:) reads by primary key, any convertible key type, nil when absent")
    func fetchByID() throws {
        let db = try planetsDatabase()
        #expect(try db.fetchOne(TestPlanet.self, id: 3) == TestPlanet.inner[2])
        #expect(try db.fetchOne(TestPlanet.self, id: Int64(1))?.name == "Mercury")
        #expect(try db.fetchOne(TestPlanet.self, id: 99) == nil)
        #expect(try db.fetchOne(TestPlanet.self, id: Int?.none) == nil)
        let comets = try comets()
        let id = try comets.insert(Comet(name: "Halley", period: 75.3))
        #expect(try comets.fetchOne(Comet.self, id: id)?.name == "Halley")
        // A text key.
        try comets.execute("CREATE TABLE tags (name TEXT PRIMARY KEY NOT NULL)")
        try comets.insert(Tag(name: "red"))
        #expect(try comets.fetchOne(Tag.self, id: "red")?.name == "red")
        #expect(try comets.fetchOne(Tag.self, id: "blue") == nil)
    }

    @Test("reading or deleting by id needs a single-column primary key, and errors name the table and column")
    func byIDErrors() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: TestMembership.self)
        try db.createTable(for: LogLine.self)
        let composite = try requireSQLiteError { try db.fetchOne(TestMembership.self, id: 1) }
        #expect(composite.kind == .misuse && composite.table == "test_memberships")
        #expect(composite.message.contains(#"2 columns ("group", "member")"#))
        let deleteComposite = try requireSQLiteError { try db.delete(TestMembership.self, id: 1) }
        #expect(deleteComposite.kind == .misuse && deleteComposite.table == "test_memberships")
        let keyless = try requireSQLiteError { try db.fetchOne(LogLine.self, id: 1) }
        #expect(keyless.kind == .misuse && keyless.table == "log")
        #expect(throws: SQLiteError.self) { try db.delete(LogLine.self, id: 1) }

        let missing = try requireSQLiteError { try db.fetchOne(TestPlanet.self, id: 1) }
        #expect(missing.kind == .schemaMismatch && missing.table == "test_planets")
        let planets = try planetsDatabase()
        let nan = try requireSQLiteError { try planets.fetchOne(TestPlanet.self, id: Double.nan) }
        #expect(nan.kind == .conversionFailed)
        #expect(nan.table == "test_planets" && nan.column == "id")
        let deleteNaN = try requireSQLiteError { try planets.delete(TestPlanet.self, id: Double.nan) }
        #expect(deleteNaN.table == "test_planets" && deleteNaN.column == "id")
        // After a schema change, the cached read verifies the model again.
        _ = try planets.fetchOne(TestPlanet.self, id: 1)
        try planets.execute("ALTER TABLE test_planets DROP COLUMN moons")
        let drifted = try requireSQLiteError { try planets.fetchOne(TestPlanet.self, id: 1) }
        #expect(drifted.kind == .schemaMismatch || drifted.kind == .modelMismatch)
        #expect(drifted.table == "test_planets")
    }

    @Test("delete(_:id:) deletes by primary key; a foreign-key violation names the table")
    func deleteByID() throws {
        let db = try planetsDatabase()
        #expect(try db.delete(TestPlanet.self, id: 2))
        #expect(try !db.delete(TestPlanet.self, id: 2))
        #expect(try db.fetchAll(TestPlanet.self).map(\.id) == [1, 3, 4])
        try db.delete(TestPlanet.inner[0])  // the model form shares the statement
        #expect(try db.fetchAll(TestPlanet.self).map(\.id) == [3, 4])

        try db.execute("CREATE TABLE visits (planet INTEGER NOT NULL REFERENCES test_planets (id))")
        try db.execute("INSERT INTO visits VALUES (3)")
        let restricted = try requireSQLiteError { try db.delete(TestPlanet.self, id: 3) }
        #expect(restricted.code == .constraintForeignKey)
        #expect(restricted.table == "test_planets")
        #expect(try db.fetchOne(TestPlanet.self, id: 3) != nil)
    }
}
