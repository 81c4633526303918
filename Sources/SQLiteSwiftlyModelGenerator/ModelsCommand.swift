import ArgumentParser
import Foundation
import SQLiteSwiftly

/// The `sqliteswiftly-models` command: parses the arguments, runs ``ModelGenerator``, writes the source and
/// reports what it wrote.
///
/// The executable target only calls `ModelsCommand.main()`; the command lives here so that the tests can run it
/// with ``perform(standardOutput:standardError:)`` and read what it writes.
package struct ModelsCommand: ParsableCommand {
    /// The command's name, summary and help text.
    package static let configuration = CommandConfiguration(
        commandName: "sqliteswiftly-models",
        abstract: "Writes SQLiteSwiftly row types for the tables and views of an existing database.",
        discussion: """
            The database is opened read-only and never changed. Each table becomes a TableModel struct, each view \
            a read-only RowDecodable struct, named after it in the singular (Customers -> Customer). Column types \
            follow the declared types: INTEGER -> Int, TEXT -> String, REAL -> Double, BLOB -> Data, NUMERIC -> \
            Double, BOOLEAN -> Bool, DATE/DATETIME -> String, no type or another name -> SQLiteValue; the rows are \
            read once, and a column holding values its type cannot read becomes a SQLiteValue. What a model cannot \
            declare (CHECK, WITHOUT ROWID, partial indexes, triggers...) is listed in a comment above its \
            type and in the summary printed for each table. An INTEGER PRIMARY KEY (the row id) is an optional \
            Int, nil in a new row: SQLite numbers the row when it is inserted. SQLiteSwiftly's own tables \
            (sqliteswiftly_*) and SQLite's (sqlite_*) are left out.

            EXAMPLES:
              Print the types of every table and view (the summary goes to standard error):
                sqliteswiftly-models shop.sqlite

              Write the types of two tables to a file, replacing it if it exists:
                sqliteswiftly-models shop.sqlite --table "Order Details" \\
                    --table Customers --output Models.swift --force

              Write public types for a library target, leaving out the audit tables:
                sqliteswiftly-models shop.sqlite --access public --exclude 'audit_*' \\
                    --output Sources/ShopModels/Models.swift
            """)

    @Argument(help: "The path of an existing SQLite database.")
    var database: String

    @Option(name: .customLong("table"), help: "A table or view to generate (repeatable; default: all of them).")
    var tables: [String] = []

    @Option(
        name: .customLong("exclude"),
        help: ArgumentHelp(
            "A table or view to leave out (repeatable); * and ? are wildcards, ASCII case is ignored.",
            discussion: "sqliteswiftly_* and sqlite_* tables are always left out; a table named with --table is not."))
    var excludedTables: [String] = []

    @Option(help: "The access level of the generated types and members: internal, public or package.")
    var access: AccessLevel = .internal

    @Option(name: .shortAndLong, help: "Write the types to this file instead of standard output.")
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    @Flag(help: "Name each type after its table exactly (Customers), instead of in the singular (Customer).")
    var keepTableNames = false

    @Flag(help: "Choose the types from the declared types alone, without reading the rows.")
    var schemaOnly = false

    /// Creates a command with default values, as ArgumentParser requires.
    package init() {}

    /// Runs the command with the process's standard output and error.
    ///
    /// - Throws: `ExitCode.failure` after writing an error to standard error.
    package func run() throws {
        let succeeded = perform(
            standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
            standardError: { FileHandle.standardError.write(Data($0.utf8)) })
        if !succeeded { throw ExitCode.failure }
    }

    /// Generates the types, writes them, and reports what was written or what went wrong.
    ///
    /// - Parameters:
    ///   - standardOutput: Writes text to standard output, as given.
    ///   - standardError: Writes text to standard error, as given.
    /// - Returns: Whether it succeeded; on failure, a line starting with `error:` was written to standard error.
    package func perform(standardOutput: (String) -> Void, standardError: (String) -> Void) -> Bool {
        func fail(_ message: String) -> Bool {
            standardError("error: \(message)\n")
            return false
        }
        if let output {
            // lstat, not fileExists: a link counts as something there, even one that points nowhere.
            var status = stat()
            if lstat(output, &status) == 0 {
                if status.st_mode & S_IFMT == S_IFDIR {
                    return fail("\(output) is a directory; give the path of a Swift file")
                }
                if !force { return fail("\(output) already exists; pass --force to replace it") }
            }
        }
        let generated: GeneratedModels
        do {
            let connection = try Connection(opening: database, readOnly: true)
            let options = ModelGenerator.Options(
                singularTypeNames: !keepTableNames, checksStoredValues: !schemaOnly, access: access,
                excludedTables: excludedTables)
            generated = try ModelGenerator(connection: connection, options: options).generate(tables: tables)
        } catch {
            // A database or schema problem, not a usage mistake: say what it is, without the usage text.
            return fail("\(error)")
        }
        let report = generated.summary.map { "  \($0)\n" }.joined()
        guard let output else {
            standardOutput(generated.source)
            standardError("Generated \(Self.counts(generated)):\n" + report)
            return true
        }
        do {
            try Data(generated.source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            return fail("cannot write \(output): \(error.localizedDescription)")
        }
        standardOutput("Wrote \(Self.counts(generated)) to \(output):\n" + report)
        return true
    }

    /// `9 types (7 tables, 2 views)`.
    static func counts(_ generated: GeneratedModels) -> String {
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        let total = generated.tableCount + generated.viewCount
        return "\(plural(total, "type")) (\(plural(generated.tableCount, "table")), "
            + "\(plural(generated.viewCount, "view")))"
    }
}

extension AccessLevel: ExpressibleByArgument {}
