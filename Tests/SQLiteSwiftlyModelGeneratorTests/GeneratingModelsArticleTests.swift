import Foundation
import SQLiteSwiftly
import Testing

@testable import SQLiteSwiftlyModelGenerator

/// The DocC article `GeneratingModels.md` shows real runs: its command runs and prints what the article shows,
/// its generated code is the checked-in output, and its Swift example is the code the first test runs.
@Suite struct GeneratingModelsArticleTests {
    static let articlePath = ShopFixture.packageRoot.appendingPathComponent(
        "Sources/SQLiteSwiftly/Documentation.docc/GeneratingModels.md"
    ).path

    /// The article's fenced code blocks, in order, each with its language (empty for a plain block).
    static func codeBlocks() throws -> [(language: String, code: String)] {
        let lines = try String(contentsOfFile: articlePath, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        var blocks: [(language: String, code: String)] = []
        var current: (language: String, lines: [Substring])?
        for line in lines where line.hasPrefix("```") || current != nil {
            if line.hasPrefix("```") {
                if let open = current {
                    blocks.append((open.language, open.lines.map { $0 + "\n" }.joined()))
                    current = nil
                } else {
                    current = (String(line.dropFirst(3)), [])
                }
            } else {
                current?.lines.append(line)
            }
        }
        return blocks
    }

    @Test("the article's Swift example runs against the fixture")
    func usageExample() throws {
        let directory = try TemporaryDirectory()
        let path = try ShopFixture.database(in: directory)
        // BEGIN GeneratingModels: usage
        let db = try Connection(opening: path)
        try db.verify(Order.self)

        let status = "open"
        let openOrders = try db.fetchAll(Order.self, where: "\"Status\" = \(status)")
        let lines = try db.fetchAll(OrderDetail.self, where: "\"OrderID\" = \(10) ORDER BY \"ProductID\"")
        let totals = try db.fetchAll(OrderTotal.self, "SELECT * FROM \(identifier: OrderTotal.viewName)")

        let insert = try db.makeInsertStatement(for: OrderDetail.self)
        try insert.insert(OrderDetail(orderID: 11, productID: 1, unitPrice: 4.5, quantity: 3, discount: 0))

        let herbs = Category(id: nil, name: "Herbs", picture: nil, default: false)  // id nil: SQLite numbers it
        let herbsID = try db.makeInsertStatement(for: Category.self).insert(herbs)
        // END GeneratingModels: usage
        #expect(openOrders.map(\.orderID) == [11])
        #expect(lines.map(\.quantity) == [2, 10])
        #expect(totals.count == 3)
        #expect(try db.fetchAll(OrderDetail.self, where: "\"OrderID\" = \(11)").count == 2)
        #expect(try db.fetchOne(Category.self, where: "id = \(herbsID)")?.name == "Herbs")
    }

    @Test("the article shows exactly the Swift example the test runs")
    func usageExampleMatches() throws {
        let test = try String(contentsOfFile: #filePath, encoding: .utf8)
        let begin = try #require(test.range(of: "// BEGIN GeneratingModels: usage\n"))
        let end = try #require(
            test.range(of: "        // END GeneratingModels: usage", range: begin.upperBound..<test.endIndex))
        let code = test[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }.joined(separator: "\n")
        let swiftBlocks = try Self.codeBlocks().filter { $0.language == "swift" }.map(\.code)
        #expect(swiftBlocks.last == code)
    }

    @Test("the article's command runs and prints exactly the summary the article shows")
    func commandAndSummary() throws {
        let blocks = try Self.codeBlocks()
        let command = try #require(blocks.first { $0.language == "sh" }?.code)
        let prefix = "swift run sqliteswiftly-models "
        #expect(command.hasPrefix(prefix))
        let arguments = command.dropFirst(prefix.count).split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(arguments == ["shop.sqlite", "--output", "Sources/Shop/Models.swift"])

        let directory = try TemporaryDirectory()
        let database = try ShopFixture.database(in: directory)
        let output = directory.path("Models.swift")
        let substituted = arguments.map {
            $0 == "shop.sqlite" ? database : $0 == "Sources/Shop/Models.swift" ? output : $0
        }
        var printed = ""
        var errors = ""
        let succeeded = try ModelsCommand.parse(substituted).perform(
            standardOutput: { printed += $0 }, standardError: { errors += $0 })
        #expect(succeeded && errors.isEmpty)
        let shown = try #require(blocks.first { $0.language.isEmpty }?.code)
        #expect(printed.replacingOccurrences(of: output, with: "Sources/Shop/Models.swift") == shown)
    }

    @Test("the article's command for a shared library target writes public types and leaves out the audit table")
    func sharedLibraryCommand() throws {
        let commands = try Self.codeBlocks().filter { $0.language == "sh" }.map(\.code)
        let command = try #require(commands.first { $0.contains("--access public") })
        let arguments = command.dropFirst("swift run sqliteswiftly-models ".count)
            .split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(
            arguments == [
                "shop.sqlite", "--access", "public", "--exclude", "'audit*'", "--output",
                "Sources/ShopModels/Models.swift",
            ])
        let directory = try TemporaryDirectory()
        let database = try ShopFixture.database(in: directory)
        let output = directory.path("Models.swift")
        let substituted = arguments.map {
            $0 == "shop.sqlite" ? database : $0 == "'audit*'" ? "audit*" : $0.hasSuffix("Models.swift") ? output : $0
        }
        var printed = ""
        let succeeded = try ModelsCommand.parse(substituted).perform(
            standardOutput: { printed += $0 }, standardError: { _ in })
        #expect(succeeded)
        #expect(printed.contains(#"Excluded table "audit log": matches --exclude "audit*"."#))
        let source = try String(contentsOfFile: output, encoding: .utf8)
        #expect(source.contains("public struct Order: Equatable, Sendable {"))
        #expect(!source.contains("AuditLog"))
    }

    @Test("the generated code the article shows is the checked-in output, which this target compiles")
    func generatedCode() throws {
        let generated = try String(contentsOfFile: ShopFixture.generatedPath, encoding: .utf8)
        let swiftBlocks = try Self.codeBlocks().filter { $0.language == "swift" }.dropLast().map(\.code)
        #expect(swiftBlocks.count == 2)
        for block in swiftBlocks {
            #expect(generated.contains(block), "\(block.prefix(60))")
        }
    }
}
