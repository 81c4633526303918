import Foundation
import SQLiteSwiftly
import Testing

/// The examples of the Getting Started article (its `Planet` model is ``ArticleFixture/Planet``).
@Suite struct GettingStartedArticleTests {
    typealias Planet = ArticleFixture.Planet

    @Test("the open modes example creates, opens, opens read-only and opens in memory")
    func openModes() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("app.sqlite")
        // BEGIN GettingStarted: open modes
        let created = try Connection(creating: path)  // must not exist yet: created atomically
        let opened = try Connection(opening: path)  // must exist and be an SQLite database
        let reader = try Connection(opening: path, readOnly: true)  // must exist; never written
        let scratch = try Connection.inMemory()  // a private database that lives with the connection
        // END GettingStarted: open modes
        #expect(created.path == path && opened.path == path)
        #expect(reader.isReadOnly && !opened.isReadOnly)
        #expect(scratch.path == nil)
        #expect(throws: SQLiteError.self) { try Connection(creating: path) }
        #expect(throws: SQLiteError.self) { try Connection(opening: directory.path("typo.sqlite")) }
        #expect(!FileManager.default.fileExists(atPath: directory.path("typo.sqlite")))
    }

    @Test("the options example opens with a longer busy timeout, and without foreign keys")
    func options() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("app.sqlite")
        _ = try Connection(creating: path)
        // BEGIN GettingStarted: options
        let patient = try Connection(opening: path, options: ConnectionOptions(busyTimeout: .seconds(30)))
        let legacy = try Connection(opening: path, options: ConnectionOptions(enforcesForeignKeys: false))
        // END GettingStarted: options
        #expect(patient.options.busyTimeout == .seconds(30))
        #expect(patient.enforcesForeignKeys)
        #expect(!legacy.enforcesForeignKeys)
        #expect(try patient.fetchValue(Int.self, "PRAGMA foreign_keys") == 1)
        #expect(try legacy.fetchValue(Int.self, "PRAGMA foreign_keys") == 0)
    }

    @Test("the create, insert and read example reads what it inserted")
    func createInsertRead() throws {
        let db = try Connection.inMemory()
        let planets = ArticleFixture.planets
        // BEGIN GettingStarted: create insert read
        try db.createTable(for: Planet.self)

        let insert = try db.makeInsertStatement(for: Planet.self)
        try db.transaction {
            for planet in planets { try insert.insert(planet) }
        }

        let all = try db.fetchAll(Planet.self)  // [Planet]
        let far = try db.fetchAll(Planet.self, where: "au > \(5.0) ORDER BY au")  // Jupiter, Saturn
        let name = "Earth"
        let earth = try db.fetchOne(Planet.self, where: "name = \(name)")  // Planet?
        // END GettingStarted: create insert read
        #expect(all.map(\.name) == planets.map(\.name))
        #expect(far.map(\.name) == ["Jupiter", "Saturn"])
        #expect(earth?.id == 3)
    }

    @Test("the update and delete example changes one row and deletes another")
    func updateDelete() throws {
        let db = try ArticleFixture.database()
        // BEGIN GettingStarted: update delete
        if var mars = try db.fetchOne(Planet.self, where: "name = 'Mars'") {
            mars.moons = 2
            try db.update(mars)  // the row whose id is mars.id; false if there is none
        }
        let saturn = Planet(id: 6, name: "Saturn", au: 9.537, moons: 146)
        try db.delete(saturn)  // by primary key: only saturn.id is used
        let removed = try db.execute("DELETE FROM planets WHERE au > \(5.0)")  // 1: Jupiter
        // END GettingStarted: update delete
        #expect(try db.fetchOne(Planet.self, where: "name = 'Mars'")?.moons == 2)
        #expect(removed == 1)
        #expect(try db.fetchAll(Planet.self).map(\.name) == ["Mercury", "Venus", "Earth", "Mars"])
    }
}
