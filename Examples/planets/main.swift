// The planets example: create a new database, create a table from a model, insert rows through one
// reused InsertStatement, read them back as structs, and open the database again as an existing one.
//
//     swift run planets            # in a new temporary directory, removed at the end
//     swift run planets DIRECTORY  # in DIRECTORY, kept (planets.sqlite must not exist there yet)
import Foundation
import SQLiteSwiftly

/// A check of the example itself that failed.
struct ExampleFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

func run() throws {
    let directory: URL
    let temporary = CommandLine.arguments.count < 2
    if temporary {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "planets-\(UUID().uuidString)", isDirectory: true)
    } else {
        directory = URL(fileURLWithPath: CommandLine.arguments[1], isDirectory: true)
    }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer {
        if temporary { try? FileManager.default.removeItem(at: directory) }
    }
    let path = directory.appendingPathComponent("planets.sqlite").path

    // 1. A new database: this fails if anything already exists at `path`.
    let db = try Connection(creating: path)
    print("created \(path)")

    // 2. The table, from the model.
    try db.createTable(for: Planet.self)

    // 3. One prepared insert, reused for every row, in one transaction.
    let insert = try db.makeInsertStatement(for: Planet.self)
    try db.transaction {
        for planet in Planet.solarSystem { try insert.insert(planet) }
    }

    // 4. Every row back, as typed structs.
    let planets = try db.fetchAll(Planet.self)
    for planet in planets {
        let moons = planet.moons.map { $0 == 1 ? "1 moon" : "\($0) moons" } ?? "moons unknown"
        print("\(planet.name.padding(toLength: 8, withPad: " ", startingAt: 0)) \(planet.au) AU, \(moons)")
    }

    // 5. The same file again, as an existing database; a second create must fail.
    let again = try Connection(opening: path, readOnly: true)
    let count = try again.fetchValue(Int.self, "SELECT count(*) FROM planets") ?? 0
    print("reopened read-only: \(count) planets")
    do {
        _ = try Connection(creating: path)
        throw ExampleFailure(message: "creating over an existing database succeeded")
    } catch let error as SQLiteError {
        guard error.kind == .databaseAlreadyExists else { throw error }
        print("creating again is refused: \(error)")
    }
    guard planets == Planet.solarSystem else {
        throw ExampleFailure(message: "the planets read back differ from those inserted")
    }
}

do {
    try run()
} catch {
    print("error: \(error)")
    exit(1)
}
