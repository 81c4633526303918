import Foundation
import SQLiteSwiftly
import Testing

/// The DocC landing page's example is real code: the first test runs it, the second checks that the page shows
/// exactly the code between the markers below (indentation aside).
@Suite struct DocumentationTests {
    @Test("the landing page's example runs and gives the results it shows")
    func landingPageExample() throws {
        // BEGIN landing page example
        struct Planet: TableModel, Equatable {
            var id: Int
            var name: String
            var moons: Int?

            static let tableName = "planets"
            static let columns = [
                Column("id", Int.self, primaryKey: true),
                Column("name", String.self, unique: true),
                Column("moons", Int?.self),
            ]

            init(id: Int, name: String, moons: Int?) {
                self.id = id
                self.name = name
                self.moons = moons
            }

            init(row: borrowing Row) throws {
                id = try row[0]
                name = try row[1]
                moons = try row[2]
            }

            func encode(to encoder: inout RowEncoder) throws {
                try encoder.encode(id)
                try encoder.encode(name)
                try encoder.encode(moons)
            }
        }

        let db = try Connection.inMemory()
        try db.createTable(for: Planet.self)

        let insert = try db.makeInsertStatement(for: Planet.self)
        try db.transaction {
            try insert.insert(Planet(id: 1, name: "Mercury", moons: 0))
            try insert.insert(Planet(id: 3, name: "Earth", moons: 1))
            try insert.insert(Planet(id: 4, name: "Mars", moons: 2))
        }

        let withMoons = try db.fetchAll(Planet.self, where: "moons > ? ORDER BY id", [0])
        let names = withMoons.map(\.name)  // ["Earth", "Mars"]
        let moons = try db.fetchValue(Int.self, "SELECT sum(moons) FROM planets")  // 3
        // END landing page example

        #expect(names == ["Earth", "Mars"])
        #expect(moons == 3)
        #expect(try db.fetchAll(Planet.self).count == 3)
    }

    @Test("the landing page shows exactly the code the example test runs")
    func landingPageMatchesTest() throws {
        let testsFile = URL(fileURLWithPath: #filePath)
        let page = testsFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/SQLiteSwiftly/Documentation.docc/SQLiteSwiftly.md")
        let pageText = try String(contentsOf: page, encoding: .utf8)
        let testText = try String(contentsOf: testsFile, encoding: .utf8)

        let pageCode = try #require(Self.block(in: pageText, from: "```swift\n", to: "```\n"))
        let begin = "// BEGIN landing page example\n"
        let testCode = try #require(Self.block(in: testText, from: begin, to: "        // END landing page example"))
        let unindented = testCode.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }
            .joined(separator: "\n")
        #expect(unindented == pageCode)
        #expect(pageCode.contains("try db.createTable(for: Planet.self)"), "the extraction found the example")
    }

    /// The text between the first `start` marker and the next `end` marker.
    static func block(in text: String, from start: String, to end: String) -> String? {
        guard let startRange = text.range(of: start),
            let endRange = text.range(of: end, range: startRange.upperBound..<text.endIndex)
        else { return nil }
        return String(text[startRange.upperBound..<endRange.lowerBound])
    }
}
