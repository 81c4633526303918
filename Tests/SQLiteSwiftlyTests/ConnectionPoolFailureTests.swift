import Foundation
import Testing

@testable import SQLiteSwiftly

/// A pool whose opening fails part-way leaves the file as it found it.
@Suite struct ConnectionPoolFailureTests {
    /// Opens readers until the `failing`th, which fails as running out of file descriptors would.
    static func readers(
        failingAt failing: Int
    ) -> (String, ConnectionOptions, SharedConnection) throws(SQLiteError) -> SharedConnection {
        var opened = 0
        return { path, options, writer throws(SQLiteError) in
            opened += 1
            guard opened < failing else {
                throw SQLiteError(.sqlite, code: .cannotOpen, message: "unable to open database file (test)")
            }
            return try SharedConnection(.openReadOnly(path: path), options: options, keepingOpen: writer)
        }
    }

    @Test("a pool that creates its file and fails part-way removes the file and its companions")
    func createdFileRemoved() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("pool.sqlite")
        let error = try requireSQLiteError {
            _ = try ConnectionPool(
                .create(path: path), readerCount: 4, options: .default, openReader: Self.readers(failingAt: 3))
        }
        #expect(error.code == .cannotOpen)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("")).isEmpty)
        // The path is free for the next attempt.
        _ = try ConnectionPool(.create(path: path), readerCount: 2)
    }

    @Test("a pool on an existing file that fails part-way gives the file its journal mode back")
    func journalModeRestored() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("existing.sqlite")
        do {
            let db = try Connection(creating: path)
            try db.execute("CREATE TABLE t (x)")
            try db.execute("INSERT INTO t VALUES (1)")
        }
        #expect(throws: SQLiteError.self) {
            _ = try ConnectionPool(
                .open(path: path), readerCount: 4, options: .default, openReader: Self.readers(failingAt: 2))
        }
        let db = try Connection(opening: path)
        #expect(try db.fetchValue(String.self, "PRAGMA journal_mode") == "delete")
        #expect(try db.fetchValue(Int.self, "SELECT x FROM t") == 1)
        // A file already in WAL mode stays in it.
        #expect(try db.fetchValue(String.self, "PRAGMA journal_mode = WAL") == "wal")
        #expect(throws: SQLiteError.self) {
            _ = try ConnectionPool(
                .open(path: path), readerCount: 4, options: .default, openReader: Self.readers(failingAt: 1))
        }
        #expect(try db.fetchValue(String.self, "PRAGMA journal_mode") == "wal")
    }
}
