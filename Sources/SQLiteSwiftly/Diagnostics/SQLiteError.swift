import CSQLiteSwiftly

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
///
/// `description` and `localizedDescription` give the same one-line text.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// What kind of failure an ``SQLiteError`` reports.
    ///
    /// Kinds are values, not enum cases, so that new kinds can be added without breaking a `switch`: match
    /// the kinds you handle and add a `default` branch.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, as printed in ``SQLiteError/description``.
        public let rawValue: String

        /// Creates a kind from its name.
        ///
        /// - Parameter rawValue: The name printed in descriptions.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The kind's name.
        public var description: String { rawValue }

        /// SQLite itself reported an error; ``SQLiteError/code`` says which.
        public static let sqlite = Kind(rawValue: "SQLite error")
        /// A new database was requested, but something already exists at the path.
        public static let databaseAlreadyExists = Kind(rawValue: "database already exists")
        /// An existing database was requested, but nothing exists at the path.
        public static let databaseNotFound = Kind(rawValue: "database not found")
        /// The file at the path is not an SQLite database (or not a file at all, such as a directory).
        public static let notADatabase = Kind(rawValue: "not a database")
        /// The arguments do not match the statement's parameters (count, names or interpolation).
        public static let parameterMismatch = Kind(rawValue: "parameter mismatch")
        /// A row type does not match the statement's result columns: a column it needs is missing or ambiguous.
        public static let modelMismatch = Kind(rawValue: "model mismatch")
        /// A stored value cannot be converted to the requested Swift type, or a Swift value cannot be stored.
        public static let conversionFailed = Kind(rawValue: "conversion failed")
        /// A table model does not match the table that exists in the database.
        public static let schemaMismatch = Kind(rawValue: "schema mismatch")
        /// SQLite rolled a transaction back by itself, or a transaction ended outside the library's control.
        public static let transactionRolledBack = Kind(rawValue: "transaction rolled back")
        /// The database's applied migrations do not match a ``Migrator``'s list: the database has applied a
        /// migration the migrator does not know (it is newer than the app), or applied them in another order.
        public static let migrationMismatch = Kind(rawValue: "migration mismatch")
        /// The library was used in a way it does not allow, such as SQL holding two statements.
        public static let misuse = Kind(rawValue: "misuse")
        /// A Swift function called from SQL threw, or received an argument it could not convert;
        /// ``SQLiteError/function`` names it.
        public static let functionFailed = Kind(rawValue: "function failed")
        /// A deferred transaction that had read tried to write while another connection was writing, or after
        /// another connection had committed: SQLite fails such a write at once, without waiting, because
        /// waiting could deadlock. Begin transactions that write with ``TransactionKind/immediate`` (the
        /// default), which wait for the write lock at `BEGIN`. The code is `SQLITE_BUSY` (or
        /// `SQLITE_BUSY_SNAPSHOT` in WAL mode), so ``SQLiteError/isBusy`` is `true`.
        public static let deferredWriteConflict = Kind(rawValue: "deferred write conflict")
        /// The database file was unlinked, renamed or replaced while the connection had it open. The connection
        /// still reads and writes the file it opened, which no other program finds at its path any more; writes are
        /// refused before they commit, and observations end with this error. Open the database again at its path.
        public static let databaseMoved = Kind(rawValue: "database moved")
        /// A search pattern cannot run: the text of a ``SearchPattern`` is longer than it allows (code
        /// ``ResultCode/tooBig``), or a raw FTS5 query is not valid FTS5 syntax (FTS5's message says where).
        public static let invalidSearchPattern = Kind(rawValue: "invalid search pattern")
        /// A tokenizer written in Swift threw, or produced a token outside its text, while SQLite indexed or
        /// searched text; ``SQLiteError/function`` names the tokenizer.
        public static let tokenizerFailed = Kind(rawValue: "tokenizer failed")
        /// A relation between two models is not one their declared foreign keys support: no foreign key links
        /// their tables as the relation says, or several do and none was chosen, or a key references a column its
        /// model does not declare.
        public static let unsupportedRelation = Kind(rawValue: "unsupported relation")
        /// The SQLite in use was built without the session extension (`SQLITE_ENABLE_SESSION`), which records
        /// and applies changesets: see ``Changeset``.
        public static let sessionUnavailable = Kind(rawValue: "session extension unavailable")
        /// The bytes of a ``Changeset`` or ``Patchset`` are not one: truncated, corrupted, or the other format.
        public static let invalidChangeset = Kind(rawValue: "invalid changeset")
        /// A changeset could not be applied as it is: a row it changes was changed or deleted since, a row it
        /// inserts exists, or it breaks a constraint. Nothing of it was applied; ``SQLiteError/table`` names the
        /// table.
        public static let changesetConflict = Kind(rawValue: "changeset conflict")
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
    /// The Swift function or collation involved, for ``Kind/functionFailed`` errors and registration errors.
    public var function: String?
    /// The individual differences, for ``Kind/schemaMismatch`` errors.
    public var differences: [SchemaDifference]

    /// Creates an error.
    ///
    /// Custom ``SQLiteValueConvertible`` types throw ``Kind/conversionFailed`` errors from their
    /// conversions; the library fills in table, column, row and SQL where it knows them.
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
        if let function { place.append("function \(function)") }
        if !place.isEmpty { text += " (" + place.joined(separator: ", ") + ")" }
        if let sql { text += " in SQL: \(sql)" }
        return text
    }

    /// The same text as ``description``, so that `localizedDescription` says what went wrong and where.
    public var errorDescription: String? {
        description
    }

    static func defaultCode(for kind: Kind) -> ResultCode {
        switch kind {
        case .sqlite: .error
        case .databaseAlreadyExists, .databaseNotFound: .cannotOpen
        case .notADatabase: .notADatabase
        case .parameterMismatch: .range
        case .modelMismatch, .conversionFailed, .schemaMismatch, .migrationMismatch: .mismatch
        case .transactionRolledBack: .abort
        case .functionFailed: .error
        case .deferredWriteConflict: .busy
        case .invalidSearchPattern, .tokenizerFailed: .error
        default: .misuse
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

    /// A copy with the given places filled in where this error has none.
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

    /// The error SQLite left on a connection after `code`, or `code`'s own text when there is no connection.
    @usableFromInline init(code: Int32, db: OpaquePointer?, sql: String? = nil) {
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
        self.init(resultCode.primary == .notADatabase ? .notADatabase : .sqlite, code: resultCode, message: message)
        self.sql = sql
        // SQLite's own refusal to write to a moved file (rollback-journal mode): SQLITE_READONLY_DBMOVED.
        if resultCode == .readOnlyDatabaseMoved { kind = .databaseMoved }
        // Busy inside a transaction that holds only a read lock: SQLite refused to wait (it would deadlock).
        if resultCode.primary == .busy, let db, sqlite3_get_autocommit(db) == 0,
            sqlite3_txn_state(db, nil) == SQLITE_TXN_READ
        {
            kind = .deferredWriteConflict
            self.message =
                "a deferred transaction that has read cannot write while another connection writes or after it "
                + "committed, and SQLite does not wait here (\(message)); begin the transaction with "
                + ".immediate (the default), which waits for the write lock at BEGIN"
        }
    }

    /// The error of a failed statement call: SQLite keeps the message on the statement's connection.
    @usableFromInline init(code: Int32, statement: OpaquePointer) {
        self.init(code: code, db: sqlite3_db_handle(statement), sql: sqlite3_sql(statement).map { String(cString: $0) })
        locateConstraint()
    }

    /// Fills in the table and column of a UNIQUE, PRIMARY KEY or NOT NULL violation from SQLite's message
    /// (`UNIQUE constraint failed: items.id`), which names them when a single column is involved.
    /// Other constraints put other text there: a CHECK its expression (`amount >= 0.5`), which is no place.
    mutating func locateConstraint() {
        guard [.constraintUnique, .constraintPrimaryKey, .constraintNotNull].contains(code), table == nil,
            let colon = message.firstRange(of: "constraint failed: ")
        else {
            return
        }
        let place = message[colon.upperBound...]
        guard !place.contains(","), let dot = place.firstIndex(of: ".") else { return }
        table = String(place[..<dot])
        column = column ?? String(place[place.index(after: dot)...])
    }

    /// The error for an out-of-memory condition SQLite signalled with a NULL pointer, not a result code.
    @usableFromInline static func outOfMemory(_ what: String) -> SQLiteError {
        SQLiteError(.sqlite, code: .noMemory, message: "SQLite ran out of memory while \(what)")
    }
}
