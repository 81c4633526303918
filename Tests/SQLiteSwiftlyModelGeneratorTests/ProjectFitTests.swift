import Foundation
import SQLiteSwiftly
import Testing

@testable import SQLiteSwiftlyModelGenerator

/// What makes the generated code fit a real project: an access level for a shared library target, tables left
/// out (the library's own always), and row ids that SQLite assigns.
@Suite struct ProjectFitTests {
    static let schema = """
        CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL);
        CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE codes (code TEXT PRIMARY KEY NOT NULL, label TEXT);
        CREATE TABLE audit_2024 (line TEXT);
        CREATE TABLE Audit_2025 (line TEXT);
        CREATE TABLE sqliteswiftly_migrations (identifier TEXT PRIMARY KEY NOT NULL, appliedAt TEXT NOT NULL);
        CREATE TABLE sqliteswiftly_other (x);
        CREATE VIEW audit_all AS SELECT line FROM audit_2024 UNION ALL SELECT line FROM Audit_2025;
        """

    func generate(_ options: ModelGenerator.Options = .init(), tables: [String]? = nil) throws -> GeneratedModels {
        let directory = try TemporaryDirectory()
        let db = try Connection(opening: try directory.database(schema: Self.schema), readOnly: true)
        return try ModelGenerator(connection: db, options: options).generate(tables: tables)
    }

    @Test("the library's own sqliteswiftly_* tables are left out by default, each listed in a comment")
    func bookkeepingExcluded() throws {
        let generated = try generate()
        #expect(generated.types.map(\.name) == ["audit_2024", "Audit_2025", "codes", "notes", "tags", "audit_all"])
        #expect(
            generated.skipped == [
                #"Excluded table "sqliteswiftly_migrations": SQLiteSwiftly's own bookkeeping."#,
                #"Excluded table "sqliteswiftly_other": SQLiteSwiftly's own bookkeeping."#,
            ])
        #expect(generated.source.contains(#"// Excluded table "sqliteswiftly_migrations": SQLiteSwiftly's own"#))
    }

    @Test("--exclude patterns match whole names with * and ?, ignoring ASCII case, tables and views alike")
    func excludePatterns() throws {
        let generated = try generate(.init(excludedTables: ["AUDIT_*", "tag?"]))
        #expect(generated.types.map(\.name) == ["codes", "notes"])
        #expect(generated.skipped.contains(#"Excluded view "audit_all": matches --exclude "AUDIT_*"."#))
        #expect(generated.skipped.contains(#"Excluded table "tags": matches --exclude "tag?"."#))
        #expect(try generate(.init(excludedTables: ["tag"])).types.map(\.name).contains("tags"), "a whole name")
    }

    @Test("a table named with --table is generated even when a pattern or the bookkeeping rule matches it")
    func requestedWins() throws {
        let generated = try generate(.init(excludedTables: ["*"]), tables: ["sqliteswiftly_migrations", "notes"])
        #expect(generated.types.map(\.name) == ["sqliteswiftly_migrations", "notes"])
        #expect(generated.skipped.isEmpty)
    }

    @Test(
        "glob matching",
        arguments: [
            ("a*", "abc", true), ("*c", "abc", true), ("a?c", "abc", true), ("a?c", "ac", false), ("*", "", true),
            ("a*b*c", "aXbYbZc", true), ("a*b*c", "aXbYbZ", false), ("abc", "abcd", false), ("**", "x", true),
            ("?", "", false), ("é*", "étoile", true),
        ])
    func glob(pattern: String, name: String, matches: Bool) {
        #expect(TableFilter.matches(Array(pattern), Array(name)) == matches)
    }

    @Test("a row-id alias, with or without AUTOINCREMENT, is an optional Int; another primary key is not")
    func rowIDAliasIsOptional() throws {
        let source = try generate().source
        #expect(source.contains("    var id: Int?\n"))
        #expect(source.contains(#"Column("id", .integer, primaryKey: true, autoIncrement: true)"#))
        #expect(source.contains(#"Column("id", .integer, primaryKey: true)"#))
        #expect(source.contains("    var code: String\n"))
        #expect(source.contains("(nil in a new row: SQLite numbers the row when it is inserted)"))
    }

    @Test("--access public makes the types, properties, members and an initializer public")
    func publicAccess() throws {
        let source = try generate(.init(access: .public), tables: ["notes"]).source
        for line in [
            "public struct Note: Equatable, Sendable {", "    public var id: Int?", "    public var body: String",
            "    public init(\n        id: Int? = nil,\n        body: String\n    ) {",
            "    public static let tableName = \"notes\"", "    public static let columns = [",
            "    public init(row: borrowing Row) throws {",
            "    public func encode(to encoder: inout RowEncoder) throws {",
        ] {
            #expect(source.contains(line), "missing: \(line)")
        }
        let package = try generate(.init(access: .package), tables: ["audit_all"]).source
        #expect(package.contains("package struct AuditAll: Equatable, Sendable {"))
        #expect(package.contains("    package static let viewName = \"audit_all\""))
        #expect(package.contains("    package static let expectedColumnNames: [String]? = ["))
        #expect(package.contains("    package init(\n        line: String? = nil\n    ) {"))
        #expect(!(try generate(tables: ["notes"]).source.contains("public")), "internal by default: no modifier")
    }

    @Test("the command takes --access and repeated --exclude, and refuses an unknown access level")
    func commandOptions() throws {
        let directory = try TemporaryDirectory()
        let database = try directory.database(schema: Self.schema)
        var output = ""
        var errors = ""
        let command = try ModelsCommand.parse([
            database, "--access", "package", "--exclude", "audit*", "--exclude", "codes",
        ])
        #expect(command.perform(standardOutput: { output += $0 }, standardError: { errors += $0 }))
        #expect(output.contains("package struct Note: Equatable, Sendable {"))
        #expect(!output.contains("struct Code:") && !output.contains("struct Audit"))
        #expect(errors.contains(#"Excluded table "codes": matches --exclude "codes"."#))
        #expect(throws: (any Error).self) { try ModelsCommand.parse([database, "--access", "open"]) }
    }
}
