import SQLiteSwiftly

/// A planet of the solar system: a table model written by hand.
struct Planet: TableModel, Equatable {
    var id: Int
    var name: String
    /// Mean distance from the Sun, in astronomical units.
    var au: Double
    /// Known moons; `nil` where the example pretends not to know.
    var moons: Int?

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

    static let solarSystem = [
        Planet(id: 1, name: "Mercury", au: 0.387, moons: 0),
        Planet(id: 2, name: "Venus", au: 0.723, moons: 0),
        Planet(id: 3, name: "Earth", au: 1.0, moons: 1),
        Planet(id: 4, name: "Mars", au: 1.524, moons: 2),
        Planet(id: 5, name: "Jupiter", au: 5.203, moons: 95),
        Planet(id: 6, name: "Saturn", au: 9.537, moons: 146),
        Planet(id: 7, name: "Uranus", au: 19.19, moons: 28),
        Planet(id: 8, name: "Neptune", au: 30.07, moons: nil),
    ]
}
