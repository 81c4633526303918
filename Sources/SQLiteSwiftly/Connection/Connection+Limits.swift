import CSQLiteSwiftly

/// A run-time limit of one connection, such as the longest string or blob it accepts.
///
/// Limits protect an application from oversized input: a value longer than ``length`` is refused with
/// ``ResultCode/tooBig`` when it is bound, and nothing is written. See <https://www.sqlite.org/limits.html> and
/// <https://www.sqlite.org/c3ref/c_limit_attached.html>. Limits can be lowered freely; raising one above its
/// compile-time maximum is silently capped by SQLite.
public struct ConnectionLimit: RawRepresentable, Hashable, Sendable {
    /// SQLite's limit category number.
    public let rawValue: Int32

    /// Creates a limit from SQLite's category number.
    ///
    /// - Parameter rawValue: One of the `SQLITE_LIMIT_*` constants.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The largest string or blob, in bytes, and the largest row. The corresponding C constant is
    /// `SQLITE_LIMIT_LENGTH`.
    public static let length = ConnectionLimit(rawValue: SQLITE_LIMIT_LENGTH)
    /// The longest SQL text, in bytes. The corresponding C constant is `SQLITE_LIMIT_SQL_LENGTH`.
    public static let sqlLength = ConnectionLimit(rawValue: SQLITE_LIMIT_SQL_LENGTH)
    /// The most columns in a table, index, view or result. The corresponding C constant is `SQLITE_LIMIT_COLUMN`.
    public static let columns = ConnectionLimit(rawValue: SQLITE_LIMIT_COLUMN)
    /// The deepest expression tree. The corresponding C constant is `SQLITE_LIMIT_EXPR_DEPTH`.
    public static let expressionDepth = ConnectionLimit(rawValue: SQLITE_LIMIT_EXPR_DEPTH)
    /// The most terms in a compound SELECT. The corresponding C constant is `SQLITE_LIMIT_COMPOUND_SELECT`.
    public static let compoundSelectTerms = ConnectionLimit(rawValue: SQLITE_LIMIT_COMPOUND_SELECT)
    /// The most virtual-machine instructions in one statement. The corresponding C constant is
    /// `SQLITE_LIMIT_VDBE_OP`.
    public static let virtualMachineInstructions = ConnectionLimit(rawValue: SQLITE_LIMIT_VDBE_OP)
    /// The most arguments of an SQL function. The corresponding C constant is `SQLITE_LIMIT_FUNCTION_ARG`.
    public static let functionArguments = ConnectionLimit(rawValue: SQLITE_LIMIT_FUNCTION_ARG)
    /// The most attached databases. The corresponding C constant is `SQLITE_LIMIT_ATTACHED`.
    public static let attachedDatabases = ConnectionLimit(rawValue: SQLITE_LIMIT_ATTACHED)
    /// The longest pattern of LIKE or GLOB. The corresponding C constant is `SQLITE_LIMIT_LIKE_PATTERN_LENGTH`.
    public static let likePatternLength = ConnectionLimit(rawValue: SQLITE_LIMIT_LIKE_PATTERN_LENGTH)
    /// The largest parameter number. The corresponding C constant is `SQLITE_LIMIT_VARIABLE_NUMBER`.
    public static let parameterNumber = ConnectionLimit(rawValue: SQLITE_LIMIT_VARIABLE_NUMBER)
    /// The deepest trigger recursion. The corresponding C constant is `SQLITE_LIMIT_TRIGGER_DEPTH`.
    public static let triggerDepth = ConnectionLimit(rawValue: SQLITE_LIMIT_TRIGGER_DEPTH)
    /// The most auxiliary worker threads of one statement. The corresponding C constant is
    /// `SQLITE_LIMIT_WORKER_THREADS`.
    public static let workerThreads = ConnectionLimit(rawValue: SQLITE_LIMIT_WORKER_THREADS)
}

extension ConnectionLimit: CustomStringConvertible {
    /// The limit's name as the library spells it (`length`), or `limit <number>` for a category it does not name.
    public var description: String {
        let names: [(ConnectionLimit, String)] = [
            (.length, "length"), (.sqlLength, "sqlLength"), (.columns, "columns"),
            (.expressionDepth, "expressionDepth"), (.compoundSelectTerms, "compoundSelectTerms"),
            (.virtualMachineInstructions, "virtualMachineInstructions"), (.functionArguments, "functionArguments"),
            (.attachedDatabases, "attachedDatabases"), (.likePatternLength, "likePatternLength"),
            (.parameterNumber, "parameterNumber"), (.triggerDepth, "triggerDepth"), (.workerThreads, "workerThreads"),
        ]
        return names.first { $0.0 == self }?.1 ?? "limit \(rawValue)"
    }
}

extension Connection {
    /// The current value of a run-time limit.
    ///
    /// ```swift
    /// let longest = db.limit(.length)  // 1_000_000_000 by default
    /// ```
    ///
    /// - Parameter limit: The limit to read.
    /// - Returns: Its value, or -1 for a category this SQLite does not know.
    public func limit(_ limit: ConnectionLimit) -> Int {
        Int(sqlite3_limit(handle, limit.rawValue, -1))
    }

    /// Changes a run-time limit of this connection and returns the previous value.
    ///
    /// Values longer than the new ``ConnectionLimit/length`` are refused with ``ResultCode/tooBig`` when bound.
    /// SQLite caps a value above the compile-time maximum at that maximum; read ``limit(_:)`` to see what took.
    ///
    /// - Parameters:
    ///   - limit: The limit to change.
    ///   - value: The new value, at least 0.
    /// - Returns: The previous value.
    /// - Throws: ``SQLiteError/Kind/misuse`` for a negative value or a category this SQLite does not know.
    @discardableResult
    public func setLimit(_ limit: ConnectionLimit, to value: Int) throws(SQLiteError) -> Int {
        try requireOpen()
        guard value >= 0 else {
            throw SQLiteError(.misuse, message: "a limit cannot be negative (\(value))")
        }
        let previous = sqlite3_limit(handle, limit.rawValue, Int32(clamping: value))
        guard previous >= 0 else {
            throw SQLiteError(.misuse, message: "SQLite knows no limit category \(limit.rawValue)")
        }
        return Int(previous)
    }
}
