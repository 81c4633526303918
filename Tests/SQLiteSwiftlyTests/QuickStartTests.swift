import Foundation
import SQLiteSwiftly
import Synchronization
import Testing

/// What the quick start printed: its `print` calls resolve to the function below, so that `swift test` shows
/// only the test runner's output and the test can check the lines.
private let printed = Mutex<[String]>([])

/// Records a line instead of writing it to standard output.
private func print(_ items: Any...) {
    printed.withLock { $0.append(items.map { "\($0)" }.joined(separator: " ")) }
}

@Suite struct QuickStartTests {
    /// Runs the README quick start and returns what it read, and where it put its database.
    ///
    /// The lines between the markers are the README's quick start, indented by 8 spaces here; in the README they
    /// follow `import Foundation` and `import SQLiteSwiftly`. They are local to this function, so that their
    /// `Planet` clashes with no other type of the test target.
    static func quickStart() throws -> (planets: [String], reopened: [String], directory: URL) {
        // README quick start: begin
        struct Planet: TableModel, Equatable {
            var id: Int
            var name: String
            var au: Double  // mean distance from the Sun, in astronomical units
            var moons: Int?  // nil: unknown

            static let tableName = "planets"
            static let columns = [
                Column("id", Int.self, primaryKey: true),
                Column("name", String.self, unique: true),
                Column("au", Double.self),
                Column("moons", Int?.self),
            ]

            init(id: Int, name: String, au: Double, moons: Int?) {
                self.id = id
                self.name = name
                self.au = au
                self.moons = moons
            }

            init(row: borrowing Row) throws {  // columns by index, in the order of `columns`
                id = try row[0]
                name = try row[1]
                au = try row[2]
                moons = try row[3]
            }

            func encode(to encoder: inout RowEncoder) throws {  // one value per column, same order
                try encoder.encode(id)
                try encoder.encode(name)
                try encoder.encode(au)
                try encoder.encode(moons)
            }
        }

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("planets.sqlite").path

        // A new database: this fails if anything at all exists at `path`.
        let db = try Connection(creating: path)
        try db.createTable(for: Planet.self)

        // One prepared INSERT, run once per row, in one transaction.
        let insert = try db.makeInsertStatement(for: Planet.self)
        try db.transaction {
            try insert.insert(Planet(id: 1, name: "Mercury", au: 0.387, moons: 0))
            try insert.insert(Planet(id: 3, name: "Earth", au: 1.0, moons: 1))
            try insert.insert(Planet(id: 4, name: "Mars", au: 1.524, moons: nil))
        }
        let planets: [Planet] = try db.fetchAll(Planet.self)
        print(planets.map(\.name))  // ["Mercury", "Earth", "Mars"]

        // The same file again: this fails if nothing, or something that is not a database, is at `path`.
        let again = try Connection(opening: path)
        let beyondEarth = try again.fetchAll(Planet.self, where: "au > ?", [1.0])
        print(beyondEarth.map(\.name))  // ["Mars"]
        // README quick start: end
        return (planets.map(\.name), beyondEarth.map(\.name), directory)
    }

    @Test("the README quick start runs and reads back what it wrote")
    func runsQuickStart() throws {
        let result = try Self.quickStart()
        defer { try? FileManager.default.removeItem(at: result.directory) }
        #expect(result.planets == ["Mercury", "Earth", "Mars"])
        #expect(result.reopened == ["Mars"])
        #expect(printed.withLock { $0 } == [#"["Mercury", "Earth", "Mars"]"#, #"["Mars"]"#])  // as its comments say
        let path = result.directory.appendingPathComponent("planets.sqlite").path
        do throws(SQLiteError) {
            _ = try Connection(creating: path)
            Issue.record("creating the quick start's database a second time succeeded")
        } catch {
            #expect(error.kind == .databaseAlreadyExists)
        }
    }

    @Test("README.md's quick start section contains this quick start verbatim")
    func readmeMatches() throws {
        let snippet = try #require(Self.snippet)
        let text = try #require(readme)
        #expect(text.contains(snippet), "README.md's quick start differs from the one in QuickStartTests.swift")
    }

    /// The lines between the markers in this file, without their 8-space indentation.
    static var snippet: String? {
        guard let source = try? String(contentsOfFile: #filePath, encoding: .utf8),
            let begin = source.range(of: "// README quick start: begin\n"),
            let end = source.range(of: "        // README quick start: end")
        else { return nil }
        return source[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }
            .joined(separator: "\n")
    }
}

/// The README at the package root, when the sources are still where this file was compiled from.
let readme: String? = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    return try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
}()
