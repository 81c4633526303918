import Foundation
import SQLiteSwiftlyMacros
import Testing

// The JSON storage example of the DocC article `TableModels.md`, compiled here (an extension macro needs a type at
// file scope) and compared with the article below.
// BEGIN TableModels: JSON storage
@Table("recipes")
struct Recipe {
    @TableColumn(primaryKey: true) var id: Int64
    var title: String
    @TableColumn(storage: .json) var steps: [String]
    @TableColumn(storage: .json) var ratings: [String: Int]?
}
// END TableModels: JSON storage

extension Recipe: Equatable {}

@Suite struct TableModelsArticleTests {
    @Test("the article's JSON storage example stores arrays and dictionaries as JSON text, nil as NULL")
    func jsonExample() throws {
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

    @Test("the article shows exactly the example this file compiles")
    func articleMatches() throws {
        let testFile = URL(fileURLWithPath: #filePath)
        let article = testFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/SQLiteSwiftly/Documentation.docc/TableModels.md")
        let articleText = try String(contentsOf: article, encoding: .utf8)
        let testText = try String(contentsOf: testFile, encoding: .utf8)
        let begin = try #require(testText.range(of: "// BEGIN TableModels: JSON storage\n"))
        let end = try #require(
            testText.range(of: "// END TableModels: JSON storage", range: begin.upperBound..<testText.endIndex))
        let code = testText[begin.upperBound..<end.lowerBound]
        #expect(articleText.contains("```swift\n\(code)```\n"))
    }
}
