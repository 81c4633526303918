import CSQLiteSwiftly

extension Connection {
    /// Runs a script of several SQL statements, compiling and running one statement at a time.
    ///
    /// The text is handed to SQLite with its length *including* the terminating NUL that `withCString`
    /// guarantees: given a length without it, SQLite copies the rest of the script before compiling each
    /// statement, which makes a long script quadratic. A NUL inside the script would end SQLite's reading
    /// there, silently dropping what follows, so it is refused before anything runs.
    func runScript(_ script: String) throws(SQLiteError) {
        if let offset = script.utf8.firstIndex(of: 0).map({ script.utf8.distance(from: script.utf8.startIndex, to: $0) }
        ) {
            throw SQLiteError(
                .misuse, message: "the script contains a NUL character at byte \(offset); nothing was run",
                sql: String(script.prefix(200)))
        }
        let length = script.utf8.count
        let failure: SQLiteError? = script.withCString { start -> SQLiteError? in
            let end = start + length
            var cursor = start
            var position = 0
            while cursor < end {
                // Skip blanks between statements, so that each statement's text (errors, traces) starts with
                // the statement itself.
                while cursor < end && (cursor.pointee == 0x20 || (0x09...0x0D).contains(cursor.pointee)) {
                    cursor += 1
                }
                guard cursor < end else { break }
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, cursor, Int32(clamping: end - cursor + 1), &statement, &tail)
                let consumed = min(tail ?? end, end)
                let sql = String(
                    decoding: UnsafeRawBufferPointer(start: cursor, count: consumed - cursor), as: UTF8.self
                ).trimmingSQLBlanks()
                guard code == SQLITE_OK else {
                    return Self.located(SQLiteError(code: code, db: handle, sql: sql), position: position + 1)
                }
                guard let statement else { break }  // only whitespace or comments remain
                position += 1
                var step = sqlite3_step(statement)
                while step == SQLITE_ROW { step = sqlite3_step(statement) }
                if step != SQLITE_DONE {
                    let error = SQLiteError(code: step, db: handle, sql: sql)  // before finalize resets the message
                    sqlite3_finalize(statement)
                    return Self.located(error, position: position)
                }
                sqlite3_finalize(statement)
                guard consumed > cursor else { break }
                cursor = consumed
            }
            return nil
        }
        if let failure { throw failure }
    }

    private static func located(_ error: SQLiteError, position: Int) -> SQLiteError {
        var error = error
        error.message = "statement \(position) of the script failed: " + error.message
        return error
    }
}

extension String {
    /// The text without leading and trailing whitespace and semicolons.
    func trimmingSQLBlanks() -> String {
        let blank: (Character) -> Bool = { $0.isWhitespace || $0 == ";" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
