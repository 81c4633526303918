import Foundation
import Testing

/// The DocC articles show only code that runs, and the landing page reaches every public type.
///
/// An article's Swift example lives in a test, between two comments that name the article (its file name in
/// `Documentation.docc`, without `.md`) and the example:
///
///     // BEGIN GettingStarted: open modes
///     let created = try Connection(creating: path)
///     // END GettingStarted: open modes
///
/// The test runs those lines like any others and checks what they did. The checks here read every Swift file
/// under `Tests/` (so examples may live in any test target) and require that each `swift` code block of each
/// article is one of that article's marked examples, character for character once the BEGIN line's
/// indentation is removed, and that each marked example is shown by its article. A new article needs nothing
/// but its markers. The few blocks that cannot run are listed in ``untestedBlocks``, each with its reason.
@Suite struct DocumentationTests {
    /// Blocks that no test can run, by article and first line.
    static let untestedBlocks: [(article: String, firstLine: String, reason: String)] = [
        (
            "GettingStarted", "platforms: [.macOS(.v15), .iOS(.v18)],  // the library's minimums on Apple platforms",
            "an excerpt of a Package.swift manifest: SwiftPM reads it, not a test"
        ),
        (
            "GeneratingModels", "/// A row of the table \"Orders\".",
            "generated code: GeneratingModelsArticleTests compares it with the generator's real output"
        ),
        (
            "GeneratingModels", "/// A row of the view \"Order Totals\". A view is read-only: read it with",
            "generated code: GeneratingModelsArticleTests compares it with the generator's real output"
        ),
    ]

    @Test("every Swift block of every article is a marked example that a test runs, and every example is shown")
    func articlesShowTestedExamples() throws {
        let articles = try DocumentationSources.articles()
        #expect(articles.count >= 8, "the articles were not found in \(DocumentationSources.catalog.path)")
        let scan = try DocumentationSources.examples()
        #expect(scan.problems.isEmpty, "\(scan.problems.joined(separator: "\n"))")
        #expect(
            scan.examples.count >= 10, "the marked examples were not found under \(DocumentationSources.tests.path)")

        let articleNames = Set(articles.map(\.name))
        for example in scan.examples where !articleNames.contains(example.article) {
            Issue.record("\(example.location): the example names article \"\(example.article)\", which does not exist")
        }
        var usedExceptions = Set<Int>()
        for article in articles {
            let examples = scan.examples.filter { $0.article == article.name }
            var shown = Set<Int>()
            for (number, block) in DocumentationSources.swiftBlocks(in: article.text).enumerated() {
                let firstLine = block.prefix { $0 != "\n" }
                if let exception = Self.untestedBlocks.firstIndex(where: {
                    $0.article == article.name && $0.firstLine == firstLine
                }) {
                    usedExceptions.insert(exception)
                } else if let index = examples.firstIndex(where: { $0.text == block }) {
                    shown.insert(index)
                } else {
                    let hint = DocumentationSources.closestDifference(to: block, among: examples)
                    Issue.record(
                        "\(article.name).md, Swift block \(number + 1) (\"\(firstLine)\") is not a tested example\(hint)"
                    )
                }
            }
            for (index, example) in examples.enumerated() where !shown.contains(index) {
                Issue.record(
                    "\(example.location): example \"\(example.name)\" is not shown verbatim in \(article.name).md")
            }
        }
        for (index, exception) in Self.untestedBlocks.enumerated() where !usedExceptions.contains(index) {
            Issue.record("untested block \"\(exception.firstLine)\" of \(exception.article).md no longer exists")
        }
    }

    /// Articles whose examples do not yet run as one walk-through, each with its reason.
    static let separateExamples: [(article: String, reason: String)] = []

    /// A reader follows an article from its first block: so does its test. Each article's examples are in one
    /// test file, declarations outside any function first, then the others in one test function, each in the
    /// article's order, so that every block runs after the blocks the article shows before it.
    @Test("each article's examples run in the article's order, in one file and one test function")
    func articlesRunInOrder() throws {
        let examples = try DocumentationSources.examples().examples
        for article in try DocumentationSources.articles()
        where !Self.separateExamples.contains(where: { $0.article == article.name }) {
            let shown: [(block: Int, example: DocumentationSources.Example)] =
                DocumentationSources.swiftBlocks(in: article.text).enumerated().compactMap { number, block in
                    examples.first { $0.article == article.name && $0.text == block }.map { (number + 1, $0) }
                }
            guard let first = shown.first else { continue }
            let inside = shown.filter { $0.example.function != nil }
            for (block, example) in shown where example.file != first.example.file {
                let wanted = "not \(first.example.file), with block \(first.block)"
                Issue.record(
                    "\(article.name).md, Swift block \(block): its example is in \(example.location), \(wanted)")
            }
            for (block, example) in inside where example.function != inside[0].example.function {
                let wanted = "function \(inside[0].example.function ?? ""), with block \(inside[0].block)"
                Issue.record("\(article.name).md, Swift block \(block): \(example.location) is not in \(wanted)")
            }
            let sequence = shown.filter { $0.example.function == nil } + inside
            for (previous, next) in zip(sequence, sequence.dropFirst())
            where next.example.file == previous.example.file && next.example.line < previous.example.line {
                let order = "but its example (\(next.example.location)) is before block \(previous.block)'s"
                Issue.record("\(article.name).md, Swift block \(next.block) follows block \(previous.block), \(order)")
            }
        }
        for exception in Self.separateExamples {
            let article = try DocumentationSources.articles().first { $0.name == exception.article }
            #expect(article != nil, "separateExamples names \(exception.article).md, which no longer exists")
        }
    }

    @Test("the landing page's Topics list every article and every public type of the module")
    func landingPageReachesEverything() throws {
        let articles = try DocumentationSources.articles()
        let landing = try #require(articles.first { $0.name == "SQLiteSwiftly" })
        let topics = try #require(landing.text.range(of: "\n## Topics\n")).upperBound
        let listed = Set(
            landing.text[topics...].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        for article in articles where article.name != "SQLiteSwiftly" {
            #expect(listed.contains("- <doc:\(article.name)>"), "the landing page's Topics lack <doc:\(article.name)>")
        }
        let types = try DocumentationSources.publicTypes()
        #expect(types.count >= 30, "the public types were not found in \(DocumentationSources.module.path)")
        for type in types {
            #expect(listed.contains("- ``\(type)``"), "the landing page's Topics lack ``\(type)``")
        }
    }

    @Test("the extraction finds blocks and markers as written, and refuses broken markers")
    func extraction() {
        let markdown =
            "Text\n\n```swift\nlet a = 1\n\nlet b = 2\n```\n\n```sh\nls\n```\n\n- item:\n  ```swift\n  f()\n  ```\n"
        #expect(DocumentationSources.swiftBlocks(in: markdown) == ["let a = 1\n\nlet b = 2", "f()"])

        let source = [
            "    // BEGIN Article: one", "    let a = 1", "", "        f()  // BEGIN: a comment",
            "    // END Article: one",
            "    // BEGIN IMMEDIATE takes the write lock: not a marker",
            "    // BEGIN Article: two", "    g()", "    // END Article: three",
            "    // BEGIN Article: four", "  h()", "    // END Article: four",
        ].joined(separator: "\n")
        let scan = DocumentationSources.examples(in: source, file: "File.swift")
        #expect(scan.examples.map(\.name) == ["one"])
        #expect(scan.examples.first?.text == "let a = 1\n\n    f()  // BEGIN: a comment")
        #expect(scan.examples.first?.location == "File.swift:1")
        #expect(scan.problems.count == 2)
    }
}

/// Reads the articles, the marked examples in the tests, and the module's public types from the source tree.
enum DocumentationSources {
    /// One marked example: the lines between `// BEGIN Article: name` and `// END Article: name`.
    struct Example {
        var article: String
        var name: String
        var text: String
        /// The file (relative to the package) and line of the BEGIN marker.
        var file: String
        var line: Int
        /// The function whose body holds the example, or `nil` for a declaration outside any function.
        var function: String?

        /// `file:line` of the BEGIN marker.
        var location: String { "\(file):\(line)" }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let catalog = root.appendingPathComponent("Sources/SQLiteSwiftly/Documentation.docc")
    static let module = root.appendingPathComponent("Sources/SQLiteSwiftly")
    static let tests = root.appendingPathComponent("Tests")

    /// Every article of the catalog, by name (the file name without `.md`), sorted.
    static func articles() throws -> [(name: String, text: String)] {
        try files(in: catalog, ending: ".md").map { url in
            (url.deletingPathExtension().lastPathComponent, try String(contentsOf: url, encoding: .utf8))
        }
    }

    /// Every marked example of every Swift file under `Tests/`, and what is wrong with the markers.
    static func examples() throws -> (examples: [Example], problems: [String]) {
        var all: [Example] = []
        var problems: [String] = []
        for url in try files(in: tests, ending: ".swift") {
            let file = String(url.path.dropFirst(root.path.count + 1))
            let found = examples(in: try String(contentsOf: url, encoding: .utf8), file: file)
            all += found.examples
            problems += found.problems
        }
        var seen = Set<String>()
        for example in all where !seen.insert(example.article + ": " + example.name).inserted {
            problems.append("\(example.location): a second example named \"\(example.article): \(example.name)\"")
        }
        return (all, problems)
    }

    /// The marked examples of one source file.
    static func examples(in source: String, file: String) -> (examples: [Example], problems: [String]) {
        var examples: [Example] = []
        var problems: [String] = []
        var open: (article: String, name: String, indent: Int, line: Int, lines: [String], broken: Bool)?
        let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false)
        for (number, line) in sourceLines.enumerated() {
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            if let (isBegin, article, name) = marker(trimmed) {
                if isBegin {
                    if let current = open {
                        problems.append("\(file):\(current.line): example \"\(current.name)\" has no END marker")
                    }
                    open = (article, name, indent, number + 1, [], false)
                } else if let current = open, current.article == article, current.name == name {
                    open = nil
                    guard !current.broken else { continue }
                    examples.append(
                        Example(
                            article: article, name: name, text: current.lines.joined(separator: "\n"), file: file,
                            line: current.line,
                            function: enclosingFunction(of: current.line - 1, indent: current.indent, in: sourceLines)))
                } else {
                    problems.append("\(file):\(number + 1): END \(article): \(name) closes no open example")
                    open = nil
                }
            } else if let current = open {
                if trimmed.isEmpty {
                    open?.lines.append("")
                } else if indent < current.indent {
                    problems.append("\(file):\(number + 1): a line of \"\(current.name)\" is left of its BEGIN marker")
                    open?.broken = true
                } else {
                    open?.lines.append(String(line.dropFirst(current.indent)))
                }
            }
        }
        if let current = open {
            problems.append("\(file):\(current.line): example \"\(current.name)\" has no END marker")
        }
        return (examples, problems)
    }

    /// The name of the innermost function around line `index` (0-based, indented by `indent`), found by walking up
    /// to each less indented line that opens the scope around it; `nil` when no `func` opens one.
    static func enclosingFunction(of index: Int, indent: Int, in lines: [Substring]) -> String? {
        var indent = indent
        for line in lines[..<index].reversed() {
            let trimmed = line.drop { $0 == " " }
            guard !trimmed.isEmpty, line.count - trimmed.count < indent else { continue }
            indent = line.count - trimmed.count
            if let keyword = trimmed.range(of: "func ") {
                return String(trimmed[keyword.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            }
        }
        return nil
    }

    /// The parts of a `// BEGIN Article: name` or `// END Article: name` line, or `nil` for any other line (such
    /// as a comment `// BEGIN IMMEDIATE ...`): the article is one word, the name is not empty.
    static func marker(_ line: Substring) -> (isBegin: Bool, article: String, name: String)? {
        let isBegin = line.hasPrefix("// BEGIN ")
        guard isBegin || line.hasPrefix("// END ") else { return nil }
        let label = line.dropFirst(isBegin ? 9 : 7)
        guard let colon = label.range(of: ": ") else { return nil }
        let article = label[..<colon.lowerBound]
        let name = label[colon.upperBound...]
        guard !article.isEmpty, !article.contains(" "), !name.isEmpty else { return nil }
        return (isBegin, String(article), String(name))
    }

    /// The contents of the fenced `swift` blocks of a Markdown text, without the fences' indentation.
    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var open: (indent: Int, lines: [String])?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            if let current = open {
                if trimmed == "```" {
                    blocks.append(current.lines.joined(separator: "\n"))
                    open = nil
                } else {
                    let removable = min(current.indent, line.prefix { $0 == " " }.count)
                    open?.lines.append(String(line.dropFirst(removable)))
                }
            } else if trimmed == "```swift" {
                open = (indent, [])
            }
        }
        return blocks
    }

    /// The names of the module's top-level public types (protocols included).
    static func publicTypes() throws -> [String] {
        let kinds = [
            "public struct ", "public enum ", "public final class ", "public class ", "public actor ",
            "public protocol ",
        ]
        var names: [String] = []
        for url in try files(in: module, ending: ".swift") {
            for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
                guard let kind = kinds.first(where: { line.hasPrefix($0) }) else { continue }
                names.append(String(line.dropFirst(kind.count).prefix { $0.isLetter || $0.isNumber || $0 == "_" }))
            }
        }
        return names.sorted()
    }

    /// Where a block differs from the example that starts like it, to make a failure easy to fix.
    static func closestDifference(to block: String, among examples: [Example]) -> String {
        let blockLines = block.split(separator: "\n", omittingEmptySubsequences: false)
        guard let example = examples.first(where: { $0.text.prefix { $0 != "\n" } == blockLines.first ?? "" }) else {
            return ": mark it in a test as // BEGIN Article: name ... // END Article: name"
        }
        let exampleLines = example.text.split(separator: "\n", omittingEmptySubsequences: false)
        let line =
            zip(blockLines, exampleLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(blockLines.count, exampleLines.count)
        let shown = line < blockLines.count ? String(blockLines[line]) : "(end of block)"
        let tested = line < exampleLines.count ? String(exampleLines[line]) : "(end of example)"
        return "; it differs from example \"\(example.name)\" (\(example.location)) at its line \(line + 1): "
            + "the article shows \"\(shown)\", the test runs \"\(tested)\""
    }

    /// The files under `directory` whose names end with `suffix`, sorted, skipping hidden and build folders.
    private static func files(in directory: URL, ending suffix: String) throws -> [URL] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        else { return [] }
        var found: [URL] = []
        for case let url as URL in enumerator {
            if url.lastPathComponent == ".build" { enumerator.skipDescendants() }
            if url.lastPathComponent.hasSuffix(suffix) { found.append(url) }
        }
        return found.sorted { $0.path < $1.path }
    }
}
