import Foundation
import SQLiteSwiftly

/// A fresh temporary directory per test, removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sqliteswiftly-generator-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the directory; nothing is created there.
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Creates a database file holding `schema`, closes it, and returns its path.
    func database(_ name: String = "schema.sqlite", schema: String) throws -> String {
        let path = path(name)
        let connection = try Connection(creating: path)
        try connection.executeScript(SQL(verbatim: schema))
        return path
    }
}

/// The shop schema fixture, `Tests/Fixtures/ModelGenerator/shop.sql`, and the generated code checked in for it.
enum ShopFixture {
    /// The package's root directory.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The path of the schema script.
    static let schemaPath = packageRoot.appendingPathComponent("Tests/Fixtures/ModelGenerator/shop.sql").path

    /// The path of the checked-in generated code, `ShopModels.swift`, which this test target compiles.
    static let generatedPath = packageRoot.appendingPathComponent(
        "Tests/SQLiteSwiftlyModelGeneratorTests/ShopModels.swift"
    ).path

    /// The path of the checked-in `--access public` output, `ShopPublicModels.swift`, which the `ShopPublicModels`
    /// library target compiles.
    static let publicGeneratedPath = packageRoot.appendingPathComponent(
        "Tests/ShopPublicModels/ShopPublicModels.swift"
    ).path

    /// The schema script's text.
    static func schema() throws -> String {
        try String(contentsOfFile: schemaPath, encoding: .utf8)
    }

    /// A database file built from the script in `directory`; returns its path.
    static func database(in directory: TemporaryDirectory) throws -> String {
        try directory.database("shop.sqlite", schema: schema())
    }
}
