import Foundation
import SQLiteSwiftlyMacros
import Testing

/// The Table Models article's models that `@Table` declares, which a function cannot hold: in the article's
/// order, before its walk-through below.
enum TableModelsArticle {
    // BEGIN TableModels: table macro
    @Table("planets", indexes: [TableIndex("planets_by_au", on: ["au"])])
    struct PlanetRecord {
        @TableColumn(primaryKey: true) var id: Int
        @TableColumn(unique: true) var name: String
        var au: Double
        var moons: Int?
        @Transient var isSelected = false  // not a column
    }
    // END TableModels: table macro

    // BEGIN TableModels: JSON storage
    @Table("recipes")
    struct Recipe {
        @TableColumn(primaryKey: true) var id: Int64
        var title: String
        @TableColumn(storage: .json) var steps: [String]
        @TableColumn(storage: .json) var ratings: [String: Int]?
    }
    // END TableModels: JSON storage

    // BEGIN TableModels: column constraints
    @Table("authors")
    struct Author {
        @TableColumn(primaryKey: true, autoIncrement: true) var id: Int64?  // nil: SQLite assigns it
        @TableColumn(unique: true, collation: "NOCASE") var name: String
        @TableColumn(default: 0) var prizes: Int
    }

    @Table("books")
    struct Book {
        @TableColumn(primaryKey: true, autoIncrement: true) var id: Int64?
        var title: String
        @TableColumn("author_id", references: ForeignKey("authors", "id", onDelete: .cascade, onUpdate: .cascade))
        var authorID: Int64
        @TableColumn("sequel_of", references: ForeignKey("books", "id", onDelete: .setNull))
        var sequelOf: Int64?
    }
    // END TableModels: column constraints
}

extension TableModelsArticle.Recipe: Equatable {}

/// The examples of the Table Models article, in its order, continuing (as it says) from Getting Started's planets.
@Suite struct TableModelsArticleTests {
    typealias Planet = ArticleFixture.Planet
    typealias PlanetRecord = TableModelsArticle.PlanetRecord
    typealias Author = TableModelsArticle.Author
    typealias Book = TableModelsArticle.Book

    @Test("the article's examples run in order on Getting Started's planets, with the results they show")
    func walkthrough() throws {
        let db = try ArticleFixture.database()
        // BEGIN TableModels: one row
        let uranus = try db.insert(Planet(id: 7, name: "Uranus", au: 19.19, moons: 28))  // the row id: 7
        try db.upsert(Planet(id: 4, name: "Mars", au: 1.524, moons: 2))  // Mars exists: updated in place
        let mars = try db.fetchOne(Planet.self, id: 4)  // Planet?, found by primary key
        let deleted = try db.delete(Planet.self, id: 7)  // true: a row had that key
        do {
            try db.insert(Planet(id: 8, name: "Mars", au: 1.5, moons: nil))
        } catch {
            // SQLite error: UNIQUE constraint failed: planets.name [code 2067, primary 19] (table "planets", column "name") ...
        }
        // END TableModels: one row
        #expect(uranus == 7 && mars?.moons == 2 && mars?.name == "Mars" && deleted)
        #expect(try db.fetchOne(Planet.self, id: 7) == nil)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM planets") == 6)
        let unique = try requireSQLiteError { try db.insert(Planet(id: 8, name: "Mars", au: 1.5, moons: nil)) }
        #expect(unique.description.hasPrefix(Self.uniqueFailure))

        // BEGIN TableModels: columns by name
        try db.execute("ALTER TABLE planets ADD COLUMN discovered TEXT")  // a later version adds a column
        let all = try db.fetchAll(Planet.self, "SELECT * FROM planets")  // the extra column is ignored
        let some = try db.fetchAll(Planet.self, "SELECT moons, au, name, id FROM planets")  // any order
        do {
            _ = try db.fetchAll(Planet.self, "SELECT id, name FROM planets")
        } catch {
            // model mismatch: Planet needs column "au", which the statement does not return (it returns id, name) ...
        }
        // END TableModels: columns by name
        #expect(all.map(\.name) == ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn"])
        #expect(some.map(\.au) == all.map(\.au))
        let missing = try requireSQLiteError { try db.fetchAll(Planet.self, "SELECT id, name FROM planets") }
        #expect(missing.kind == .modelMismatch && missing.column == "au")
        #expect(missing.description.hasPrefix(Self.modelMismatch))

        // BEGIN TableModels: codable model
        struct Moon: CodableTableModel {
            var id: Int64?  // nil until inserted: SQLite assigns it
            var planet: Int
            var name: String
            var radius: Double?  // in km; nil: unknown
            var tags: [String]  // not a column type: stored as JSON text

            static let tableName = "moons"
            static let columns = [
                Column("id", Int64?.self, primaryKey: true, autoIncrement: true),
                Column("planet", Int.self, references: ForeignKey("planets", "id", onDelete: .cascade)),
                Column("name", String.self, unique: true),
                Column("radius", Double?.self),  // nullable, because the Swift type is optional
                Column("tags", .text),  // a declared type, for a value that is not SQLiteValueConvertible
            ]
            static let indexes = [TableIndex("moons_by_planet", on: ["planet"])]
        }
        // END TableModels: codable model

        // BEGIN TableModels: codable use
        try db.createTable(for: Moon.self)
        let insert = try db.makeInsertStatement(for: Moon.self)
        let phobosID = try insert.insert(Moon(id: nil, planet: 4, name: "Phobos", radius: 11.1, tags: ["inner"]))
        try insert.insert(Moon(id: nil, planet: 4, name: "Deimos", radius: nil, tags: []))
        let ofMars = try db.fetchAll(Moon.self, where: "planet = \(4) ORDER BY id")  // Phobos, Deimos
        // END TableModels: codable use
        #expect(phobosID == 1 && ofMars.map(\.name) == ["Phobos", "Deimos"])
        #expect(ofMars.first?.tags == ["inner"] && ofMars.last?.radius == nil)
        #expect(try db.fetchValue(String.self, "SELECT tags FROM moons WHERE id = 1") == #"["inner"]"#)
        let moonsSQL = try Connection.createTableSQL(for: Moon.self)
        #expect(moonsSQL == [Self.moonsTableSQL, #"CREATE INDEX "moons_by_planet" ON "moons" ("planet")"#])
        let orphan = try requireSQLiteError {
            try insert.insert(Moon(id: nil, planet: 9, name: "Orphan", radius: nil, tags: []))
        }
        #expect(orphan.code == .constraintForeignKey && orphan.table == "moons")
        #expect(try db.fetchAll(PlanetRecord.self, where: "1 ORDER BY id").map(\.name) == all.map(\.name))
        let planetSQL = try Connection.createTableSQL(for: Planet.self)
        #expect(try Connection.createTableSQL(for: PlanetRecord.self) == planetSQL + [Self.planetsIndexSQL])

        // BEGIN TableModels: column constraints at work
        try db.createTable(for: Author.self)
        try db.createTable(for: Book.self)
        let ursula = try db.makeInsertStatement(for: Author.self).insert(
            Author(id: nil, name: "Ursula K. Le Guin", prizes: 0))
        let insertBook = try db.makeInsertStatement(for: Book.self)
        let wizard = try insertBook.insert(
            Book(id: nil, title: "A Wizard of Earthsea", authorID: ursula, sequelOf: nil))
        try insertBook.insert(Book(id: nil, title: "The Tombs of Atuan", authorID: ursula, sequelOf: wizard))

        let found = try db.fetchAll(Author.self, where: "name = \("URSULA K. LE GUIN")")  // NOCASE: found
        try db.execute("DELETE FROM books WHERE id = \(wizard)")  // the sequel's sequel_of becomes NULL
        try db.execute("UPDATE authors SET id = 7 WHERE id = \(ursula)")  // books follow: author_id = 7
        try db.execute("DELETE FROM authors WHERE id = 7")  // and her books are deleted with her
        // END TableModels: column constraints at work
        #expect(found.map(\.name) == ["Ursula K. Le Guin"])
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM books") == 0)
        #expect(try Connection.createTableSQL(for: Author.self) == [Self.authorsTableSQL])
        #expect(try Connection.createTableSQL(for: Book.self) == [Self.booksTableSQL])

        // BEGIN TableModels: record hook
        enum StarError: Error {
            case emptyName
        }

        struct Star: CodableTableModel {
            var id: Int
            var name: String

            static let tableName = "stars"
            static let columns = [Column("id", Int.self, primaryKey: true), Column("name", String.self)]

            mutating func willSave() throws {  // runs on a copy, before every insert and update
                name = name.trimmingCharacters(in: .whitespaces)
                if name.isEmpty { throw StarError.emptyName }
            }
        }
        // END TableModels: record hook
        let stars = try Connection.inMemory()  // the checks of willSave(), on a database of their own
        try stars.createTable(for: Star.self)
        try stars.insert(Star(id: 1, name: "  Sun "))
        #expect(try stars.fetchValue(String.self, "SELECT name FROM stars WHERE id = 1") == "Sun")
        #expect(throws: StarError.emptyName) { try stars.insert(Star(id: 2, name: "   ")) }
        #expect(throws: StarError.emptyName) { try stars.update(Star(id: 1, name: "")) }
        try stars.update(Star(id: 1, name: "Sol  "))
        #expect(try stars.fetchAll(Star.self).map(\.name) == ["Sol"])

        // BEGIN TableModels: custom values
        struct Celsius: SQLiteValueConvertible {
            var degrees: Double
            static let declaredType = DeclaredType.real  // the type that CREATE TABLE declares

            init(degrees: Double) {
                self.degrees = degrees
            }

            init(sqliteValue: SQLiteValue) throws(SQLiteError) {
                guard case .real(let value) = sqliteValue else { throw .conversion("expected REAL") }
                degrees = value
            }

            var sqliteValue: SQLiteValue { .real(degrees) }
        }

        enum Status: String, SQLiteValueConvertible {  // stored as its raw value: TEXT
            case active, archived
        }

        try db.execute("CREATE TABLE readings (temperature REAL NOT NULL, status TEXT NOT NULL)")
        try db.execute("INSERT INTO readings VALUES (\(Celsius(degrees: 21.5)), \(Status.active))")
        let temperature = try db.fetchValue(Celsius.self, "SELECT temperature FROM readings")  // Celsius?
        let status = try db.fetchValue(Status.self, "SELECT status FROM readings")  // Status?
        // END TableModels: custom values
        #expect(temperature?.degrees == 21.5 && status == .active)
        #expect(try db.fetchValue(String.self, "SELECT status FROM readings") == "active")

        // BEGIN TableModels: verify
        let old = try Connection.inMemory()
        try old.execute("CREATE TABLE planets (id INTEGER PRIMARY KEY, name TEXT NOT NULL, au TEXT NOT NULL)")
        let differences = try old.schemaDifferences(for: Planet.self)  // [] when the model matches
        // declared type at "planets"."au": expected REAL (REAL affinity), found TEXT (TEXT affinity)
        // missing column at "planets"."moons": expected INTEGER, found no column
        do {
            try old.verify(Planet.self)  // the same check, as one schemaMismatch error
        } catch {
            // schema mismatch: Planet does not match table "planets" (2 differences): declared type at ...
        }
        // END TableModels: verify
        #expect(differences.map(\.kind) == [.declaredType, .missingColumn])
        #expect(differences.map(\.description) == Self.differences)
        let schema = try requireSQLiteError { try old.verify(Planet.self) }
        #expect(schema.kind == .schemaMismatch && schema.differences == differences)
        let mismatch = #"schema mismatch: Planet does not match table "planets" (2 differences)"#
        #expect(schema.description.hasPrefix(mismatch))
        #expect(throws: SQLiteError.self) { try old.makeInsertStatement(for: Planet.self) }

        let article = try #require(try DocumentationSources.articles().first { $0.name == "TableModels" })
        for shown in [Self.moonsTableSQL, Self.authorsTableSQL, Self.booksTableSQL] + Self.differences {
            #expect(article.text.contains(shown), "TableModels.md shows \(shown)")
        }
    }

    static let uniqueFailure =
        #"SQLite error: UNIQUE constraint failed: planets.name [code 2067, primary 19] (table "planets", "#
        + #"column "name")"#
    static let modelMismatch =
        #"model mismatch: Planet needs column "au", which the statement does not return (it returns id, name)"#
    static let moonsTableSQL =
        #"CREATE TABLE "moons" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "planet" INTEGER NOT NULL "#
        + #"REFERENCES "planets" ("id") ON DELETE CASCADE, "name" TEXT NOT NULL UNIQUE, "radius" REAL, "#
        + #""tags" TEXT NOT NULL)"#
    static let planetsIndexSQL = #"CREATE INDEX "planets_by_au" ON "planets" ("au")"#
    static let authorsTableSQL =
        #"CREATE TABLE "authors" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "#
        + #""name" TEXT NOT NULL UNIQUE COLLATE "NOCASE", "prizes" INTEGER NOT NULL DEFAULT 0)"#
    static let booksTableSQL =
        #"CREATE TABLE "books" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT NOT NULL, "#
        + #""author_id" INTEGER NOT NULL REFERENCES "authors" ("id") ON DELETE CASCADE "#
        + #"ON UPDATE CASCADE, "sequel_of" INTEGER REFERENCES "books" ("id") ON DELETE SET NULL)"#
    static let differences = [
        #"declared type at "planets"."au": expected REAL (REAL affinity), found TEXT (TEXT affinity)"#,
        #"missing column at "planets"."moons": expected INTEGER, found no column"#,
    ]
}
