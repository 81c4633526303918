// sqliteswiftly-models: prints TableModel structs for the tables of an existing SQLite database.
//
//     swift run sqliteswiftly-models shop.sqlite
//     swift run sqliteswiftly-models shop.sqlite --table "Order Details" --table Customers --output Models.swift
import ArgumentParser
import Foundation
import SQLiteSwiftly
import SQLiteSwiftlyModelGenerator

@main
struct ModelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sqliteswiftly-models",
        abstract: "Prints SQLiteSwiftly TableModel structs for the tables of an existing database.",
        discussion: """
            The database is opened read-only and never changed. Column types follow SQLite's affinity rules: \
            INTEGER → Int, TEXT → String, REAL → Double, BLOB or no type → Data, NUMERIC → Double (Bool for \
            BOOLEAN, String for DATE/TIME/DATETIME/TIMESTAMP). NOT NULL and primary-key columns are non-optional.
            """)

    @Argument(help: "The path of an existing SQLite database.")
    var database: String

    @Option(name: .customLong("table"), help: "A table to generate (repeatable; default: every table).")
    var tables: [String] = []

    @Option(name: .shortAndLong, help: "Write the models to this file instead of standard output.")
    var output: String?

    func run() throws {
        let source: String
        do {
            let connection = try Connection(opening: database, readOnly: true)
            source = try ModelGenerator(connection: connection).generate(tables: tables)
        } catch let error as SQLiteError {
            // A database or schema problem, not a usage mistake: say what it is, without the usage text.
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode.failure
        }
        if let output {
            try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } else {
            print(source, terminator: "")
        }
    }
}
