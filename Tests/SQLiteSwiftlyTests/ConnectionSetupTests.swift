import Foundation
import Testing

@testable import SQLiteSwiftly

/// `ConnectionOptions.synchronous` and `setupStatements` reach every connection the library opens, before its first
/// access.
@Suite struct ConnectionSetupTests {
    private static let options = ConnectionOptions(
        synchronous: .normal, setupStatements: ["PRAGMA cache_size = -12345", "PRAGMA temp_store = MEMORY"])

    private func settings(_ db: Connection) throws -> [Int] {
        [
            try db.fetchValue(Int.self, "PRAGMA synchronous") ?? -1,
            try db.fetchValue(Int.self, "PRAGMA cache_size") ?? 0,
            try db.fetchValue(Int.self, "PRAGMA temp_store") ?? -1,
        ]
    }

    @Test("a connection, a shared connection, and every connection of a pool get the settings")
    func everyConnection() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("setup.sqlite")
        let created = try Connection(creating: path, options: Self.options)
        #expect(try settings(created) == [1, -12345, 2])
        #expect(try settings(try Connection(opening: path, readOnly: true, options: Self.options)) == [1, -12345, 2])
        #expect(try settings(try Connection.inMemory(options: Self.options)) == [1, -12345, 2])
        // Without options, SQLite's build default (FULL on Debian and Apple platforms) is kept.
        #expect(try Connection(opening: path).fetchValue(Int.self, "PRAGMA synchronous") == 2)

        let shared = try SharedConnection(.open(path: path), options: Self.options)
        #expect(try await shared.read { db in try settings(db) } == [1, -12345, 2])
        let pool = try ConnectionPool(.open(path: path), readerCount: 3, options: Self.options)
        #expect(try await pool.write { db in try settings(db) } == [1, -12345, 2])
        for _ in 0..<3 {
            #expect(try await pool.read { db in try settings(db) } == [1, -12345, 2])
        }
        for mode in [SynchronousMode.off, .full, .extra, SynchronousMode(rawValue: "1")] {
            let db = try Connection.inMemory(options: .init(synchronous: mode))
            let expected = ["OFF": 0, "FULL": 2, "EXTRA": 3, "1": 1][mode.rawValue]
            #expect(try db.fetchValue(Int.self, "PRAGMA synchronous") == expected)
        }
    }

    @Test("a synchronous mode SQLite does not know is refused, and nothing is spliced into SQL")
    func unknownMode() throws {
        for raw in ["FAST", "NORMAL; DROP TABLE t", "", "4"] {
            let error = try requireSQLiteError {
                try Connection.inMemory(options: .init(synchronous: SynchronousMode(rawValue: raw)))
            }
            #expect(error.kind == .misuse)
            #expect(error.message.contains("not a synchronous mode"))
        }
    }

    @Test("a failing setup statement fails the open with its SQL, and a database being created is removed")
    func failingStatement() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("failing.sqlite")
        let options = ConnectionOptions(setupStatements: ["PRAGMA cache_size = 100", "SELECT * FROM missing"])
        let error = try requireSQLiteError { try Connection(creating: path, options: options) }
        #expect(error.message.contains("setup statement"))
        #expect(error.message.contains("no such table: missing"))
        #expect(error.sql == "SELECT * FROM missing")
        #expect(error.path == path)
        #expect(!FileManager.default.fileExists(atPath: path))
        let nul = try requireSQLiteError { try Connection.inMemory(options: .init(setupStatements: ["SELECT 1\0"])) }
        #expect(nul.kind == .misuse)
        // A pool's readers are read-only: a setup statement that writes fails there, and the pool is not opened.
        let writes = ConnectionOptions(setupStatements: ["PRAGMA user_version = 7"])
        let poolPath = directory.path("pool.sqlite")
        let poolError = try requireSQLiteError { try ConnectionPool(.create(path: poolPath), options: writes) }
        #expect(poolError.code.primary == .readOnly)
        #expect(!FileManager.default.fileExists(atPath: poolPath))
    }
}
