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
