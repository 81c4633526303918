import SQLiteSwiftly

/// The database that the DocC articles continue from: the planets of Getting Started's *Create, insert, read*
/// (its `Planet` model is declared with its walk-through, in `GettingStartedArticleTests.swift`).
enum ArticleFixture {
    /// Six planets, ordered by distance; Mars's moon count is unknown. Getting Started's walk-through checks that
    /// its `planets` are these.
    static let planets = [
        Planet(id: 1, name: "Mercury", au: 0.387, moons: 0),
        Planet(id: 2, name: "Venus", au: 0.723, moons: 0),
        Planet(id: 3, name: "Earth", au: 1.0, moons: 1),
        Planet(id: 4, name: "Mars", au: 1.524, moons: nil),
        Planet(id: 5, name: "Jupiter", au: 5.203, moons: 95),
        Planet(id: 6, name: "Saturn", au: 9.537, moons: 146),
    ]

    /// A database holding the planets table and ``planets``, as Getting Started's *Create, insert, read* leaves
    /// it: in memory, or created at `path`.
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
