import Foundation
import SQLiteSwiftlyMacros
import Testing

/// The fast path for a `Codable` struct: `@Table` instead of ``CodableTableModel``. The struct keeps its
/// synthesized `Codable` conformance (for JSON, for the network); rows are read and written by the code the macro
/// derives, as fast as hand-written code, instead of through `Decoder` and `Encoder`.
@Table("moons")
private struct FastMoon: Codable, Equatable {
    @TableColumn(primaryKey: true) var id: Int
    var name: String
    var radius: Double
    var discovered: Date?
    @TableColumn(storage: .json) var tags: [String]
}

/// The same table as a `CodableTableModel`.
private struct SlowMoon: CodableTableModel, Equatable {
    var id: Int
    var name: String
    var radius: Double
    var discovered: Date?
    var tags: [String]

    static let tableName = "moons"
    static let columns = [
        Column("id", Int.self, primaryKey: true), Column("name", String.self), Column("radius", Double.self),
        Column("discovered", Date?.self), Column("tags", .text),
    ]
}

@Suite struct TableMacroCodableTests {
    @Test("a Codable struct with @Table keeps its Codable conformance and stores what CodableTableModel stores")
    func codableAndTable() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: FastMoon.self)
        try db.verify(SlowMoon.self)  // the same table, column for column
        let moons = [
            FastMoon(
                id: 1, name: "Io", radius: 1821.6, discovered: Date(timeIntervalSince1970: -11_670_000_000),
                tags: ["volcanic"]),
            FastMoon(id: 2, name: "Europa", radius: 1560.8, discovered: nil, tags: []),
        ]
        let insert = try db.makeInsertStatement(for: FastMoon.self)
        for moon in moons { try insert.insert(moon) }
        #expect(try db.fetchAll(FastMoon.self, where: "1 ORDER BY id") == moons)
        let slow = try db.fetchAll(SlowMoon.self, where: "1 ORDER BY id")
        #expect(slow.map(\.name) == moons.map(\.name) && slow.map(\.tags) == moons.map(\.tags))
        #expect(slow.map(\.discovered) == moons.map(\.discovered))
        let json = try JSONEncoder().encode(moons)
        #expect(try JSONDecoder().decode([FastMoon].self, from: json) == moons)
    }
}
