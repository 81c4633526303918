import Foundation
import Testing

/// The README followed top to bottom, as a new user would: its Swift blocks, pasted in order into one `main.swift`,
/// are the `ReadmeWalkthrough` executable, which must build and print what the README's comments say.
///
/// A printed value is shown in the README either as the comment at the end of the `print` line
/// (`print(count)  // 1`), or, when that line has none, as the whole-line comment right under it.
@Suite struct ReadmeWalkthroughTests {
    static let source = DocumentationSources.tests.appendingPathComponent("ReadmeWalkthrough/main.swift")

    /// The first lines of the generated `main.swift`.
    static let header = """
        // Generated from README.md: its Swift blocks, in order, as a reader pastes them into one main.swift.
        // ReadmeWalkthroughTests checks that this file is the README's blocks, runs it, and compares what it prints
        // with the README's comments. Edit README.md, then regenerate this file with:
        //     SQLITESWIFTLY_WRITE_README_WALKTHROUGH=1 swift test --filter ReadmeWalkthroughTests
        // (Not linted: the README's second block imports the macro product where a reader pastes it, mid-file.)
        // swift-format-ignore-file


        """

    /// The README's Swift blocks, except the excerpt of a `Package.swift` manifest, which SwiftPM reads.
    static func readmeBlocks() throws -> [String] {
        let readme = try String(
            contentsOf: DocumentationSources.root.appendingPathComponent("README.md"), encoding: .utf8)
        return DocumentationSources.swiftBlocks(in: readme).filter { !$0.hasPrefix(".package(") }
    }

    /// The program the README's blocks make.
    static func program() throws -> String {
        try header + readmeBlocks().joined(separator: "\n\n") + "\n"
    }

    /// The lines the README says its blocks print, in order.
    static func expectedOutput(of blocks: [String]) -> [String] {
        var lines: [String] = []
        for block in blocks {
            let blockLines = block.split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in blockLines.enumerated() where line.contains("print(") {
                if let comment = line.range(of: "  // ") {
                    lines.append(String(line[comment.upperBound...]))
                } else if index + 1 < blockLines.count, blockLines[index + 1].hasPrefix("// ") {
                    lines.append(String(blockLines[index + 1].dropFirst(3)))
                } else {
                    lines.append("(the README shows no output for: \(line))")
                }
            }
        }
        return lines
    }

    @Test("Tests/ReadmeWalkthrough/main.swift is the README's Swift blocks in order, and shows output for each print")
    func programIsTheReadme() throws {
        let program = try Self.program()
        if ProcessInfo.processInfo.environment["SQLITESWIFTLY_WRITE_README_WALKTHROUGH"] == "1" {
            try program.write(to: Self.source, atomically: true, encoding: .utf8)
        }
        let current = try String(contentsOf: Self.source, encoding: .utf8)
        #expect(
            current == program,
            """
            \(Self.source.path) is not the README's Swift blocks in order; regenerate it with \
            SQLITESWIFTLY_WRITE_README_WALKTHROUGH=1 swift test --filter ReadmeWalkthroughTests
            """)
        let expected = Self.expectedOutput(of: try Self.readmeBlocks())
        #expect(expected.count >= 8, "the README's shown outputs were not found")
        for line in expected where line.hasPrefix("(the README shows no output") {
            Issue.record("\(line)")
        }
    }

    @Test("the README's program runs, on a database it creates, and prints exactly what the README shows")
    func programPrintsWhatTheReadmeShows() throws {
        let executable = try #require(
            builtExecutable("ReadmeWalkthrough"), "the ReadmeWalkthrough executable was not built next to the tests")
        let directory = try TemporaryDirectory()  // the program's temporary directory: TMPDIR
        let run = try runCapturingOutput([executable], environment: ["TMPDIR=" + directory.url.path])
        #expect(run.status == 0, "the README's program failed:\n\(run.output)")
        let printed = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { !$0.isEmpty }
        #expect(printed == Self.expectedOutput(of: try Self.readmeBlocks()))
    }

    @Test("a shown output is the print line's comment, or the comment line under it")
    func outputExtraction() {
        let blocks = [
            "let a = 1\nprint(a)  // 1\n// not output\nprint(a,\n  a)", "print([a])\n// [1]\nlet b = 2  // 2",
        ]
        #expect(
            Self.expectedOutput(of: blocks) == ["1", "(the README shows no output for: print(a,)", "[1]"])
    }
}
