import CSQLiteSwiftly

/// An SQLite result code, primary or extended.
///
/// SQLite reports the outcome of every call as an integer. Extended codes refine a primary code in their
/// high bits: `SQLITE_CONSTRAINT_UNIQUE` (2067) is the primary `SQLITE_CONSTRAINT` (19) plus detail.
/// New codes added by future SQLite versions are still representable, so switching over the named
/// constants never breaks. See <https://www.sqlite.org/rescode.html>.
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw integer code as returned by SQLite.
    public let rawValue: Int32

    /// Creates a result code from SQLite's raw integer.
    ///
    /// - Parameter rawValue: A primary or extended SQLite result code.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code: the low eight bits of an extended code.
    public var primary: ResultCode {
        ResultCode(rawValue: rawValue & 0xFF)
    }

    /// SQLite's English description of the code, from `sqlite3_errstr`.
    public var description: String {
        String(cString: sqlite3_errstr(rawValue))
    }

    /// Successful result. The corresponding C constant is `SQLITE_OK`.
    public static let ok = ResultCode(rawValue: SQLITE_OK)
    /// Generic error. The corresponding C constant is `SQLITE_ERROR`.
    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    /// Internal logic error in SQLite. The corresponding C constant is `SQLITE_INTERNAL`.
    public static let `internal` = ResultCode(rawValue: SQLITE_INTERNAL)
    /// Access permission denied. The corresponding C constant is `SQLITE_PERM`.
    public static let permission = ResultCode(rawValue: SQLITE_PERM)
    /// A callback asked for an abort. The corresponding C constant is `SQLITE_ABORT`.
    public static let abort = ResultCode(rawValue: SQLITE_ABORT)
    /// The database file is locked by another connection. The corresponding C constant is `SQLITE_BUSY`.
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    /// A table in the database is locked. The corresponding C constant is `SQLITE_LOCKED`.
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    /// A memory allocation failed. The corresponding C constant is `SQLITE_NOMEM`.
    public static let noMemory = ResultCode(rawValue: SQLITE_NOMEM)
    /// Attempt to write a read-only database. The corresponding C constant is `SQLITE_READONLY`.
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    /// The operation was interrupted. The corresponding C constant is `SQLITE_INTERRUPT`.
    public static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
    /// A disk I/O error occurred. The corresponding C constant is `SQLITE_IOERR`.
    public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    /// The database disk image is malformed. The corresponding C constant is `SQLITE_CORRUPT`.
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    /// The database or disk is full. The corresponding C constant is `SQLITE_FULL`.
    public static let full = ResultCode(rawValue: SQLITE_FULL)
    /// Unable to open the database file. The corresponding C constant is `SQLITE_CANTOPEN`.
    public static let cannotOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    /// The database schema changed. The corresponding C constant is `SQLITE_SCHEMA`.
    public static let schema = ResultCode(rawValue: SQLITE_SCHEMA)
    /// A string or blob exceeds the size limit. The corresponding C constant is `SQLITE_TOOBIG`.
    public static let tooBig = ResultCode(rawValue: SQLITE_TOOBIG)
    /// A constraint was violated. The corresponding C constant is `SQLITE_CONSTRAINT`.
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    /// A value does not have the expected type. The corresponding C constant is `SQLITE_MISMATCH`.
    public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    /// The library was used incorrectly. The corresponding C constant is `SQLITE_MISUSE`.
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    /// A parameter index is out of range. The corresponding C constant is `SQLITE_RANGE`.
    public static let range = ResultCode(rawValue: SQLITE_RANGE)
    /// The file is not a database. The corresponding C constant is `SQLITE_NOTADB`.
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
    /// A row of results is ready. The corresponding C constant is `SQLITE_ROW`.
    public static let row = ResultCode(rawValue: SQLITE_ROW)
    /// A statement finished running. The corresponding C constant is `SQLITE_DONE`.
    public static let done = ResultCode(rawValue: SQLITE_DONE)
    /// A WAL-mode read transaction could not become a write transaction, because another connection committed
    /// since it began reading. The corresponding C constant is `SQLITE_BUSY_SNAPSHOT`.
    public static let busySnapshot = ResultCode(rawValue: 5 | (2 << 8))
    /// `SQLITE_READONLY_DBMOVED`: the database file was moved or unlinked since it was opened, and SQLite refuses
    /// to write to it (in rollback-journal mode, its journal would be named after a path that is gone).
    public static let readOnlyDatabaseMoved = ResultCode(rawValue: 8 | (4 << 8))
    /// A UNIQUE constraint failed. The corresponding C constant is `SQLITE_CONSTRAINT_UNIQUE`.
    public static let constraintUnique = ResultCode(rawValue: 19 | (8 << 8))
    /// A PRIMARY KEY constraint failed. The corresponding C constant is `SQLITE_CONSTRAINT_PRIMARYKEY`.
    public static let constraintPrimaryKey = ResultCode(rawValue: 19 | (6 << 8))
    /// A NOT NULL constraint failed. The corresponding C constant is `SQLITE_CONSTRAINT_NOTNULL`.
    public static let constraintNotNull = ResultCode(rawValue: 19 | (5 << 8))
    /// A FOREIGN KEY constraint failed. The corresponding C constant is `SQLITE_CONSTRAINT_FOREIGNKEY`.
    public static let constraintForeignKey = ResultCode(rawValue: 19 | (3 << 8))
}
