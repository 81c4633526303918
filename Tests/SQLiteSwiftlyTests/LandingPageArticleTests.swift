import SQLiteSwiftly
import Testing

/// The example of the DocC landing page, `SQLiteSwiftly.md`.
@Suite struct LandingPageArticleTests {
    @Test("the landing page's example runs and gives the results it shows")
    func example() throws {
        // BEGIN SQLiteSwiftly: example
        struct Planet: TableModel {
            var id: Int
            var name: String
            var moons: Int?

            static let tableName = "planets"
            static let columns = [
                Column("id", Int.self, primaryKey: true),
                Column("name", String.self, unique: true),
                Column("moons", Int?.self),
            ]

            init(id: Int, name: String, moons: Int?) {
                self.id = id
                self.name = name
                self.moons = moons
            }

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

        let db = try Connection.inMemory()
        try db.createTable(for: Planet.self)

        let insert = try db.makeInsertStatement(for: Planet.self)
        try db.transaction {
            try insert.insert(Planet(id: 1, name: "Mercury", moons: 0))
            try insert.insert(Planet(id: 3, name: "Earth", moons: 1))
            try insert.insert(Planet(id: 4, name: "Mars", moons: 2))
        }

        let minimum = 1
        let withMoons = try db.fetchAll(Planet.self, where: "moons >= \(minimum) ORDER BY id")  // minimum is bound
        let names = withMoons.map(\.name)  // ["Earth", "Mars"]
        let moons = try db.fetchValue(Int.self, "SELECT sum(moons) FROM planets")  // 3
        // END SQLiteSwiftly: example

        #expect(names == ["Earth", "Mars"])
        #expect(moons == 3)
        #expect(try db.fetchAll(Planet.self).count == 3)
    }
}
