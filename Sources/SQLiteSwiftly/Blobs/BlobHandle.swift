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
