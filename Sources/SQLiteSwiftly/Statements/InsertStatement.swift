import CSQLiteSwiftly

/// What an insert does when the new row conflicts with an existing one (same primary key or unique value).
public enum ConflictPolicy: Hashable, Sendable {
    /// Fail with a constraint error (`INSERT`). The default.
    case fail
    /// Skip the new row (`INSERT OR IGNORE`); ``InsertStatement/insert(_:)`` then returns `nil`.
    case ignore
    /// Delete the conflicting row, then insert (`INSERT OR REPLACE`).
    case replace
    /// Update the existing row's other columns in place: an upsert (`INSERT ... ON CONFLICT (key) DO UPDATE`).
    /// Requires a primary key. ``InsertStatement/insert(_:)`` returns the row id of the inserted or updated row
    /// (read with `RETURNING rowid`, so the table must have row ids: not a `WITHOUT ROWID` table).
    case update
}

/// A prepared INSERT for one table model, compiled once and run once per row.
///
/// This is the one way to insert models: there is deliberately no one-shot `insert(_:)` on ``Connection``,
/// because it would make it too easy to compile a new statement for every row. Make the statement once and
/// reuse it; wrap many inserts in a transaction for speed.
///
/// ```swift
/// let insert = try db.makeInsertStatement(for: Planet.self)
/// try db.transaction {
///     for planet in planets { try insert.insert(planet) }
/// }
/// ```
public final class InsertStatement<Model: TableModel> {
    @usableFromInline let raw: RawStatement
    @usableFromInline let connection: Connection
    @usableFromInline let columnCount: Int

    /// What the statement does on a conflict.
    public let conflictPolicy: ConflictPolicy

    init(connection: Connection, policy: ConflictPolicy) throws(SQLiteError) {
        let columns = try ModelStatements.columns(of: Model.self, requiringKey: policy == .update)
        self.connection = connection
        conflictPolicy = policy
        columnCount = columns.count
        try connection.verifyOnce(Model.self)  // first, so that a drifted schema is a schemaMismatch error
        raw = try connection.compile(
            TableSQL.insert(Model.tableName, columns: columns, policy: policy), persistent: true)
    }

    /// The SQL the statement runs.
    public var sql: String { raw.sql }

    /// Inserts one row.
    ///
    /// The model's values are bound to the prepared statement, which runs once and is reset for the next row.
    /// On failure nothing is inserted and the statement stays usable.
    ///
    /// - Parameter model: The row to insert.
    /// - Returns: The row id of the inserted row (for an INTEGER PRIMARY KEY, its value); with
    ///   ``ConflictPolicy/update``, the row id of the row inserted or updated; `nil` when no row was written:
    ///   ``ConflictPolicy/ignore`` skipped a conflicting row, or an upsert of a model that has only key columns
    ///   found its row already there.
    /// - Throws: ``SQLiteError`` naming the table and column, such as a constraint violation, a value that
    ///   cannot be stored, or a model whose ``TableModel/encode(to:)`` does not encode one value per column.
    @inlinable @discardableResult
    public func insert(_ model: Model) throws -> Int64? {
        let returned = try ModelStatements.run(model, raw: raw, columnCount: columnCount, parameterMap: nil)
        let database = sqlite3_db_handle(raw.handle)
        switch conflictPolicy {
        case .fail, .replace: return sqlite3_last_insert_rowid(database)
        // A skipped row leaves the last insert row id of an earlier insert: the change count tells.
        case .ignore: return sqlite3_changes64(database) > 0 ? sqlite3_last_insert_rowid(database) : nil
        // An update in place does not set the last insert row id; RETURNING gives the row's id either way.
        case .update: return returned
        }
    }
}

/// A prepared UPDATE of one table model by primary key, compiled once and run once per row.
///
/// ```swift
/// let update = try db.makeUpdateStatement(for: Planet.self)
/// mars.moons = 2
/// let found = try update.update(mars)   // false if no row has mars.id
/// ```
public final class UpdateStatement<Model: TableModel> {
    @usableFromInline let raw: RawStatement
    @usableFromInline let connection: Connection
    @usableFromInline let columnCount: Int

    init(connection: Connection) throws(SQLiteError) {
        let columns = try ModelStatements.columns(of: Model.self, requiringKey: true)
        guard columns.contains(where: { !$0.isPrimaryKey }) else {
            var error = SQLiteError(.misuse, message: "\(Model.self) has only primary-key columns: nothing to update")
            error.table = Model.tableName
            throw error
        }
        self.connection = connection
        columnCount = columns.count
        try connection.verifyOnce(Model.self)  // first, so that a drifted schema is a schemaMismatch error
        raw = try connection.compile(TableSQL.update(Model.tableName, columns: columns), persistent: true)
    }

    /// The SQL the statement runs.
    public var sql: String { raw.sql }

    /// Updates the row with the model's primary key to the model's values.
    ///
    /// - Parameter model: The new values, with the primary key of the row to change.
    /// - Returns: `true` if a row was updated, `false` if no row has that primary key.
    /// - Throws: ``SQLiteError`` naming the table and column, such as a constraint violation.
    @inlinable @discardableResult
    public func update(_ model: Model) throws -> Bool {
        try ModelStatements.run(model, raw: raw, columnCount: columnCount, parameterMap: nil)
        return sqlite3_changes64(sqlite3_db_handle(raw.handle)) > 0
    }
}

/// A prepared DELETE of one table model by primary key, compiled once and run once per row.
public final class DeleteStatement<Model: TableModel> {
    @usableFromInline let raw: RawStatement
    @usableFromInline let connection: Connection
    @usableFromInline let parameterMap: [Int32]

    init(connection: Connection) throws(SQLiteError) {
        let columns = try ModelStatements.columns(of: Model.self, requiringKey: true)
        var next: Int32 = 0
        parameterMap = columns.map { column in
            guard column.isPrimaryKey else { return 0 }
            next += 1
            return next
        }
        self.connection = connection
        try connection.verifyOnce(Model.self)  // first, so that a drifted schema is a schemaMismatch error
        raw = try connection.compile(TableSQL.delete(Model.tableName, columns: columns), persistent: true)
    }

    /// The SQL the statement runs.
    public var sql: String { raw.sql }

    /// Deletes the row with the model's primary key.
    ///
    /// - Parameter model: The row to delete; only its primary-key values are used.
    /// - Returns: `true` if a row was deleted, `false` if no row has that primary key.
    /// - Throws: ``SQLiteError``, such as a foreign-key violation.
    @inlinable @discardableResult
    public func delete(_ model: Model) throws -> Bool {
        try ModelStatements.run(model, raw: raw, columnCount: parameterMap.count, parameterMap: parameterMap)
        return sqlite3_changes64(sqlite3_db_handle(raw.handle)) > 0
    }
}

@available(*, unavailable, message: "An InsertStatement belongs to its connection's owner")
extension InsertStatement: Sendable {}
@available(*, unavailable, message: "An UpdateStatement belongs to its connection's owner")
extension UpdateStatement: Sendable {}
@available(*, unavailable, message: "A DeleteStatement belongs to its connection's owner")
extension DeleteStatement: Sendable {}

/// What the model-bound statements share: column checks and the encode-then-step run.
@usableFromInline
enum ModelStatements {
    static func columns<Model: TableModel>(of type: Model.Type, requiringKey: Bool) throws(SQLiteError) -> [Column] {
        let columns = Model.columns
        var problem: String?
        if columns.isEmpty {
            problem = "\(Model.self) declares no columns"
        } else if requiringKey && !columns.contains(where: \.isPrimaryKey) {
            problem = "\(Model.self) declares no primary key, which this statement needs"
        }
        if let problem {
            var error = SQLiteError(.misuse, message: problem)
            error.table = Model.tableName
            throw error
        }
        return columns
    }

    /// Binds the model's values and runs the statement once; returns the first column of the last row it
    /// produced (an upsert's `RETURNING rowid`), `nil` when it produced none.
    @inlinable @discardableResult static func run<Model: TableModel>(
        _ model: Model, raw: RawStatement, columnCount: Int, parameterMap: [Int32]?
    ) throws -> Int64? {
        raw.begin()
        var encoder = RowEncoder(statement: raw.handle, parameterMap: parameterMap)
        do {
            try model.encode(to: &encoder)
        } catch {
            raw.abandon()
            throw locate(error, in: Model.self)
        }
        guard encoder.count == columnCount else {
            raw.abandon()
            throw countMismatch(encoded: encoder.count, expected: columnCount, in: Model.self, sql: raw.sql)
        }
        do {
            var returned: Int64?
            while try raw.step() { returned = sqlite3_column_int64(raw.handle, 0) }
            return returned
        } catch {
            throw error.with(table: Model.tableName)
        }
    }

    /// Names the table, and the column of a parameter error.
    @usableFromInline static func locate<Model: TableModel>(_ error: any Error, in type: Model.Type) -> any Error {
        guard let error = error as? SQLiteError else { return error }
        var column: String?
        if let parameter = error.parameter, parameter.hasPrefix("?"), let index = Int(parameter.dropFirst()) {
            let columns = Model.columns
            if index >= 1 && index <= columns.count { column = columns[index - 1].name }
        }
        return error.with(table: Model.tableName, column: column)
    }

    @usableFromInline static func countMismatch<Model: TableModel>(
        encoded: Int, expected: Int, in type: Model.Type, sql: String
    ) -> SQLiteError {
        var error = SQLiteError(
            .parameterMismatch,
            message: "\(Model.self).encode(to:) encoded \(encoded) values but the model declares \(expected) columns",
            sql: sql)
        error.table = Model.tableName
        return error
    }
}
