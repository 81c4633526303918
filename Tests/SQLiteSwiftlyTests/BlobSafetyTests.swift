import Foundation
import Testing

@testable import SQLiteSwiftly

/// Blob streams that receive the wrong number of bytes change nothing, and blob files never open a database file.
@Suite struct BlobSafetyTests {
    private func photos() throws -> Connection {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, data BLOB)")
        try db.execute("INSERT INTO photos VALUES (1, x'0A0B0C')")
        return db
    }

    private func stream(_ chunks: [[UInt8]]) -> AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
    }

    @Test(
        "a stream of more or fewer bytes than announced throws and leaves the blob as it was",
        arguments: [
            [[1, 2, 3, 4], [5, 6]], [[1, 2, 3, 4, 5]], [[1, 2], [3, 4], [], [5]], [[1, 2, 3]], [], [[]],
            [[1], [2, 3], []],
        ] as [[[UInt8]]])
    func wrongByteCount(chunks: [[UInt8]]) async throws {
        let db = try photos()
        let error = await #expect(throws: SQLiteError.self) {
            try await db.writeBlob(table: "photos", column: "data", rowID: 1, count: 4, from: stream(chunks))
        }
        #expect(error?.kind == .misuse)
        #expect(error?.table == "photos")
        #expect(error?.column == "data")
        #expect(error?.message.contains("4 bytes announced") == true || error?.message.contains("4 announced") == true)
        #expect(try db.fetchValue([UInt8].self, "SELECT data FROM photos") == [10, 11, 12])
        #expect(!db.isInTransaction)
    }

    @Test("exactly the announced bytes, with an empty chunk at the end, are written")
    func exactCount() async throws {
        let db = try photos()
        let count = try await db.writeBlob(
            table: "photos", column: "data", rowID: 1, count: 4, from: stream([[1, 2], [3, 4], []]))
        #expect(count == 4)
        #expect(try db.fetchValue([UInt8].self, "SELECT data FROM photos") == [1, 2, 3, 4])
    }

    @Test(
        "a blob file that is an open database or one of its side files is refused, and no lock is dropped",
        arguments: ["", "-wal", "-shm", "-journal"])
    func databaseFilesRefused(suffix: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("photos.sqlite")
        let db = try Connection(creating: path)
        _ = try db.fetchValue(String.self, "PRAGMA journal_mode = WAL")
        try db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, data BLOB)")
        try db.execute("INSERT INTO photos VALUES (1, x'0A0B0C')")
        let locks = LockTable.held(on: path)
        #if os(Linux)
            #expect(!locks.isEmpty, "the connection holds no lock on the file: nothing to test")
        #endif
        let target = path + suffix
        // Only `stat` looks at the files here: reading one would close a descriptor of it and drop the locks.
        let existed = FileManager.default.fileExists(atPath: target)
        let before = OpenDatabaseFiles.identity(of: target)
        let reading = try requireSQLiteError {
            try db.writeBlob(table: "photos", column: "data", rowID: 1, fromFile: target)
        }
        #expect(reading.kind == .misuse)
        #expect(reading.path == target)
        let writing = try requireSQLiteError {
            try db.readBlob(table: "photos", column: "data", rowID: 1, toFile: target)
        }
        #expect(writing.kind == .misuse)
        #expect(writing.message.contains("locks"))
        #expect(FileManager.default.fileExists(atPath: target) == existed)
        #expect(OpenDatabaseFiles.identity(of: target) == before)
        #expect(LockTable.held(on: path) == locks)
        // A link to the database is the same file.
        let link = directory.path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        #expect(throws: SQLiteError.self) {
            try db.writeBlob(table: "photos", column: "data", rowID: 1, fromFile: link)
        }
        // Other files next to it are fine.
        let other = directory.path("photo.jpeg")
        #expect(try db.readBlob(table: "photos", column: "data", rowID: 1, toFile: other) == 3)
        #expect(try db.writeBlob(table: "photos", column: "data", rowID: 1, fromFile: other) == 3)
    }
}
