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
    /// The chunks cannot come from the blob being written, which is zeroed first: ``BlobChunks`` of it, even
    /// transformed on the way (`.map`), throw ``SQLiteError/Kind/misuse`` and nothing is changed.
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
        let cell = BlobCell(table: table, column: column, rowID: rowID)
        let savepoint = "sqliteswiftly_blob_\(transactionDepth + 1)"
        try execute(SQL(verbatim: "SAVEPOINT \(savepoint)"))
        transactionDepth += 1
        blobsBeingRewritten.append(cell)
        defer {
            transactionDepth -= 1
            if let index = blobsBeingRewritten.lastIndex(of: cell) { blobsBeingRewritten.remove(at: index) }
        }
        do {
            try reserveBlob(table: table, column: column, rowID: rowID, count: count)
            let blob = try openBlob(table: table, column: column, rowID: rowID, writable: true)
            var offset = 0
            do {
                let handle = BlobHandle(blob: blob, database: handle, table: table, column: column, isWritable: true)
                for try await chunk in chunks {
                    let size = chunk.withUnsafeBytes(\.count)
                    guard size <= count - offset else {
                        throw SQLiteError(
                            .misuse,
                            message:
                                "the chunks hold more than the \(count) bytes announced (\(offset + size) so far); "
                                + "nothing was written"
                        )
                        .with(table: table, column: column)
                    }
                    try handle.write(chunk, at: offset)
                    offset += size
                }
                sqlite3_blob_close(blob)  // before RELEASE, which waits for no open statement
            } catch {
                sqlite3_blob_close(blob)
                throw error
            }
            guard offset == count else {
                throw SQLiteError(
                    .misuse,
                    message: "the chunks hold \(offset) bytes, not the \(count) announced; nothing was written"
                )
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
        try requireOpen()
        if changeTracker.isActive { changeTracker.willOpenBlob(table: table, rowID: rowID, writable: writable) }
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
