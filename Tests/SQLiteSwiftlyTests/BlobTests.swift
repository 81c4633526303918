import Foundation
import SQLiteSwiftly
import Testing

struct ChunkFailure: Error {}

@Suite struct BlobTests {
    func photos() throws -> Connection {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT, data BLOB, size INTEGER)")
        try db.execute("INSERT INTO photos (id, name, data, size) VALUES (1, 'one', zeroblob(\(10)), 3)")
        return db
    }

    func bytes(_ db: Connection, id: Int64 = 1) throws -> [UInt8]? {
        try db.fetchValue([UInt8].self, "SELECT data FROM photos WHERE id = \(id)")
    }

    @Test("a blob handle reads and writes byte ranges in place")
    func readAndWrite() throws {
        let db = try photos()
        try db.withBlob(table: "photos", column: "data", rowID: 1, writable: true) { blob in
            let (count, writable) = (blob.count, blob.isWritable)
            #expect(count == 10)
            #expect(writable)
            try blob.write([1, 2, 3] as [UInt8], at: 0)
            try blob.write(Data([9, 9]), at: 8)
            #expect(try blob.read(count: 4, at: 0) == [1, 2, 3, 0])
            var buffer = [UInt8](repeating: 7, count: 2)
            try buffer.withUnsafeMutableBytes { try blob.read(into: $0, at: 8) }
            #expect(buffer == [9, 9])
            #expect(try blob.read(count: 0, at: 10) == [])
        }
        #expect(try bytes(db) == [1, 2, 3, 0, 0, 0, 0, 0, 9, 9])
        let header = try db.withBlob(table: "photos", column: "data", rowID: 1) { blob in try blob.read(count: 2, at: 0)
        }
        #expect(header == [1, 2])
    }

    @Test("ranges outside the blob, writes through a read handle and missing rows are clear errors")
    func misuse() throws {
        let db = try photos()
        try db.withBlob(table: "photos", column: "data", rowID: 1) { blob in
            for (count, offset) in [(11, 0), (1, 10), (-1, 0), (1, -1), (Int.max, 5)] {
                let error = try #require(capturedError { try blob.read(count: count, at: offset) })
                #expect(error.kind == .misuse)
                #expect(error.table == "photos")
                #expect(error.column == "data")
            }
            let readOnly = try #require(capturedError { try blob.write([1] as [UInt8], at: 0) })
            #expect(readOnly.kind == .misuse)
            #expect(readOnly.message.contains("opened for reading"))
        }
        for (table, column, rowID) in [
            ("photos", "data", Int64(2)), ("nope", "data", 1), ("photos", "nope", 1), ("photos", "size", 1),
        ] {
            let error = try #require(
                capturedError { try db.withBlob(table: table, column: column, rowID: rowID) { _ in } })
            #expect(error.kind == .sqlite)
            #expect(error.table == table)
            #expect(error.column == column)
        }
    }

    @Test("a row changed or deleted under an open handle fails with abort, never stale bytes")
    func expiredHandle() throws {
        let db = try photos()
        for change: SQL in ["UPDATE photos SET data = x'0102' WHERE id = 1", "DELETE FROM photos WHERE id = 1"] {
            try db.execute("INSERT OR REPLACE INTO photos (id, data) VALUES (1, zeroblob(10))")
            try db.withBlob(table: "photos", column: "data", rowID: 1, writable: true) { blob in
                #expect(try blob.read(count: 1, at: 0) == [0])
                try db.execute(change)
                let read = try #require(capturedError { try blob.read(count: 1, at: 0) })
                #expect(read.code == .abort)
                #expect(read.message.contains("changed or deleted"))
                let write = try #require(capturedError { try blob.write([1] as [UInt8], at: 0) })
                #expect(write.code == .abort)
            }
        }
        // A change to another column of the row expires the handle too.
        try db.execute("INSERT INTO photos (id, data, size) VALUES (2, zeroblob(4), 0)")
        try db.withBlob(table: "photos", column: "data", rowID: 2) { blob in
            try db.execute("UPDATE photos SET size = 4 WHERE id = 2")
            #expect(capturedError { try blob.read(count: 4, at: 0) }?.code == .abort)
        }
    }

    @Test("a file streams into a blob and back out in chunks; the row is left as it was when a stream fails")
    func files() throws {
        let directory = try TemporaryDirectory()
        let db = try photos()
        let original = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(original).write(to: URL(fileURLWithPath: directory.path("in.bin")))
        let written = try db.writeBlob(
            table: "photos", column: "data", rowID: 1, fromFile: directory.path("in.bin"), chunkSize: 999)
        #expect(written == 10_000)
        #expect(try bytes(db) == original)
        let read = try db.readBlob(
            table: "photos", column: "data", rowID: 1, toFile: directory.path("out.bin"), chunkSize: 1_000)
        #expect(read == 10_000)
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path("out.bin"))) == Data(original))

        let exists = try #require(
            capturedError {
                try db.readBlob(table: "photos", column: "data", rowID: 1, toFile: directory.path("out.bin"))
            })
        #expect(exists.kind == .misuse)
        #expect(exists.path == directory.path("out.bin"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path("out.bin"))).count == 10_000)
        let missing = try #require(
            capturedError {
                try db.writeBlob(table: "photos", column: "data", rowID: 1, fromFile: directory.path("none"))
            })
        #expect(missing.path == directory.path("none"))
        let noRow = try #require(
            capturedError {
                try db.writeBlob(table: "photos", column: "data", rowID: 5, fromFile: directory.path("in.bin"))
            })
        #expect(noRow.message.contains("no row with rowid 5"))
        #expect(try bytes(db) == original)

        try Data().write(to: URL(fileURLWithPath: directory.path("empty.bin")))
        #expect(try db.writeBlob(table: "photos", column: "data", rowID: 1, fromFile: directory.path("empty.bin")) == 0)
        #expect(try bytes(db) == [])
        #expect(
            try db.readBlob(table: "photos", column: "data", rowID: 1, toFile: directory.path("empty-out.bin")) == 0)
    }

    @Test("an asynchronous sequence of chunks streams into a blob; a short or failing sequence changes nothing")
    func asyncChunks() async throws {
        let db = try photos()
        let chunks: [[UInt8]] = [[1, 2, 3], [4], [], [5, 6, 7, 8]]
        let stream = AsyncStream<[UInt8]> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
        #expect(try await db.writeBlob(table: "photos", column: "data", rowID: 1, count: 8, from: stream) == 8)
        #expect(try bytes(db) == [1, 2, 3, 4, 5, 6, 7, 8])

        let short = AsyncStream<Data> { continuation in
            continuation.yield(Data([1, 2]))
            continuation.finish()
        }
        await #expect(throws: SQLiteError.self) {
            try await db.writeBlob(table: "photos", column: "data", rowID: 1, count: 3, from: short)
        }
        let failing = AsyncThrowingStream<[UInt8], any Error> { continuation in
            continuation.yield([1])
            continuation.finish(throwing: ChunkFailure())
        }
        await #expect(throws: ChunkFailure.self) {
            try await db.writeBlob(table: "photos", column: "data", rowID: 1, count: 3, from: failing)
        }
        #expect(try bytes(db) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(!db.isInTransaction)
        // Inside a transaction, the stream is a savepoint of it.
        try db.execute("BEGIN")
        #expect(
            try await db.writeBlob(
                table: "photos", column: "data", rowID: 1, count: 1,
                from: AsyncStream<[UInt8]> {
                    $0.yield([42]); $0.finish()
                }) == 1)
        try db.execute("ROLLBACK")
        #expect(try bytes(db) == [1, 2, 3, 4, 5, 6, 7, 8])
    }

    @Test("a blob reads out as an asynchronous sequence of chunks, which fails if the row changes")
    func chunksOut() async throws {
        let db = try photos()
        try await db.writeBlob(
            table: "photos", column: "data", rowID: 1, count: 10,
            from: AsyncStream {
                $0.yield([UInt8](0..<10)); $0.finish()
            })
        var collected: [[UInt8]] = []
        for try await chunk in db.blobChunks(table: "photos", column: "data", rowID: 1, chunkSize: 4) {
            collected.append(chunk)
        }
        #expect(collected == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]])
        let iterator = db.blobChunks(table: "photos", column: "data", rowID: 1, chunkSize: 4).makeAsyncIterator()
        #expect(try await iterator.next() == [0, 1, 2, 3])
        try db.execute("UPDATE photos SET data = x'00' WHERE id = 1")
        do {
            _ = try await iterator.next()
            Issue.record("no error")
        } catch {
            #expect(error.code == .abort)
        }
        #expect(try await iterator.next() == nil)
        let missing = db.blobChunks(table: "photos", column: "data", rowID: 9).makeAsyncIterator()
        await #expect(throws: SQLiteError.self) { try await missing.next() }
    }

    @Test("a blob cannot be rewritten from its own chunks, even transformed; another row or column can be")
    func rewriteFromItself() async throws {
        let db = try photos()
        try db.execute("ALTER TABLE photos ADD COLUMN copy BLOB")
        let original = [UInt8]((0..<5000).map { UInt8(truncatingIfNeeded: $0 % 251 + 1) })
        try db.execute("UPDATE photos SET data = \(original) WHERE id = 1")
        for chunkSize in [1000, 1 << 20] {
            let own = db.blobChunks(table: "photos", column: "data", rowID: 1, chunkSize: chunkSize)
            let error = await #expect(throws: SQLiteError.self) {
                try await db.writeBlob(table: "photos", column: "DATA", rowID: 1, count: original.count, from: own)
            }
            #expect(error?.kind == .misuse)
            #expect(error?.table == "photos" && error?.column == "data")
            let transformed = own.map { chunk in chunk.map { $0 ^ 0xFF } }
            await #expect(throws: SQLiteError.self) {
                try await db.writeBlob(
                    table: "photos", column: "data", rowID: 1, count: original.count, from: transformed)
            }
            #expect(try bytes(db) == original)
            #expect(!db.isInTransaction)
        }
        // Into another column of the same row, and into another row, the chunks stream as they are.
        let source = db.blobChunks(table: "photos", column: "data", rowID: 1, chunkSize: 1000)
        #expect(try await db.writeBlob(table: "photos", column: "copy", rowID: 1, count: 5000, from: source) == 5000)
        #expect(try db.fetchValue([UInt8].self, "SELECT copy FROM photos WHERE id = 1") == original)
        try db.execute("INSERT INTO photos (id, data) VALUES (2, zeroblob(5000))")
        #expect(try await db.writeBlob(table: "photos", column: "data", rowID: 2, count: 5000, from: source) == 5000)
        #expect(try bytes(db, id: 2) == original)
        #expect(try bytes(db) == original)
    }
}
