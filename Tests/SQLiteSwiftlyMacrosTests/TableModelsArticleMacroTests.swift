import SQLiteSwiftlyMacros
import Testing

/// The `@Table` example of the Table Models article, nested so that its `Planet` clashes with no other type.
enum TableModelsArticle {
    // BEGIN TableModels: table macro
    @Table("planets", indexes: [TableIndex("planets_by_au", on: ["au"])])
    struct Planet {
        @TableColumn(primaryKey: true) var id: Int
        @TableColumn(unique: true) var name: String
        var au: Double
        var moons: Int?
        @Transient var isSelected = false  // not a column
    }
    // END TableModels: table macro
}

@Suite struct TableModelsArticleMacroTests {
    @Test("the article's @Table model declares the table of the hand-written Planet, and reads what it wrote")
    func tableMacroExample() throws {
        typealias Planet = TableModelsArticle.Planet
        #expect(Planet.columns.map(\.name) == ["id", "name", "au", "moons"])
        #expect(
            try Connection.createTableSQL(for: Planet.self) == [
                #"CREATE TABLE "planets" ("id" INTEGER PRIMARY KEY NOT NULL, "name" TEXT NOT NULL UNIQUE, "#
                    + #""au" REAL NOT NULL, "moons" INTEGER)"#,
                #"CREATE INDEX "planets_by_au" ON "planets" ("au")"#,
            ])
        let db = try Connection.inMemory()
        try db.createTable(for: Planet.self)
        let insert = try db.makeInsertStatement(for: Planet.self)
        try insert.insert(Planet(id: 3, name: "Earth", au: 1.0, moons: 1, isSelected: true))
        try insert.insert(Planet(id: 4, name: "Mars", au: 1.524, moons: nil))
        let planets = try db.fetchAll(Planet.self, where: "au > \(0.5) ORDER BY au")
        #expect(planets.map(\.name) == ["Earth", "Mars"])
        #expect(planets.map(\.moons) == [1, nil])
        #expect(planets.allSatisfy { !$0.isSelected })
    }
}
