import Foundation
import SQLiteSwiftly
import Testing

/// The examples of the Table Models article (the `@Table` one runs in the macro tests).
@Suite struct TableModelsArticleTests {
    typealias Planet = ArticleFixture.Planet

    @Test("a model reads its columns by name: SELECT * after a new column, another order, a missing column")
    func columnsByName() throws {
        let db = try ArticleFixture.database()
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
        #expect(all.map(\.name) == ArticleFixture.planets.map(\.name))
        #expect(some.map(\.au) == ArticleFixture.planets.map(\.au))
        do {
            _ = try db.fetchAll(Planet.self, "SELECT id, name FROM planets")
            Issue.record("a result without the au column was read as planets")
        } catch let error as SQLiteError {
            #expect(error.kind == .modelMismatch)
            #expect(error.column == "au")
            let expected = #"model mismatch: Planet needs column "au", which the statement does not return"#
            #expect(error.description.hasPrefix(expected + " (it returns id, name)"))
        }
    }

    @Test("a model is inserted, upserted, read by id and deleted by id, each with one call")
    func oneRow() throws {
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
        #expect(uranus == 7)
        #expect(mars?.moons == 2 && mars?.name == "Mars")
        #expect(deleted)
        #expect(try db.fetchOne(Planet.self, id: 7) == nil)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM planets") == 6)
        let error = try requireSQLiteError { try db.insert(Planet(id: 8, name: "Mars", au: 1.5, moons: nil)) }
        let expected =
            #"SQLite error: UNIQUE constraint failed: planets.name [code 2067, primary 19] (table "planets", "#
            + #"column "name")"#
        #expect(error.description.hasPrefix(expected))
    }

    @Test("the Codable model creates the table it declares, assigns ids, stores tags as JSON, cascades deletes")
    func codableModel() throws {
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
        let db = try ArticleFixture.database()
        // BEGIN TableModels: codable use
        try db.createTable(for: Moon.self)
        let insert = try db.makeInsertStatement(for: Moon.self)
        let phobosID = try insert.insert(Moon(id: nil, planet: 4, name: "Phobos", radius: 11.1, tags: ["inner"]))
        try insert.insert(Moon(id: nil, planet: 4, name: "Deimos", radius: nil, tags: []))
        let ofMars = try db.fetchAll(Moon.self, where: "planet = \(4) ORDER BY id")  // Phobos, Deimos
        // END TableModels: codable use
        #expect(phobosID == 1)
        #expect(ofMars.map(\.name) == ["Phobos", "Deimos"])
        #expect(ofMars.first?.tags == ["inner"] && ofMars.last?.radius == nil)
        #expect(try db.fetchValue(String.self, "SELECT tags FROM moons WHERE id = 1") == #"["inner"]"#)
        #expect(
            try Connection.createTableSQL(for: Moon.self) == [
                Self.moonsTableSQL, #"CREATE INDEX "moons_by_planet" ON "moons" ("planet")"#,
            ])
        let article = try #require(try DocumentationSources.articles().first { $0.name == "TableModels" })
        #expect(article.text.contains(Self.moonsTableSQL), "TableModels.md shows the moons table's SQL")

        do {
            try insert.insert(Moon(id: nil, planet: 9, name: "Orphan", radius: nil, tags: []))
            Issue.record("a moon of a planet that does not exist was inserted")
        } catch let error as SQLiteError {
            #expect(error.code == .constraintForeignKey)
            #expect(error.table == "moons")
        }
        try db.execute("DELETE FROM planets WHERE name = 'Mars'")
        #expect(try db.fetchAll(Moon.self).isEmpty)
    }

    /// The `CREATE TABLE` of the Codable example, as the article shows it.
    static let moonsTableSQL =
        #"CREATE TABLE "moons" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "planet" INTEGER NOT NULL "#
        + #"REFERENCES "planets" ("id") ON DELETE CASCADE, "name" TEXT NOT NULL UNIQUE, "radius" REAL, "#
        + #""tags" TEXT NOT NULL)"#

    @Test("willSave() trims the name before insert and update, and refuses an empty one with nothing written")
    func recordHook() throws {
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
        let db = try Connection.inMemory()
        try db.createTable(for: Star.self)
        let insert = try db.makeInsertStatement(for: Star.self)
        try insert.insert(Star(id: 1, name: "  Sun "))
        #expect(try db.fetchValue(String.self, "SELECT name FROM stars WHERE id = 1") == "Sun")
        #expect(throws: StarError.emptyName) { try insert.insert(Star(id: 2, name: "   ")) }
        #expect(throws: StarError.emptyName) { try db.update(Star(id: 1, name: "")) }
        try db.update(Star(id: 1, name: "Sol  "))
        #expect(try db.fetchAll(Star.self).map(\.name) == ["Sol"])
    }

    @Test("a custom value type and a raw-value enum are stored and read back")
    func customValues() throws {
        let db = try Connection.inMemory()
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
        #expect(temperature?.degrees == 21.5)
        #expect(status == .active)
        #expect(try db.fetchValue(String.self, "SELECT status FROM readings") == "active")
        try db.execute("UPDATE readings SET status = 'lost'")
        #expect(throws: SQLiteError.self) { try db.fetchValue(Status.self, "SELECT status FROM readings") }
    }

    @Test("the schema check lists every difference, and verify throws them in one error")
    func verification() throws {
        let db = try Connection.inMemory()
        // BEGIN TableModels: verify
        try db.execute("CREATE TABLE planets (id INTEGER PRIMARY KEY, name TEXT NOT NULL, au TEXT NOT NULL)")
        let differences = try db.schemaDifferences(for: Planet.self)  // [] when the model matches
        // declared type at "planets"."au": expected REAL (REAL affinity), found TEXT (TEXT affinity)
        // missing column at "planets"."moons": expected INTEGER, found no column
        do {
            try db.verify(Planet.self)  // the same check, as one schemaMismatch error
        } catch {
            // schema mismatch: Planet does not match table "planets" (2 differences): declared type at ...
        }
        // END TableModels: verify
        #expect(differences.map(\.kind) == [.declaredType, .missingColumn])
        #expect(
            differences.map(\.description) == [
                #"declared type at "planets"."au": expected REAL (REAL affinity), found TEXT (TEXT affinity)"#,
                #"missing column at "planets"."moons": expected INTEGER, found no column"#,
            ])
        do {
            try db.verify(Planet.self)
            Issue.record("a model that does not match its table was verified")
        } catch {
            #expect(error.kind == .schemaMismatch)
            #expect(error.differences == differences)
            #expect(
                error.description.hasPrefix(#"schema mismatch: Planet does not match table "planets" (2 differences)"#))
        }
        #expect(throws: SQLiteError.self) { try db.makeInsertStatement(for: Planet.self) }
    }
}
