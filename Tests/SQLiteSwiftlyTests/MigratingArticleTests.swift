import SQLiteSwiftly
import Testing

/// The example of the Migrating from GRDB or SQLite.swift article, continuing (as it says) from the six planets of
/// Getting Started's *Create, insert, read*: ``ArticleFixture/database(at:)``.
@Suite struct MigratingArticleTests {
    typealias Planet = ArticleFixture.Planet

    @Test("a GRDB record's first calls have one-call counterparts, on Getting Started's planets")
    func walkthrough() throws {
        let db = try ArticleFixture.database()
        // BEGIN MigratingFromGRDBOrSQLiteSwift: first calls
        try db.insert(Planet(id: 7, name: "Uranus", au: 19.19, moons: 28))  // player.insert(db)
        try db.upsert(Planet(id: 4, name: "Mars", au: 1.524, moons: 2))  // player.upsert(db)
        let mars = try db.fetchOne(Planet.self, id: 4)  // Player.fetchOne(db, id: 4)
        let rows = try db.fetchAll(UntypedRow.self, "SELECT name, moons FROM planets ORDER BY id")  // Row.fetchAll
        let firstName = try rows[0]["name", as: String.self]  // row["name"]
        try db.delete(Planet.self, id: 7)  // Player.deleteOne(db, id: 7)
        // END MigratingFromGRDBOrSQLiteSwift: first calls
        #expect(mars?.moons == 2)
        #expect(rows.count == 7 && rows.last?["name"] == .text("Uranus"))
        #expect(firstName == "Mercury")
        #expect(try db.fetchOne(Planet.self, id: 7) == nil)
    }
}
