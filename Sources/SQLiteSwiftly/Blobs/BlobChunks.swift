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

    /// The blob these chunks read.
    var cell: BlobCell { BlobCell(table: table, column: column, rowID: rowID) }

    /// The error for chunks read from the blob a streaming write is rewriting.
    func rewritingItself() -> SQLiteError {
        SQLiteError(
            .misuse,
            message: "these chunks read the blob that writeBlob is rewriting, which it zeroed before the first chunk; "
                + "read the blob into memory or a file first, or write another row or column"
        )
        .with(table: table, column: column)
    }

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
                // The blob being rewritten was zeroed before the first chunk was written: its chunks would be
                // zeros, written back over the data (an in-place rewrite through `.map`, say).
                if chunks.connection.blobsBeingRewritten.contains(chunks.cell) { throw chunks.rewritingItself() }
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
