import CSQLiteSwiftly

/// What ``Changeset`` and ``Patchset`` share: the walk that checks the bytes, reading, inverting and
/// concatenating through SQLite, and the copies of the bytes SQLite reads and returns.
enum ChangesetBytes {
    /// The tables of `bytes` and their number of changes, after checking that they are well formed.
    ///
    /// - Throws: ``SQLiteError/Kind/invalidChangeset``.
    static func layout(_ bytes: [UInt8], patchset: Bool) throws(SQLiteError) -> ChangesetLayout {
        let result = bytes.withUnsafeBytes { buffer in
            Swift.Result { () throws(SQLiteError) in try ChangesetLayout(scanning: buffer, patchset: patchset) }
        }
        return try result.get()
    }

    /// Every change of `bytes`, read through SQLite's iterator.
    static func changes(_ bytes: [UInt8], patchset: Bool) throws(SQLiteError) -> [RecordedChange] {
        let functions = try SessionFunctions.available()
        _ = try layout(bytes, patchset: patchset)
        return try withBytes(bytes) { count, start throws(SQLiteError) in
            var iterator: OpaquePointer?
            let started = functions.api.changeset_start(&iterator, count, start)
            guard started == SQLITE_OK, let iterator else {
                throw failure(started, while: "starting to read the changeset")
            }
            var changes: [RecordedChange] = []
            var step = functions.api.changeset_next(iterator)
            do throws(SQLiteError) {
                while step == SQLITE_ROW {
                    changes.append(try RecordedChange(iterator: iterator, functions: functions))
                    step = functions.api.changeset_next(iterator)
                }
            } catch {
                _ = functions.api.changeset_finalize(iterator)
                throw error
            }
            // sqlite3changeset_finalize returns the first error the iterator met.
            let finalized = functions.api.changeset_finalize(iterator)
            guard step == SQLITE_DONE, finalized == SQLITE_OK else {
                throw failure(step == SQLITE_DONE ? finalized : step, while: "reading the changeset")
            }
            return changes
        }
    }

    /// The inverse of the changeset `bytes`: inserts become deletes, deletes inserts, updates swap their images.
    static func inverted(_ bytes: [UInt8]) throws(SQLiteError) -> [UInt8] {
        let functions = try SessionFunctions.available()
        guard !bytes.isEmpty else { return [] }
        // The walk first: SQLite 3.40.1's sqlite3changeset_invert never returns for some malformed input (a lone
        // 'T' byte), and reports a patchset only as corrupt.
        _ = try layout(bytes, patchset: false)
        return try withBytes(bytes) { count, start throws(SQLiteError) in
            var output: UnsafeMutableRawPointer?
            var outputCount: Int32 = 0
            let code = functions.api.changeset_invert(count, start, &outputCount, &output)
            guard code == SQLITE_OK else {
                sqlite3_free(output)
                throw failure(code, while: "inverting the changeset")
            }
            return take(output, count: outputCount)
        }
    }

    /// The changesets (or patchsets) `parts` combined into one, through an `sqlite3_changegroup`.
    static func concatenated(_ parts: [[UInt8]], patchset: Bool) throws(SQLiteError) -> [UInt8] {
        let functions = try SessionFunctions.available()
        let nonEmpty = parts.filter { !$0.isEmpty }
        guard nonEmpty.count > 1 else { return nonEmpty.first ?? [] }
        for part in nonEmpty { _ = try layout(part, patchset: patchset) }
        var group: OpaquePointer?
        let created = functions.api.changegroup_new(&group)
        guard created == SQLITE_OK, let group else { throw failure(created, while: "combining changesets") }
        defer { functions.api.changegroup_delete(group) }
        for part in nonEmpty {
            let added = try withBytes(part) { count, start throws(SQLiteError) in
                functions.api.changegroup_add(group, count, start)
            }
            guard added == SQLITE_OK else { throw failure(added, while: "combining changesets") }
        }
        var output: UnsafeMutableRawPointer?
        var outputCount: Int32 = 0
        let code = functions.api.changegroup_output(group, &outputCount, &output)
        guard code == SQLITE_OK else {
            sqlite3_free(output)
            throw failure(code, while: "combining changesets")
        }
        return take(output, count: outputCount)
    }

    /// Calls `body` with the bytes as SQLite takes them (a length that fits an `int`, and a pointer).
    ///
    /// - Throws: ``ResultCode/tooBig`` for more than 2 GiB, which SQLite's `int` length cannot say; what `body`
    ///   throws.
    static func withBytes<Result>(
        _ bytes: [UInt8], _ body: (Int32, UnsafeMutableRawPointer?) throws(SQLiteError) -> Result
    ) throws(SQLiteError) -> Result {
        guard let count = Int32(exactly: bytes.count) else {
            throw SQLiteError(
                .invalidChangeset, code: .tooBig,
                message: "a changeset of \(bytes.count) bytes is larger than SQLite can read (2 GiB)")
        }
        // SQLite reads these bytes and never writes them: its functions take `void *` for historical reasons.
        let result = bytes.withUnsafeBytes { buffer in
            Swift.Result { () throws(SQLiteError) in
                try body(count, UnsafeMutableRawPointer(mutating: buffer.baseAddress))
            }
        }
        return try result.get()
    }

    /// The bytes of a buffer SQLite allocated, copied, and the buffer freed.
    static func take(_ buffer: UnsafeMutableRawPointer?, count: Int32) -> [UInt8] {
        defer { sqlite3_free(buffer) }
        guard let buffer, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: buffer, count: Int(count)))
    }

    /// The error of a session function that refused the bytes, or failed for another reason (out of memory).
    static func failure(_ code: Int32, while doing: String) -> SQLiteError {
        let resultCode = ResultCode(rawValue: code)
        if resultCode.primary == .schema {
            return SQLiteError(
                .schemaMismatch, code: resultCode,
                message: "SQLite refused the changesets while \(doing): they give one table different columns")
        }
        guard resultCode.primary == .corrupt || resultCode.primary == .error || resultCode.primary == .misuse else {
            return SQLiteError(.sqlite, code: resultCode, message: "SQLite failed while \(doing): \(resultCode)")
        }
        return SQLiteError(
            .invalidChangeset, code: resultCode,
            message: "SQLite refused the changeset while \(doing): it is truncated, corrupted or of the other format")
    }
}
