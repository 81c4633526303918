import Foundation
import Testing

@testable import SQLiteSwiftly

/// Only `Codable`, not ``SQLiteValueConvertible``: stored as its single value.
private enum MoonKind: String, Codable {
    case regular, irregular
}

/// A nested struct: stored as JSON text.
private struct Orbit: Codable, Equatable {
    var period: Double
    var retrograde: Bool
}

private struct Moon: CodableTableModel, Equatable {
    var id: Int64?
    var name: String
    var radius: Double
    var discovered: Date?
    var kind: MoonKind
    var tags: [String]
    var orbit: Orbit?
    var uuid: UUID

    static let tableName = "moons"
    static let columns = [
        Column("id", Int64?.self, primaryKey: true, autoIncrement: true),
        Column("name", String.self, unique: true),
        Column("radius", Double.self),
        Column("discovered", Date?.self),
        Column("kind", .text),
        Column("tags", .text),
        Column("orbit", .text, nullable: true),
        Column("uuid", UUID.self),
    ]
}

private func moon(_ name: String, id: Int64? = nil, discovered: Date? = nil, orbit: Orbit? = nil) -> Moon {
    Moon(
        id: id, name: name, radius: 1.5, discovered: discovered, kind: .irregular, tags: ["a", "b \"c\""],
        orbit: orbit, uuid: UUID())
}

/// Keys renamed with CodingKeys, and columns declared in another order than the properties.
private struct Renamed: CodableTableModel, Equatable {
    var identifier: Int
    var fullName: String
    var score: Int8

    enum CodingKeys: String, CodingKey {
        case identifier = "id"
        case fullName = "name"
        case score = "SCORE"
    }

    static let tableName = "renamed"
    static let columns = [
        Column("score", Int8.self), Column("name", String.self), Column("id", Int.self, primaryKey: true),
    ]
}

/// Encodes a property that is not a column.
private struct Stray: CodableTableModel {
    var id: Int
    var extra: Int
    static let tableName = "stray"
    static let columns = [Column("id", Int.self, primaryKey: true)]
}

/// Skips a non-nullable column in a custom encode(to:).
private struct Forgetful: CodableTableModel {
    var id: Int
    var name: String
    static let tableName = "forgetful"
    static let columns = [Column("id", Int.self, primaryKey: true), Column("name", String.self)]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
    }
}

/// Encodes `name` twice, the second time over the first.
private struct TwiceEncoded: CodableTableModel {
    var id: Int
    var name: String
    static let tableName = "twice"
    static let columns = [Column("id", Int.self, primaryKey: true), Column("name", String.self)]
    enum CodingKeys: String, CodingKey { case id, name }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode("overwritten", forKey: .name)
    }
}

/// Two properties whose names differ only in case: both would land in column `name`.
private struct CaseTwins: CodableTableModel {
    var id: Int
    var name: String
    var NAME: String
    static let tableName = "twins"
    static let columns = [Column("id", Int.self, primaryKey: true), Column("name", String.self)]
}

/// A coding key misnamed for its column (`notes` for `note`).
private struct Misnamed: CodableTableModel {
    var id: Int
    var note: String?
    enum CodingKeys: String, CodingKey {
        case id
        case note = "notes"
    }
    static let tableName = "misnamed"
    static let columns = [Column("id", Int.self, primaryKey: true), Column("note", String?.self)]
}

/// A double optional: `.some(nil)` has no SQL of its own.
private struct Nested: CodableTableModel, Equatable {
    var id: Int
    var level: Int??
    var kind: MoonKind??

    static let tableName = "nested"
    static let columns = [
        Column("id", Int.self, primaryKey: true), Column("level", Int?.self), Column("kind", .text, nullable: true),
    ]
}

@Suite struct CodableModelTests {
    @Test("a double optional holding .some(nil) is refused, as it would read back as nil; other values round-trip")
    func doubleOptional() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Nested.self)
        let insert = try db.makeInsertStatement(for: Nested.self)
        try insert.insert(Nested(id: 1, level: .some(.some(3)), kind: .some(.some(.regular))))
        try insert.insert(Nested(id: 2, level: nil, kind: nil))
        for refused in [Nested(id: 3, level: .some(nil), kind: nil), Nested(id: 3, level: nil, kind: .some(nil))] {
            let error = try requireSQLiteError { try insert.insert(refused) }
            #expect(error.kind == .conversionFailed)
            #expect(error.column == (refused.level == nil ? "kind" : "level"))
            #expect(error.message.contains("use a single optional"))
        }
        #expect(try db.fetchAll(Nested.self, where: "1 ORDER BY id").map(\.id) == [1, 2])
        #expect(try db.fetchOne(Nested.self, where: "id = 1")?.level == .some(.some(3)))
        #expect(try db.fetchOne(Nested.self, where: "id = 2")?.level == .none)
        // The same through a typed binding, and through the value's own conversion.
        let typed = try requireSQLiteError {
            try db.prepare("INSERT INTO nested (id, level) VALUES (4, ?)").execute(binding: Int??.some(nil))
        }
        #expect(typed.kind == .conversionFailed)
        #expect(typed.parameter == "?1")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM nested") == 2)
        #expect(throws: SQLiteError.self) { try SQLiteValue?.some(.null).sqliteValue }
        #expect(try Int??.some(.some(5)).sqliteValue == .integer(5))
    }

    @Test("a column encoded twice, or by two keys that differ only in case, is refused and nothing is written")
    func columnEncodedTwice() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: TwiceEncoded.self)
        let twice = try requireSQLiteError {
            try db.makeInsertStatement(for: TwiceEncoded.self).insert(TwiceEncoded(id: 1, name: "real"))
        }
        #expect(twice.kind == .modelMismatch)
        #expect(twice.column == "name")
        #expect(twice.message.contains("encodes column \"name\" twice"))
        try db.createTable(for: CaseTwins.self)
        let twins = try requireSQLiteError {
            try db.makeInsertStatement(for: CaseTwins.self).insert(CaseTwins(id: 1, name: "lower", NAME: "UPPER"))
        }
        #expect(twins.kind == .modelMismatch)
        #expect(try db.fetchValue(Int.self, "SELECT (SELECT count(*) FROM twice) + (SELECT count(*) FROM twins)") == 0)
        // Read from a row written otherwise: two properties cannot read one column.
        try db.execute("INSERT INTO twins VALUES (1, 'one')")
        for _ in 0..<2 {  // and again, with the statement's plan forgotten after the failure
            let read = try requireSQLiteError { try db.fetchAll(CaseTwins.self) }
            #expect(read.kind == .modelMismatch)
            #expect(read.message.contains("decodes keys \"name\" and \"NAME\" from one column"))
        }
    }

    @Test("a coding key that names no column is refused on reads too, even through decodeIfPresent")
    func misnamedKey() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Misnamed.self)
        try db.execute("INSERT INTO misnamed VALUES (1, 'important')")
        let read = try requireSQLiteError { try db.fetchAll(Misnamed.self) }
        #expect(read.kind == .modelMismatch)
        #expect(read.column == "notes")
        let write = try requireSQLiteError {
            try db.makeInsertStatement(for: Misnamed.self).insert(Misnamed(id: 2, note: "x"))
        }
        #expect(write.kind == .modelMismatch)
    }

    @Test("a Codable struct inserts and reads back with no hand-written coding")
    func roundTrip() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Moon.self)
        let insert = try db.makeInsertStatement(for: Moon.self)
        var moons = [
            moon("Phobos", discovered: Date(timeIntervalSinceReferenceDate: -3_900_000_000.25)),
            moon("Deimos", orbit: Orbit(period: 1.26, retrograde: false)),
        ]
        for index in moons.indices { moons[index].id = try insert.insert(moons[index]) }
        #expect(moons.map(\.id) == [1, 2])
        #expect(try db.fetchAll(Moon.self, where: "1 ORDER BY id") == moons)
        #expect(try db.fetchAll(Moon.self, "SELECT * FROM moons WHERE name = ?", ["Deimos"]) == [moons[1]])
        #expect(try db.fetchOne(Moon.self, where: "id = ?", [1]) == moons[0])
    }

    @Test("storable types are stored natively; enums as their value; collections and structs as JSON text")
    func storage() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Moon.self)
        let value = moon(
            "Io", discovered: Date(timeIntervalSinceReferenceDate: 0.5), orbit: Orbit(period: 1.77, retrograde: false))
        try db.makeInsertStatement(for: Moon.self).insert(value)
        let row = try #require(
            try db.fetchOne(
                UntypedRow.self,
                "SELECT typeof(radius), discovered, kind, tags, orbit, typeof(uuid), length(uuid) FROM moons"))
        #expect(
            row.values == [
                "real", "2001-01-01 00:00:00.500", "irregular", #"["a","b \"c\""]"#,
                #"{"period":1.77,"retrograde":false}"#, "blob", 16,
            ])
    }

    @Test("a nil optional is bound to NULL, never left over from the previous row")
    func nilOptionalsAreNull() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Moon.self)
        let insert = try db.makeInsertStatement(for: Moon.self)
        try insert.insert(moon("A", discovered: Date(), orbit: Orbit(period: 1, retrograde: true)))
        try insert.insert(moon("B"))
        #expect(
            try db.fetchValue(Int.self, "SELECT count(*) FROM moons WHERE discovered IS NULL AND orbit IS NULL") == 1)
        let b = try #require(try db.fetchOne(Moon.self, where: "name = 'B'"))
        #expect(b.discovered == nil)
        #expect(b.orbit == nil)
    }

    @Test("keys are matched by name: CodingKeys renames, column order may differ, case is ignored if needed")
    func renamedAndReordered() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Renamed.self)
        let rows = [
            Renamed(identifier: 1, fullName: "one", score: -3), Renamed(identifier: 2, fullName: "two", score: 127),
        ]
        let insert = try db.makeInsertStatement(for: Renamed.self)
        for row in rows { try insert.insert(row) }
        #expect(try db.fetchAll(Renamed.self, where: "1 ORDER BY id") == rows)
        #expect(try db.fetchValue(Int.self, "SELECT score FROM renamed WHERE id = 2") == 127)
    }

    @Test("update, delete and upsert statements work with Codable models")
    func writeStatements() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Moon.self)
        var value = moon("Europa")
        value.id = try db.makeInsertStatement(for: Moon.self).insert(value)
        value.radius = 9
        value.tags = []
        #expect(try db.update(value))
        #expect(try db.fetchAll(Moon.self) == [value])
        value.name = "Ganymede"
        try db.makeInsertStatement(for: Moon.self, onConflict: .update).insert(value)
        #expect(try db.fetchAll(Moon.self) == [value])
        #expect(try db.delete(value))
        #expect(try db.fetchAll(Moon.self).isEmpty)
    }

    @Test("a stored value that does not convert names table, column and row")
    func conversionFailure() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Moon.self)
        try db.makeInsertStatement(for: Moon.self).insert(moon("A"))
        try db.execute("UPDATE moons SET radius = 'wide'")
        let error = sqliteError { _ = try db.fetchAll(Moon.self) }
        #expect(error?.kind == .conversionFailed)
        #expect(error?.column == "radius")
        #expect(error?.row == 1)
        #expect(error?.table == "moons")
    }

    @Test("an unknown enum value and broken JSON are errors naming the column")
    func badNestedValues() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Moon.self)
        try db.makeInsertStatement(for: Moon.self).insert(moon("A"))
        try db.execute("UPDATE moons SET tags = '[1, 2'")
        let json = sqliteError { _ = try db.fetchAll(Moon.self) }
        #expect(json?.kind == .conversionFailed)
        #expect(json?.column == "tags")
        try db.execute("UPDATE moons SET tags = '[]', kind = 'unknown'")
        #expect(throws: (any Error).self) { try db.fetchAll(Moon.self) }
    }

    @Test("encoding a key that is not a column, or skipping a non-nullable column, is an error")
    func encodingMismatches() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE stray (id INTEGER PRIMARY KEY NOT NULL)")
        let stray = sqliteError { try db.makeInsertStatement(for: Stray.self).insert(Stray(id: 1, extra: 2)) }
        #expect(stray?.kind == .modelMismatch)
        #expect(stray?.column == "extra")
        try db.createTable(for: Forgetful.self)
        let forgetful = sqliteError {
            try db.makeInsertStatement(for: Forgetful.self).insert(Forgetful(id: 1, name: "x"))
        }
        #expect(forgetful?.kind == .parameterMismatch)
        #expect(forgetful?.column == "name")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM forgetful") == 0)
    }

    @Test("decoding a key that is not a column is an error naming it")
    func decodingUnknownKey() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE stray (id INTEGER PRIMARY KEY NOT NULL)")
        try db.execute("INSERT INTO stray VALUES (1)")
        let error = sqliteError { _ = try db.fetchAll(Stray.self) }
        #expect(error?.kind == .modelMismatch)
        #expect(error?.column == "extra")
    }

    @Test("a Codable model is verified against the schema like any model")
    func verified() throws {
        let db = try Connection.inMemory()
        try db.execute(
            "CREATE TABLE renamed (score INTEGER NOT NULL, name TEXT NOT NULL, id TEXT PRIMARY KEY NOT NULL)")
        let error = sqliteError { _ = try db.makeInsertStatement(for: Renamed.self) }
        #expect(error?.kind == .schemaMismatch)
        #expect(error?.differences.map(\.column) == ["id"])
    }
}
