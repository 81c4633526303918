import CSQLiteSwiftly

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One blob (or text) value of one row, open for reading or writing byte ranges in place, without loading it
/// whole (SQLite's incremental blob I/O).
///
/// A handle is lent to the closure of ``Connection/withBlob(table:column:rowID:writable:_:)`` and closed
/// when the closure returns. It is noncopyable and only ever borrowed, and not `Sendable`: it cannot outlive the
/// closure, its connection, or be used from two tasks at once.
///
/// A blob's size is fixed while it is open: reserve the space first, with `zeroblob(n)` in an `INSERT` or
/// `UPDATE`, then write the bytes. If the row is changed or deleted while the handle is open (by this
/// connection), every later read or write fails with ``ResultCode/abort``; it never returns stale bytes.
public struct BlobHandle: ~Copyable {
    let blob: OpaquePointer
    let database: OpaquePointer
    /// The table of the blob's row.
    public let table: String
    /// The blob's column.
    public let column: String
    /// Whether the handle was opened for writing.
    public let isWritable: Bool
    /// The blob's size in bytes, fixed while the handle is open.
    public let count: Int

    /// Wraps an open blob; `count` is its size when opened (`sqlite3_blob_bytes` gives 0 once it expires).
    init(
        blob: OpaquePointer, database: OpaquePointer, table: String, column: String, isWritable: Bool,
        count: Int? = nil
    ) {
        self.blob = blob
        self.database = database
        self.table = table
        self.column = column
        self.isWritable = isWritable
        self.count = count ?? Int(sqlite3_blob_bytes(blob))
    }

    /// Reads bytes from the blob into `buffer`, which it fills.
    ///
    /// - Parameters:
    ///   - buffer: Where to copy the bytes; its size is the number of bytes to read.
    ///   - offset: The offset in the blob of the first byte to read.
    /// - Throws: ``SQLiteError/Kind/misuse`` for a range outside the blob; an SQLite error with code
    ///   ``ResultCode/abort`` when the row was changed or deleted since the handle was opened.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SQLiteError) {
        try checkRange(buffer.count, at: offset, "read")
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        try check(sqlite3_blob_read(blob, base, Int32(buffer.count), Int32(offset)))
    }

    /// Reads `count` bytes from the blob, starting at `offset`.
    ///
    /// - Parameters:
    ///   - count: How many bytes to read.
    ///   - offset: The offset in the blob of the first byte to read.
    /// - Returns: The bytes.
    /// - Throws: As ``read(into:at:)``.
    public func read(count: Int, at offset: Int) throws(SQLiteError) -> [UInt8] {
        try checkRange(count, at: offset, "read")
        var bytes = [UInt8](repeating: 0, count: count)
        let result = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(SQLiteError) in try read(into: buffer, at: offset) }
        }
        try result.get()
        return bytes
    }

    /// Writes bytes into the blob, replacing the bytes at that place; the blob's size does not change.
    ///
    /// - Parameters:
    ///   - bytes: The bytes to write.
    ///   - offset: The offset in the blob of the first byte to write.
    /// - Throws: ``SQLiteError/Kind/misuse`` for a handle opened for reading or a range outside the blob; an
    ///   SQLite error with code ``ResultCode/abort`` when the row was changed or deleted since the handle was
    ///   opened.
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(SQLiteError) {
        guard isWritable else {
            throw located(SQLiteError(.misuse, message: "the blob was opened for reading: open it writable to write"))
        }
        try checkRange(bytes.count, at: offset, "write")
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        try check(sqlite3_blob_write(blob, base, Int32(bytes.count), Int32(offset)))
    }

    /// Writes bytes into the blob; see ``write(_:at:)-(UnsafeRawBufferPointer,_)``.
    ///
    /// - Parameters:
    ///   - bytes: The bytes to write, such as `[UInt8]` or `Data`.
    ///   - offset: The offset in the blob of the first byte to write.
    /// - Throws: As ``write(_:at:)-(UnsafeRawBufferPointer,_)``.
    public func write(_ bytes: some ContiguousBytes, at offset: Int) throws(SQLiteError) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(SQLiteError) in try write(buffer, at: offset) }
        }
        try result.get()
    }

    private func checkRange(_ count: Int, at offset: Int, _ verb: String) throws(SQLiteError) {
        let size = self.count
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
            throw located(
                SQLiteError(
                    .misuse, message: "cannot \(verb) \(count) bytes at offset \(offset) of a blob of \(size) bytes"))
        }
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code != SQLITE_OK else { return }
        // The first access after the row changed gets SQLITE_ABORT; SQLite then drops the handle's statement,
        // so later ones get SQLITE_MISUSE (the ranges were checked above): both mean the handle expired.
        guard code & 0xFF == SQLITE_ABORT || code == SQLITE_MISUSE else {
            throw located(SQLiteError(code: code, db: database))
        }
        throw located(
            SQLiteError(
                .sqlite, code: .abort, message: "the row was changed or deleted while its blob was open"))
    }

    private func located(_ error: SQLiteError) -> SQLiteError {
        error.with(table: table, column: column)
    }
}

@available(*, unavailable, message: "A blob handle belongs to the closure that opened it")
extension BlobHandle: Sendable {}

extension Connection {
    /// Opens one row's blob, lends it to `body`, and closes it.
    ///
    /// ```swift
    /// let header = try db.withBlob(table: "photos", column: "jpeg", rowID: id) { blob in
    ///     try blob.read(count: min(blob.count, 16), at: 0)
    /// }
    /// ```
    ///
    /// The handle keeps the row's transaction (or an implicit one) open until it is closed.
    ///
    /// - Parameters:
    ///   - table: The row's table in the main database.
    ///   - column: The column holding a blob or text.
    ///   - rowID: The row's id (its `INTEGER PRIMARY KEY`, or `rowid`).
    ///   - writable: Whether to open the blob for writing.
    ///   - body: Reads or writes through the handle, which cannot leave the closure.
    /// - Returns: What `body` returns.
    /// - Throws: An SQLite error naming table and column when there is no such table, column or row, or the
    ///   value is not a blob or text; what `body` throws.
    public func withBlob<Result>(
        table: String, column: String, rowID: Int64, writable: Bool = false,
        _ body: (borrowing BlobHandle) throws -> Result
    ) throws -> Result {
        let blob = try openBlob(table: table, column: column, rowID: rowID, writable: writable)
        defer { sqlite3_blob_close(blob) }
        return try body(BlobHandle(blob: blob, database: handle, table: table, column: column, isWritable: writable))
    }

    /// Replaces one row's blob with the bytes of a file, reading and writing one chunk at a time.
    ///
    /// The column receives `zeroblob(size)` and then the file's bytes, in one transaction (a savepoint inside
    /// a transaction): a failure leaves the row as it was. Memory use stays at about one chunk, whatever the
    /// file's size.
    ///
    /// - Parameters:
    ///   - table: The row's table in the main database.
    ///   - column: The column to fill.
    ///   - rowID: The row's id.
    ///   - path: The file to read.
    ///   - chunkSize: The size of each read and write; 1 MiB by default.
    /// - Returns: The number of bytes written.
    /// - Throws: ``SQLiteError/Kind/misuse`` when the file cannot be read or is larger than SQLite's blob limit;
    ///   the errors of ``withBlob(table:column:rowID:writable:_:)``.
    @discardableResult
    public func writeBlob(table: String, column: String, rowID: Int64, fromFile path: String, chunkSize: Int = 1 << 20)
        throws -> Int
    {
        let file = try BlobFile(path, writing: false)
        let size = try file.size()
        var buffer = [UInt8](repeating: 0, count: max(1, min(chunkSize, size)))
        return try transaction {
            try reserveBlob(table: table, column: column, rowID: rowID, count: size)
            return try withBlob(table: table, column: column, rowID: rowID, writable: true) { blob in
                var offset = 0
                while offset < size {
                    let count = try buffer.withUnsafeMutableBytes {
                        try file.read(into: $0, count: min($0.count, size - offset))
                    }
                    try buffer.withUnsafeBytes {
                        try blob.write(UnsafeRawBufferPointer(rebasing: $0[..<count]), at: offset)
                    }
                    offset += count
                }
                return offset
            }
        }
    }

    /// Copies one row's blob into a new file, one chunk at a time.
    ///
    /// - Parameters:
    ///   - table: The row's table in the main database.
    ///   - column: The column to read.
    ///   - rowID: The row's id.
    ///   - path: The file to create; it must not exist.
    ///   - chunkSize: The size of each read and write; 1 MiB by default.
    /// - Returns: The number of bytes copied.
    /// - Throws: ``SQLiteError/Kind/misuse`` when the file exists or cannot be written (a partly written file
    ///   is removed); the errors of ``withBlob(table:column:rowID:writable:_:)``.
    @discardableResult
    public func readBlob(table: String, column: String, rowID: Int64, toFile path: String, chunkSize: Int = 1 << 20)
        throws -> Int
    {
        try withBlob(table: table, column: column, rowID: rowID) { blob in
            let file = try BlobFile(path, writing: true)
            do {
                var buffer = [UInt8](repeating: 0, count: max(1, min(chunkSize, blob.count)))
                var offset = 0
                while offset < blob.count {
                    let count = min(buffer.count, blob.count - offset)
                    try buffer.withUnsafeMutableBytes {
                        try blob.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<count]), at: offset)
                    }
                    try buffer.withUnsafeBytes { try file.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                    offset += count
                }
                try file.close()
                return offset
            } catch {
                file.remove()
                throw error
            }
        }
    }

    /// Replaces one row's blob with `count` bytes received as an asynchronous sequence of chunks.
    ///
    /// As ``writeBlob(table:column:rowID:fromFile:chunkSize:)``: `zeroblob(count)`, then each chunk in turn, in
    /// one savepoint that is rolled back if the sequence throws or does not deliver exactly `count` bytes.
    ///
    /// - Parameters:
    ///   - table: The row's table in the main database.
    ///   - column: The column to fill.
    ///   - rowID: The row's id.
    ///   - count: The total size of the chunks.
    ///   - chunks: The bytes, in order, in chunks of any size (`[UInt8]`, `Data`, ...).
    ///   - isolation: The caller's isolation, in which the connection is used; inferred.
    /// - Returns: The number of bytes written.
    /// - Throws: ``SQLiteError/Kind/misuse`` when the chunks do not add up to `count`; what the sequence throws;
    ///   the errors of ``withBlob(table:column:rowID:writable:_:)``.
    @discardableResult
    public func writeBlob<Chunks: AsyncSequence>(
        table: String, column: String, rowID: Int64, count: Int, from chunks: Chunks,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Int where Chunks.Element: ContiguousBytes {
        let savepoint = "sqliteswiftly_blob_\(transactionDepth + 1)"
        try execute(SQL(verbatim: "SAVEPOINT \(savepoint)"))
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        do {
            try reserveBlob(table: table, column: column, rowID: rowID, count: count)
            let blob = try openBlob(table: table, column: column, rowID: rowID, writable: true)
            var offset = 0
            do {
                let handle = BlobHandle(blob: blob, database: handle, table: table, column: column, isWritable: true)
                for try await chunk in chunks {
                    let size = chunk.withUnsafeBytes(\.count)
                    guard size <= count - offset else { break }
                    try handle.write(chunk, at: offset)
                    offset += size
                }
                sqlite3_blob_close(blob)  // before RELEASE, which waits for no open statement
            } catch {
                sqlite3_blob_close(blob)
                throw error
            }
            guard offset == count else {
                throw SQLiteError(.misuse, message: "the chunks do not hold the \(count) bytes announced")
                    .with(table: table, column: column)
            }
            try execute(SQL(verbatim: "RELEASE \(savepoint)"))
            return offset
        } catch {
            if isInTransaction {
                _ = try? execute(SQL(verbatim: "ROLLBACK TO \(savepoint)"))
                _ = try? execute(SQL(verbatim: "RELEASE \(savepoint)"))
            }
            throw error
        }
    }

    /// Reads one row's blob as an asynchronous sequence of chunks, one read per chunk.
    ///
    /// ```swift
    /// for try await chunk in db.blobChunks(table: "photos", column: "jpeg", rowID: id) {
    ///     try await upload(chunk)
    /// }
    /// ```
    ///
    /// The blob is opened at the first chunk and closed after the last one, or when iteration stops.
    ///
    /// - Parameters:
    ///   - table: The row's table in the main database.
    ///   - column: The column to read.
    ///   - rowID: The row's id.
    ///   - chunkSize: The size of each chunk but the last; 1 MiB by default.
    /// - Returns: The chunks.
    public func blobChunks(table: String, column: String, rowID: Int64, chunkSize: Int = 1 << 20) -> BlobChunks {
        BlobChunks(connection: self, table: table, column: column, rowID: rowID, chunkSize: max(1, chunkSize))
    }

    func openBlob(table: String, column: String, rowID: Int64, writable: Bool) throws(SQLiteError) -> OpaquePointer {
        var blob: OpaquePointer?
        let code = sqlite3_blob_open(handle, "main", table, column, rowID, writable ? 1 : 0, &blob)
        guard code == SQLITE_OK, let blob else {
            if let blob { sqlite3_blob_close(blob) }
            throw SQLiteError(code: code, db: handle).with(table: table, column: column)
        }
        return blob
    }

    /// Sets the column of one row to `count` zero bytes, the space a blob handle then writes into.
    private func reserveBlob(table: String, column: String, rowID: Int64, count: Int) throws(SQLiteError) {
        let limit = Int(sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, -1))
        guard count >= 0 && count <= limit else {
            throw SQLiteError(.misuse, message: "a blob holds 0 to \(limit) bytes, not \(count)")
                .with(table: table, column: column)
        }
        let sql: SQL =
            "UPDATE \(identifier: table) SET \(identifier: column) = zeroblob(\(count)) WHERE rowid = \(rowID)"
        guard try execute(sql) == 1 else {
            throw SQLiteError(.misuse, message: "there is no row with rowid \(rowID)").with(
                table: table, column: column)
        }
    }
}

/// One row's blob as an asynchronous sequence of byte chunks; see ``Connection/blobChunks(table:column:rowID:chunkSize:)``.
///
/// Not `Sendable`: iterate it where the connection is used.
public struct BlobChunks: AsyncSequence {
    /// A chunk of bytes.
    public typealias Element = [UInt8]
    /// The sequence throws ``SQLiteError``.
    public typealias Failure = SQLiteError
    let connection: Connection
    let table: String
    let column: String
    let rowID: Int64
    let chunkSize: Int

    /// Creates the iterator, which opens the blob at its first chunk.
    ///
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(chunks: self)
    }

    /// Reads the chunks; closes the blob at the end, or when it goes away.
    public final class Iterator: AsyncIteratorProtocol {
        let chunks: BlobChunks
        private var blob: OpaquePointer?
        private var offset = 0
        private var size = 0
        private var isFinished = false

        init(chunks: BlobChunks) {
            self.chunks = chunks
        }

        deinit {
            if let blob { sqlite3_blob_close(blob) }
        }

        /// The next chunk, read in the caller's isolation.
        ///
        /// - Parameter actor: The caller's isolation.
        /// - Returns: The chunk, or `nil` after the last one.
        /// - Throws: The errors of ``Connection/withBlob(table:column:rowID:writable:_:)``, and
        ///   ``ResultCode/abort`` when the row changed since the first chunk.
        public func next(isolation actor: isolated (any Actor)?) async throws(SQLiteError) -> [UInt8]? {
            try nextChunk()
        }

        /// The next chunk.
        ///
        /// - Returns: The chunk, or `nil` after the last one.
        /// - Throws: As ``next(isolation:)``.
        public func next() async throws(SQLiteError) -> [UInt8]? {
            try nextChunk()
        }

        private func nextChunk() throws(SQLiteError) -> [UInt8]? {
            guard !isFinished else { return nil }
            do throws(SQLiteError) {
                if blob == nil {
                    let opened = try chunks.connection.openBlob(
                        table: chunks.table, column: chunks.column, rowID: chunks.rowID, writable: false)
                    blob = opened
                    size = Int(sqlite3_blob_bytes(opened))
                }
                guard let blob, offset < size else {
                    finish()
                    return nil
                }
                let handle = BlobHandle(
                    blob: blob, database: chunks.connection.handle, table: chunks.table, column: chunks.column,
                    isWritable: false, count: size)
                let count = Swift.min(chunks.chunkSize, size - offset)
                let chunk = try handle.read(count: count, at: offset)
                offset += count
                return chunk
            } catch {
                finish()
                throw error
            }
        }

        private func finish() {
            isFinished = true
            if let blob { sqlite3_blob_close(blob) }
            blob = nil
        }
    }
}

@available(*, unavailable, message: "Iterate the chunks where their connection is used")
extension BlobChunks: Sendable {}

// The C library's calls, named apart from the methods below.
private func posixClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// A file read or written by the blob streams, through its file descriptor.
private final class BlobFile {
    let path: String
    private var descriptor: Int32

    init(_ path: String, writing: Bool) throws(SQLiteError) {
        self.path = path
        descriptor =
            writing ? open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.failure(writing ? "create" : "open", path) }
    }

    deinit {
        if descriptor >= 0 { _ = posixClose(descriptor) }
    }

    func size() throws(SQLiteError) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.failure("read the size of", path) }
        return Int(status.st_size)
    }

    /// Reads exactly `count` bytes, or throws when the file ends before.
    func read(into buffer: UnsafeMutableRawBufferPointer, count: Int) throws(SQLiteError) -> Int {
        var done = 0
        while done < count, let base = buffer.baseAddress {
            let got = posixRead(descriptor, base + done, count - done)
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw Self.failure("read (it ended early or changed) from", path) }
            done += got
        }
        return done
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(SQLiteError) {
        var done = 0
        while done < bytes.count, let base = bytes.baseAddress {
            let wrote = posixWrite(descriptor, base + done, bytes.count - done)
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { throw Self.failure("write to", path) }
            done += wrote
        }
    }

    func close() throws(SQLiteError) {
        let code = posixClose(descriptor)
        descriptor = -1
        guard code == 0 else { throw Self.failure("close", path) }
    }

    func remove() {
        if descriptor >= 0 { _ = posixClose(descriptor) }
        descriptor = -1
        unlink(path)
    }

    static func failure(_ verb: String, _ path: String) -> SQLiteError {
        var error = SQLiteError(.misuse, message: "could not \(verb) the file (errno \(errno))")
        error.path = path
        return error
    }
}
