import CSQLiteSwiftly

/// Runs a script of several SQL statements, one compiled statement at a time.
enum ScriptRunner {
    static func run(_ script: String, on database: OpaquePointer) throws(SQLiteError) {
        var text = script
        let failure: SQLiteError? = text.withUTF8 { utf8 -> SQLiteError? in
            guard let base = utf8.baseAddress else { return nil }
            return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) { start -> SQLiteError? in
                var cursor = start
                let end = start + utf8.count
                var position = 0
                while cursor < end {
                    // Skip blanks between statements, so that each statement's text (errors, traces) starts
                    // with the statement itself.
                    while cursor < end && (cursor.pointee == 0x20 || (0x09...0x0D).contains(cursor.pointee)) {
                        cursor += 1
                    }
                    guard cursor < end else { break }
                    var statement: OpaquePointer?
                    var tail: UnsafePointer<CChar>?
                    let code = sqlite3_prepare_v2(database, cursor, Int32(clamping: end - cursor), &statement, &tail)
                    let consumed = tail ?? UnsafePointer(end)
                    let sql = String(
                        decoding: UnsafeRawBufferPointer(start: cursor, count: consumed - cursor), as: UTF8.self
                    )
                    .trimmingWhitespace()
                    guard code == SQLITE_OK else {
                        return located(SQLiteCalls.error(code, db: database, sql: sql), position: position + 1)
                    }
                    guard let statement else { break }  // only whitespace or comments remain
                    position += 1
                    var step = sqlite3_step(statement)
                    while step == SQLITE_ROW { step = sqlite3_step(statement) }
                    if step != SQLITE_DONE {
                        let error = SQLiteCalls.error(step, db: database, sql: sql)
                        sqlite3_finalize(statement)
                        return located(error, position: position)
                    }
                    sqlite3_finalize(statement)
                    cursor = consumed
                }
                return nil
            }
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
    func trimmingWhitespace() -> String {
        let blank: (Character) -> Bool = { $0.isWhitespace || $0 == ";" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
