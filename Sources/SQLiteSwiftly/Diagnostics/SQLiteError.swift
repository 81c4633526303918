/// The one error type thrown by SQLiteSwiftly.
///
/// An error says what went wrong (``kind``), SQLite's result code and message when SQLite reported it,
/// and where it happened: the SQL text, the database path, the table, column, row or parameter involved.
/// Bound values are never recorded, because they may be private data.
///
/// ```swift
/// do {
///     _ = try Connection(creating: path)
/// } catch {
///     // error is an SQLiteError: the initializer uses typed throws.
///     if error.kind == .databaseAlreadyExists { print(error) }
///     // database already exists: a file already exists at '/tmp/app.db' (path '/tmp/app.db')
/// }
/// ```
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure an ``SQLiteError`` reports.
    public enum Kind: String, Hashable, Sendable {
        /// SQLite itself reported an error; ``SQLiteError/code`` says which.
        case sqlite = "SQLite error"
        /// A new database was requested, but something already exists at the path.
        case databaseAlreadyExists = "database already exists"
        /// An existing database was requested, but nothing exists at the path.
        case databaseNotFound = "database not found"
        /// The file at the path is not an SQLite database.
        case notADatabase = "not a database"
        /// The arguments do not match the statement's parameters (count, names or list expansion).
        case parameterMismatch = "parameter mismatch"
        /// A row type does not match the statement's result columns (count or names).
        case modelMismatch = "model mismatch"
        /// A stored value cannot be converted to the requested Swift type, or a Swift value cannot be stored.
        case conversionFailed = "conversion failed"
        /// A table model does not match the table that exists in the database.
        case schemaMismatch = "schema mismatch"
        /// SQLite rolled a transaction back by itself, or a transaction ended outside the library's control.
        case transactionRolledBack = "transaction rolled back"
        /// The database's applied migrations do not match a ``Migrator``'s list: the database has applied a
        /// migration the migrator does not know (it is newer than the app), or applied them in another order.
        case migrationMismatch = "migration mismatch"
        /// The library was used in a way it does not allow, such as SQL holding two statements.
        case misuse = "misuse"
    }

    /// What kind of failure this is.
    public var kind: Kind
    /// The SQLite result code, extended when SQLite gave one.
    ///
    /// Errors raised by the library itself use the closest SQLite code: ``ResultCode/cannotOpen`` for the
    /// open modes, ``ResultCode/notADatabase``, ``ResultCode/range`` for parameters, ``ResultCode/mismatch``
    /// for models, conversions and schemas, ``ResultCode/abort`` for rolled-back transactions and
    /// ``ResultCode/misuse`` for misuse.
    public var code: ResultCode
    /// A human-readable explanation: SQLite's message, or the library's.
    public var message: String
    /// The SQL text that failed, when there is one. Never contains bound values.
    public var sql: String?
    /// The database path, for errors raised while opening, creating or copying a database.
    public var path: String?
    /// The table involved, for model, conversion and schema errors.
    public var table: String?
    /// The column involved, for conversion and model errors.
    public var column: String?
    /// The 1-based row number within the statement's results, for conversion errors while reading.
    public var row: Int?
    /// The parameter involved, as a name (`:id`) or a 1-based position (`?3`).
    public var parameter: String?
    /// The individual differences, for ``Kind/schemaMismatch`` errors.
    public var differences: [SchemaDifference]

    /// Creates an error.
    ///
    /// Custom ``SQLiteValueConvertible`` types throw ``Kind/conversionFailed`` errors from their
    /// conversions; the library fills in table, column and row where it knows them.
    ///
    /// - Parameters:
    ///   - kind: What kind of failure this is.
    ///   - code: The SQLite result code; by default the closest code for `kind`.
    ///   - message: A human-readable explanation.
    ///   - sql: The SQL text involved, if any.
    public init(_ kind: Kind, code: ResultCode? = nil, message: String, sql: String? = nil) {
        self.kind = kind
        self.code = code ?? Self.defaultCode(for: kind)
        self.message = message
        self.sql = sql
        self.differences = []
    }

    /// Whether SQLite gave up waiting for a lock held by another connection (`SQLITE_BUSY`).
    public var isBusy: Bool {
        code.primary == .busy
    }

    /// A one-line, log-friendly description: kind, message, code and location. No bound values.
    public var description: String {
        var text = "\(kind.rawValue): \(message)"
        if kind == .sqlite || code.primary != Self.defaultCode(for: kind) {
            text += " [code \(code.rawValue)"
            if code.primary != code { text += ", primary \(code.primary.rawValue)" }
            text += "]"
        }
        var place: [String] = []
        if let path { place.append("path '\(path)'") }
        if let table { place.append("table \"\(table)\"") }
        if let column { place.append("column \"\(column)\"") }
        if let row { place.append("row \(row)") }
        if let parameter { place.append("parameter \(parameter)") }
        if !place.isEmpty { text += " (" + place.joined(separator: ", ") + ")" }
        if let sql { text += " in SQL: \(sql)" }
        return text
    }

    static func defaultCode(for kind: Kind) -> ResultCode {
        switch kind {
        case .sqlite: .error
        case .databaseAlreadyExists, .databaseNotFound: .cannotOpen
        case .notADatabase: .notADatabase
        case .parameterMismatch: .range
        case .modelMismatch, .conversionFailed, .schemaMismatch, .migrationMismatch: .mismatch
        case .transactionRolledBack: .abort
        case .misuse: .misuse
        }
    }
}

extension SQLiteError {
    /// Returns a conversion error naming the value that could not be converted.
    ///
    /// Use it in custom ``SQLiteValueConvertible`` conversions.
    ///
    /// - Parameter message: What was wrong with the value, without the value itself.
    /// - Returns: An error of kind ``Kind/conversionFailed``.
    public static func conversion(_ message: String) -> SQLiteError {
        SQLiteError(.conversionFailed, message: message)
    }

    @usableFromInline func with(
        sql: String? = nil, path: String? = nil, table: String? = nil, column: String? = nil,
        row: Int? = nil, parameter: String? = nil
    ) -> SQLiteError {
        var copy = self
        if copy.sql == nil { copy.sql = sql }
        if copy.path == nil { copy.path = path }
        if copy.table == nil { copy.table = table }
        if copy.column == nil { copy.column = column }
        if copy.row == nil { copy.row = row }
        if copy.parameter == nil { copy.parameter = parameter }
        return copy
    }
}
