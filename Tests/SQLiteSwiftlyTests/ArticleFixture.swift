import SQLiteSwiftly

/// The `Planet` model the DocC articles use, as Getting Started shows it, and a database of planets to run the
/// articles' examples on.
enum ArticleFixture {
    // BEGIN GettingStarted: model
    struct Planet: TableModel {
        var id: Int
        var name: String
        var au: Double  // mean distance from the Sun, in astronomical units
        var moons: Int?  // nil: unknown

        static let tableName = "planets"
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

        init(row: borrowing Row) throws {  // columns by index, in the order of `columns`
            id = try row[0]
            name = try row[1]
            au = try row[2]
            moons = try row[3]
        }

        func encode(to encoder: inout RowEncoder) throws {  // one value per column, in the same order
            try encoder.encode(id)
            try encoder.encode(name)
            try encoder.encode(au)
            try encoder.encode(moons)
        }
    }
    // END GettingStarted: model

    /// Six planets, ordered by distance; Mars's moon count is unknown.
    static let planets = [
        Planet(id: 1, name: "Mercury", au: 0.387, moons: 0),
        Planet(id: 2, name: "Venus", au: 0.723, moons: 0),
        Planet(id: 3, name: "Earth", au: 1.0, moons: 1),
        Planet(id: 4, name: "Mars", au: 1.524, moons: nil),
        Planet(id: 5, name: "Jupiter", au: 5.203, moons: 95),
        Planet(id: 6, name: "Saturn", au: 9.537, moons: 146),
    ]

    /// A database holding the planets table and ``planets``: in memory, or created at `path`.
    static func database(at path: String? = nil) throws -> Connection {
        let db = try path.map { path throws(SQLiteError) in try Connection(creating: path) } ?? Connection.inMemory()
        try db.createTable(for: Planet.self)
        let insert = try db.makeInsertStatement(for: Planet.self)
        try db.transaction {
            for planet in planets { try insert.insert(planet) }
        }
        return db
    }
}
