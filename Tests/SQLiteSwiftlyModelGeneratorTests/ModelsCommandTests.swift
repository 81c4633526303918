import Foundation
import SQLiteSwiftly
import Testing

@testable import SQLiteSwiftlyModelGenerator

/// The command line: arguments, where the output and the messages go, and when it refuses to run.
@Suite struct ModelsCommandTests {
    /// What one run wrote, and whether it succeeded.
    struct Run {
        var succeeded: Bool
        var standardOutput = ""
        var standardError = ""
    }

    func run(_ arguments: [String]) throws -> Run {
        let command = try ModelsCommand.parse(arguments)
        var output = ""
        var errors = ""
        let succeeded = command.perform(standardOutput: { output += $0 }, standardError: { errors += $0 })
        return Run(succeeded: succeeded, standardOutput: output, standardError: errors)
    }

    @Test("without --output the source goes to standard output and the summary to standard error")
    func standardOutput() throws {
        let directory = try TemporaryDirectory()
        let database = try ShopFixture.database(in: directory)
        let result = try run([database, "--table", "Order Details", "--table", "Order Totals"])
        #expect(result.succeeded)
        #expect(result.standardOutput.contains("struct OrderDetail: Equatable, Sendable {"))
        #expect(result.standardOutput.contains("struct OrderTotal: Equatable, Sendable {"))
        #expect(
            result.standardError == """
                Generated 2 types (1 table, 1 view):
                  table "Order Details" -> OrderDetail: 5 columns; left as comments: WITHOUT ROWID, CHECK on "Quantity"
                  view "Order Totals" -> OrderTotal (read-only): 4 columns

                """)
    }

    @Test("--output writes the file and says what it wrote; an existing file needs --force")
    func outputFile() throws {
        let directory = try TemporaryDirectory()
        let database = try ShopFixture.database(in: directory)
        let path = directory.path("Models.swift")
        let first = try run([database, "--output", path])
        #expect(first.succeeded)
        #expect(first.standardError.isEmpty)
        #expect(
            first.standardOutput.hasPrefix("Wrote 14 types (12 tables, 2 views) to \(path):\n  table \"2020 sales\""))
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == (try String(contentsOfFile: ShopFixture.generatedPath, encoding: .utf8)))

        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        let refused = try run([database, "-o", path, "--table", "people"])
        #expect(!refused.succeeded)
        #expect(refused.standardOutput.isEmpty)
        #expect(refused.standardError == "error: \(path) already exists; pass --force to replace it\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me", "the file is untouched")
        // A link is something there too, even one that points nowhere.
        let link = directory.path("Link.swift")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory.path("nowhere.swift"))
        let refusedLink = try run([database, "-o", link, "--table", "people"])
        #expect(!refusedLink.succeeded)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == directory.path("nowhere.swift"))

        let forced = try run([database, "-o", path, "--table", "people", "--force"])
        #expect(forced.succeeded)
        #expect(
            forced.standardOutput
                == "Wrote 1 type (1 table, 0 views) to \(path):\n  table \"people\" -> Person: 2 columns\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("struct Person:"))
    }

    @Test("--keep-table-names and --schema-only change the names and the types")
    func options() throws {
        let directory = try TemporaryDirectory()
        let database = try ShopFixture.database(in: directory)
        let result = try run([database, "--table", "Orders", "--keep-table-names", "--schema-only"])
        #expect(result.standardOutput.contains("struct Orders: Equatable, Sendable {"))
        #expect(result.standardOutput.contains("    var shippedDate: String?\n"), "the stored integer is not looked at")
    }

    @Test("errors go to standard error, without the usage text, and the run fails")
    func errors() throws {
        let directory = try TemporaryDirectory()
        let database = try ShopFixture.database(in: directory)
        let missing = try run([directory.path("missing.sqlite")])
        #expect(!missing.succeeded && missing.standardOutput.isEmpty)
        #expect(missing.standardError.hasPrefix("error: database not found"))
        #expect(!missing.standardError.contains("USAGE"))

        let unknown = try run([database, "--table", "Shippers"])
        #expect(unknown.standardError.hasPrefix(#"error: misuse: the table "Shippers" does not exist"#))

        let notADatabase = directory.path("notes.txt")
        try Data(String(repeating: "not a database ", count: 100).utf8).write(to: URL(fileURLWithPath: notADatabase))
        let garbage = try run([notADatabase])
        #expect(!garbage.succeeded && garbage.standardError.hasPrefix("error: "))

        let intoDirectory = try run([database, "--output", directory.path("")])
        #expect(intoDirectory.standardError.hasSuffix("is a directory; give the path of a Swift file\n"))

        let unwritable = try run([database, "--output", directory.path("no/such/dir/Models.swift")])
        #expect(!unwritable.succeeded)
        #expect(unwritable.standardError.hasPrefix("error: cannot write "))
    }

    @Test("--help shows the options and an example")
    func help() {
        let help = ModelsCommand.helpMessage()
        #expect(help.contains("EXAMPLES:"))
        #expect(help.contains("sqliteswiftly-models shop.sqlite --table \"Order Details\""))
        for option in ["--output", "--force", "--keep-table-names", "--schema-only", "--table"] {
            #expect(help.contains(option), "\(option)")
        }
        #expect(throws: (any Error).self) { try ModelsCommand.parse([]) }
    }
}
