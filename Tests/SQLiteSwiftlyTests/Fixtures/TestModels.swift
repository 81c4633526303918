import Foundation
import SQLiteSwiftly

// Table models shared by the core test suites. Names start with `Test` so they never clash with the models of
// other suites or with the examples.

/// A planet: an INTEGER primary key, a UNIQUE text, a REAL and a nullable INTEGER.
struct TestPlanet: TableModel, Equatable, Sendable {
    var id: Int
    var name: String
    var au: Double
    var moons: Int?

    static let tableName = "test_planets"
    static let columns = [
        Column("id", Int.self, primaryKey: true),
        Column("name", String.self, unique: true),
        Column("au", Double.self),
        Column("moons", Int?.self),
    ]

    init(id: Int, name: String, au: Double, moons: Int?) {
        self.id = id
        self.name = name
        self.au = au
        self.moons = moons
    }

    init(row: borrowing Row) throws {
        id = try row[0]
        name = try row[1]
        au = try row[2]
        moons = try row[3]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(name)
        try encoder.encode(au)
        try encoder.encode(moons)
    }

    static let inner = [
        TestPlanet(id: 1, name: "Mercury", au: 0.387, moons: 0),
        TestPlanet(id: 2, name: "Venus", au: 0.723, moons: 0),
        TestPlanet(id: 3, name: "Earth", au: 1.0, moons: 1),
        TestPlanet(id: 4, name: "Mars", au: 1.524, moons: nil),
    ]
}

/// A note without a primary key: its rows get consecutive row ids.
struct TestNote: TableModel, Equatable, Sendable {
    var text: String

    static let tableName = "test_notes"
    static let columns = [Column("text", String.self)]

    init(text: String) {
        self.text = text
    }

    init(row: borrowing Row) throws {
        text = try row[0]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(text)
    }
}

/// A table of one column named `value`, of any storable type: for value round trips and conversion errors.
struct TestSingleValue<Value: SQLiteValueConvertible>: TableModel {
    var value: Value

    static var tableName: String { "test_values" }
    static var columns: [Column] { [Column("value", Value.self)] }

    init(_ value: Value) {
        self.value = value
    }

    init(row: borrowing Row) throws {
        value = try row[0]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(value)
    }
}

/// A model of the `test_planets` table whose `encode(to:)` writes a chosen number of values, for miscounts.
struct TestMiscountedPlanet: TableModel {
    var id: Int
    var name: String
    /// How many values `encode(to:)` writes (the table has 4 columns).
    var encodedCount: Int

    static let tableName = TestPlanet.tableName
    static let columns = TestPlanet.columns

    init(id: Int, name: String, encodedCount: Int) {
        self.id = id
        self.name = name
        self.encodedCount = encodedCount
    }

    init(row: borrowing Row) throws {
        id = try row[0]
        name = try row[1]
        encodedCount = 4
    }

    func encode(to encoder: inout RowEncoder) throws {
        for index in 0..<encodedCount {
            switch index {
            case 0: try encoder.encode(id)
            case 1: try encoder.encode(name)
            case 2: try encoder.encode(1.0)
            case 3: try encoder.encode(Int?.none)
            default: try encoder.encode(index)
            }
        }
    }
}

/// A row with a composite primary key.
struct TestMembership: TableModel, Equatable, Sendable {
    var group: String
    var member: Int
    var role: String

    static let tableName = "test_memberships"
    static let columns = [
        Column("group", String.self, primaryKey: true),
        Column("member", Int.self, primaryKey: true),
        Column("role", String.self, default: "guest"),
    ]

    init(group: String, member: Int, role: String) {
        self.group = group
        self.member = member
        self.role = role
    }

    init(row: borrowing Row) throws {
        group = try row[0]
        member = try row[1]
        role = try row[2]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(group)
        try encoder.encode(member)
        try encoder.encode(role)
    }
}

/// A model of a `test_values` table whose single column is declared `BLOB` (no type affinity: values are stored
/// as given) and nullable, but which reads the column as `Value`: for conversion errors on stored data.
struct TestLooseValue<Value: SQLiteValueConvertible>: TableModel {
    var value: Value

    static var tableName: String { "test_values" }
    static var columns: [Column] { [Column("value", .blob, nullable: true)] }

    init(row: borrowing Row) throws {
        value = try row[0]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(value)
    }
}
