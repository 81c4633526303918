import SQLiteSwiftlyMacros
import Testing

/// `@TableColumn(storage: .json)` stores a `Codable` property as JSON text and reads it back; bad stored values
/// and values that do not encode are errors naming the column.
@Suite struct TableMacroJSONTests {
    static let soup = MacroRecipe(
        id: 1, steps: ["chop", "simmer"], ratings: ["ana": 5, "bo": 4],
        nutrition: .init(calories: 120, per100g: 48.5), labels: ["vegan", "quick"])
    static let toast = MacroRecipe(
        id: 2, steps: [], ratings: nil, nutrition: .init(calories: 80, per100g: 250), labels: nil)

    func database() throws -> Connection {
        let db = try Connection.inMemory()
        try db.createTable(for: MacroRecipe.self)
        return db
    }

    @Test("JSON properties are TEXT columns, NOT NULL unless the property is optional")
    func columns() throws {
        #expect(
            try Connection.createTableSQL(for: MacroRecipe.self) == [
                "CREATE TABLE \"recipes\" (\"id\" INTEGER PRIMARY KEY NOT NULL, \"steps\" TEXT NOT NULL, "
                    + "\"ratings\" TEXT, \"nutrition\" TEXT NOT NULL, \"labels\" TEXT UNIQUE)"
            ])
        try database().verify(MacroRecipe.self)
    }

    @Test("values round-trip; nil is NULL; the text is JSON with sorted keys")
    func roundTrip() throws {
        let db = try database()
        let insert = try db.makeInsertStatement(for: MacroRecipe.self)
        try insert.insert(Self.soup)
        try insert.insert(Self.toast)
        #expect(try db.fetchAll(MacroRecipe.self, where: "1 ORDER BY id") == [Self.soup, Self.toast])
        let nutrition = try db.fetchValue(String.self, "SELECT nutrition FROM recipes WHERE id = 1")
        #expect(nutrition == #"{"calories":120,"per100g":48.5}"#)
        #expect(try db.fetchValue(String.self, "SELECT steps FROM recipes WHERE id = 2") == "[]")
        let nulls = try db.fetchValue(Int.self, "SELECT count(*) FROM recipes WHERE ratings IS NULL AND labels IS NULL")
        #expect(nulls == 1)
        var changed = Self.toast
        changed.ratings = ["cy": 3]
        #expect(try db.update(changed))
        #expect(try db.fetchOne(MacroRecipe.self, where: "id = 2") == changed)
    }

    @Test("JSON stored as a BLOB reads too; JSONText works in a hand-written query")
    func blobAndDirectUse() throws {
        let db = try database()
        try db.execute(
            """
            INSERT INTO recipes VALUES (3, CAST('["boil"]' AS BLOB), NULL, '{"per100g":1,"calories":2}', NULL)
            """)
        let recipe = try #require(try db.fetchOne(MacroRecipe.self, where: "id = 3"))
        #expect(recipe.steps == ["boil"] && recipe.nutrition == .init(calories: 2, per100g: 1))
        #expect(try db.fetchValue(JSONText<[Int]>.self, "SELECT '[1, 2]'")?.value == [1, 2])
    }

    @Test(
        "a stored value that is not JSON for the property is a conversion error naming the column and row",
        arguments: [
            ("'not json'", "the stored text is not JSON for Array<String>"),
            ("'{\"a\": 1}'", "the stored text is not JSON for Array<String>"),
            ("42", "expected JSON text, found INTEGER"),
            ("NULL", "expected JSON text, found NULL"),
        ])
    func badStoredValue(value: String, message: String) throws {
        let db = try Connection.inMemory()
        try db.execute(
            "CREATE TABLE recipes (id INTEGER PRIMARY KEY, steps, ratings TEXT, nutrition TEXT NOT NULL, labels TEXT)")
        try db.execute(
            SQL(verbatim: "INSERT INTO recipes VALUES (1, \(value), NULL, '{\"calories\":1,\"per100g\":1}', NULL)"))
        // A column without NOT NULL or type, to store anything: read with SQL, which checks column names only.
        let error = try #require(throws: SQLiteError.self) {
            try db.fetchAll(MacroRecipe.self, "SELECT * FROM recipes")
        }
        #expect(error.kind == .conversionFailed)
        #expect(error.message.hasPrefix(message), "\(error.message)")
        #expect(error.column == "steps")
        #expect(error.row == 1)
    }

    @Test("a value that does not encode as JSON is refused, and nothing is written")
    func unencodableValue() throws {
        let db = try database()
        var recipe = Self.soup
        recipe.nutrition.per100g = .nan
        let insert = try db.makeInsertStatement(for: MacroRecipe.self)
        let error = try #require(throws: SQLiteError.self) { try insert.insert(recipe) }
        #expect(error.kind == .conversionFailed)
        #expect(error.message.contains("Nutrition does not encode as JSON"))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM recipes") == 0)
    }
}
