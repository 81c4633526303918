import CSQLiteSwiftly

/// Internal helpers shared by the few files that call the SQLite C API.
@usableFromInline
enum SQLiteCalls {
    /// `SQLITE_TRANSIENT`: a C macro Swift cannot import. It tells SQLite to copy text and blobs at bind time.
    @usableFromInline
    static var transient: sqlite3_destructor_type {
        unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    }

    /// Builds an error from the connection's last error, or from `code` alone when there is no connection.
    @usableFromInline
    static func error(_ code: Int32, db: OpaquePointer?, sql: String? = nil) -> SQLiteError {
        let resultCode: ResultCode
        let message: String
        if let db {
            // The extended code of the last failure is more precise than the returned primary code, but only
            // when it refines the same primary code (a later call may have replaced it).
            let extended = sqlite3_extended_errcode(db)
            resultCode = ResultCode(rawValue: (extended & 0xFF) == (code & 0xFF) ? extended : code)
            message = String(cString: sqlite3_errmsg(db))
        } else {
            resultCode = ResultCode(rawValue: code)
            message = resultCode.description
        }
        var error = SQLiteError(.sqlite, code: resultCode, message: message, sql: sql)
        if resultCode.primary == .notADatabase { error.kind = .notADatabase }
        return error
    }

    /// Builds an error from a failed statement call; SQLite keeps the message on the statement's connection.
    @usableFromInline
    static func error(_ code: Int32, statement: OpaquePointer) -> SQLiteError {
        error(code, db: sqlite3_db_handle(statement), sql: String(cString: sqlite3_sql(statement)))
    }

    /// Quotes an SQL identifier: `my "table"` becomes `"my ""table"""`.
    static func quote(_ identifier: String) -> String {
        var quoted = "\""
        for character in identifier {
            quoted.append(character)
            if character == "\"" { quoted.append(character) }
        }
        quoted.append("\"")
        return quoted
    }
}
