import SQLiteSwiftlyMacros
import Testing

/// The `@Table` models of the Table Models article (``TableModelsArticle``), each on a database of its own: what
/// the walk-through does not reach.
@Suite struct TableModelsArticleModelTests {
    typealias Author = TableModelsArticle.Author
    typealias Book = TableModelsArticle.Book
    typealias Recipe = TableModelsArticle.Recipe

    @Test("the @Table planet model skips its transient property, and reads what it wrote")
    func transientProperty() throws {
        typealias Planet = TableModelsArticle.PlanetRecord
        #expect(Planet.columns.map(\.name) == ["id", "name", "au", "moons"])
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

    @Test("the JSON storage example stores arrays and dictionaries as JSON text, nil as NULL")
    func jsonStorage() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Recipe.self)
        let insert = try db.makeInsertStatement(for: Recipe.self)
        let recipes = [
            Recipe(id: 1, title: "Soup", steps: ["chop", "simmer"], ratings: ["ana": 5]),
            Recipe(id: 2, title: "Toast", steps: ["toast"], ratings: nil),
        ]
        for recipe in recipes { try insert.insert(recipe) }
        #expect(try db.fetchAll(Recipe.self, where: "1 ORDER BY id") == recipes)
        #expect(try db.fetchValue(String.self, "SELECT steps FROM recipes WHERE id = 1") == #"["chop","simmer"]"#)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM recipes WHERE ratings IS NULL") == 1)
    }

    @Test("the steps of the constraints example, one by one: set null, then cascade on update")
    func constraintsStepByStep() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Author.self)
        try db.createTable(for: Book.self)
        let ursula = try db.makeInsertStatement(for: Author.self).insert(Author(id: nil, name: "Ursula", prizes: 0))
        #expect(ursula == 1)
        let insertBook = try db.makeInsertStatement(for: Book.self)
        let wizard = try insertBook.insert(Book(id: nil, title: "Wizard", authorID: ursula, sequelOf: nil))
        let tombs = try insertBook.insert(Book(id: nil, title: "Tombs", authorID: ursula, sequelOf: wizard))
        #expect(try db.fetchAll(Book.self, where: "id = \(tombs)").first?.sequelOf == wizard)
        try db.execute("DELETE FROM books WHERE id = \(wizard)")
        #expect(try db.fetchAll(Book.self).map(\.sequelOf) == [nil])
        try db.execute("UPDATE authors SET id = 7 WHERE id = \(ursula)")
        #expect(try db.fetchAll(Book.self).map(\.authorID) == [7])
        let duplicate = try #require(throws: SQLiteError.self) {
            try db.makeInsertStatement(for: Author.self).insert(Author(id: nil, name: "URSULA", prizes: 1))
        }
        #expect(duplicate.code == .constraintUnique, "UNIQUE compares with the column's NOCASE collation")
        try db.verify(Author.self)
        try db.verify(Book.self)
    }

    @Test("a collation of the model that the live table lacks is a schema difference")
    func collationIsVerified() throws {
        let db = try Connection.inMemory()
        try db.execute(
            "CREATE TABLE authors (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, prizes INTEGER NOT NULL DEFAULT 0)"
        )
        let differences = try db.schemaDifferences(for: Author.self)
        #expect(differences.map(\.kind) == [.collation])
        #expect(differences.first?.column == "name")
    }
}
