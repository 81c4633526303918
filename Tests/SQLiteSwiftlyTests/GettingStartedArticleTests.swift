import Foundation
import SQLiteSwiftly
import Testing

extension ArticleFixture {
    // BEGIN GettingStarted: model
    struct Planet: TableModel, Equatable {
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
}

/// The examples of the Getting Started article, in its order, each continuing from the ones before.
@Suite struct GettingStartedArticleTests {
    typealias Planet = ArticleFixture.Planet

    @Test("the article's examples run in order from a path where no file exists, with the results they show")
    func walkthrough() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("planets.sqlite")  // the article: "a file that does not exist yet"
        // BEGIN GettingStarted: open modes
        let db = try Connection(creating: path)  // must not exist yet: created atomically
        let opened = try Connection(opening: path)  // must exist and be an SQLite database
        let reader = try Connection(opening: path, readOnly: true)  // must exist; never written
        let scratch = try Connection.inMemory()  // a private database that lives with the connection
        // END GettingStarted: open modes
        #expect(db.path == path && opened.path == path && !opened.isReadOnly)
        #expect(reader.isReadOnly && scratch.path == nil)
        #expect(throws: SQLiteError.self) { try Connection(creating: path) }
        #expect(throws: SQLiteError.self) { try Connection(opening: directory.path("typo.sqlite")) }
        #expect(!FileManager.default.fileExists(atPath: directory.path("typo.sqlite")))

        // BEGIN GettingStarted: options
        let patient = try Connection(opening: path, options: ConnectionOptions(busyTimeout: .seconds(30)))
        let legacy = try Connection(opening: path, options: ConnectionOptions(enforcesForeignKeys: false))
        // END GettingStarted: options
        #expect(patient.options.busyTimeout == .seconds(30) && patient.enforcesForeignKeys)
        #expect(!legacy.enforcesForeignKeys)
        #expect(try patient.fetchValue(Int.self, "PRAGMA foreign_keys") == 1)
        #expect(try legacy.fetchValue(Int.self, "PRAGMA foreign_keys") == 0)

        // BEGIN GettingStarted: create insert read
        try db.createTable(for: Planet.self)

        let planets = [
            Planet(id: 1, name: "Mercury", au: 0.387, moons: 0),
            Planet(id: 2, name: "Venus", au: 0.723, moons: 0),
            Planet(id: 3, name: "Earth", au: 1.0, moons: 1),
            Planet(id: 4, name: "Mars", au: 1.524, moons: nil),  // nil: unknown, for now
            Planet(id: 5, name: "Jupiter", au: 5.203, moons: 95),
            Planet(id: 6, name: "Saturn", au: 9.537, moons: 146),
        ]

        let insert = try db.makeInsertStatement(for: Planet.self)
        try db.transaction {
            for planet in planets { try insert.insert(planet) }
        }

        let all = try db.fetchAll(Planet.self)  // [Planet]: all six
        let far = try db.fetchAll(Planet.self, where: "au > \(5.0) ORDER BY au")  // Jupiter, Saturn
        let name = "Earth"
        let earth = try db.fetchOne(Planet.self, where: "name = \(name)")  // Planet?: Earth
        // END GettingStarted: create insert read
        #expect(all.map(\.name) == ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn"])
        #expect(far.map(\.name) == ["Jupiter", "Saturn"])
        #expect(earth?.name == "Earth")
        let fixture = ArticleFixture.planets  // the other articles start from these
        #expect(planets.map(\.id) == fixture.map(\.id) && planets.map(\.name) == fixture.map(\.name))
        #expect(planets.map(\.au) == fixture.map(\.au) && planets.map(\.moons) == fixture.map(\.moons))

        // BEGIN GettingStarted: update delete
        if var mars = try db.fetchOne(Planet.self, where: "name = 'Mars'") {
            mars.moons = 2
            try db.update(mars)  // the row whose id is mars.id; false if there is none
        }
        let saturn = Planet(id: 6, name: "Saturn", au: 9.537, moons: 146)
        try db.delete(saturn)  // by primary key: only saturn.id is used
        let removed = try db.execute("DELETE FROM planets WHERE au > \(5.0)")  // 1: Jupiter
        // END GettingStarted: update delete
        #expect(removed == 1)
        #expect(try db.fetchOne(Planet.self, where: "name = 'Mars'")?.moons == 2)
        #expect(try reader.fetchAll(Planet.self).map(\.name) == ["Mercury", "Venus", "Earth", "Mars"])
    }
}
