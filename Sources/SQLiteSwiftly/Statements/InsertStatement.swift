import CSQLiteSwiftly

/// What ``InsertStatement/insert(_:)`` does when the new row conflicts with an existing one (same primary key
/// or unique value).
public enum ConflictPolicy: Hashable, Sendable {
    /// Fail with a constraint error (`INSERT`). The default.
    case fail
    /// Delete the conflicting row, then insert (`INSERT OR REPLACE`).
    case replace
    /// Update the existing row's other columns in place: an upsert (`INSERT ... ON CONFLICT (key) DO UPDATE`).
    /// Requires a primary key and another column. The row id returned is that of the inserted or updated row
    /// (read with `RETURNING rowid`, so the table must have row ids: not a `WITHOUT ROWID` table).
    case update
}

/// A prepared INSERT for one table model, compiled once and run once per row.
///
/// ``Connection/insert(_:)`` inserts one model through a statement the connection compiles once per model and
/// keeps in its cache; an `InsertStatement` is the same statement held by the caller, with a choice of
/// ``ConflictPolicy``, and saves the cache lookup of each row. Make it once and reuse it; wrap many inserts in a
/// transaction for speed.
///
/// ```swift
/// let insert = try db.makeInsertStatement(for: Planet.self)
/// try db.transaction {
///     for planet in planets { try insert.insert(planet) }
/// }
/// ```
///
/// Each insert first runs the model's ``TableModel/willSave()`` on a copy, which can refuse or adjust the row.
public final class InsertStatement<Model: TableModel> {
    @usableFromInline let raw: RawStatement
    @usableFromInline let connection: Connection
    /// The `INSERT ... ON CONFLICT DO NOTHING` of ``insertIfNew(_:)``, compiled at its first use.
    @usableFromInline var skipping: RawStatement?

    /// What ``insert(_:)`` does on a conflict.
    public let conflictPolicy: ConflictPolicy

    init(connection: Connection, policy: ConflictPolicy) throws(SQLiteError) {
        let columns =
            try policy == .update
            ? TableSQL.upsertColumns(of: Model.self) : TableSQL.checkedColumns(of: Model.self, requiringKey: false)
        self.connection = connection
        conflictPolicy = policy
        try connection.verifyOnce(Model.self)  // first, so that a drifted schema is a schemaMismatch error
        raw = try connection.compile(
            TableSQL.insert(Model.tableName, columns: columns, policy: policy), persistent: true)
    }

    /// The SQL ``insert(_:)`` runs.
    public var sql: String { raw.sql }

    /// Inserts one row and returns its row id.
    ///
    /// The model's values are bound to the prepared statement, which runs once and is reset for the next row.
    /// On failure nothing is inserted and the statement stays usable.
    ///
    /// - Parameter model: The row to insert.
    /// - Returns: The row id of the inserted row (for an INTEGER PRIMARY KEY, its value); with
    ///   ``ConflictPolicy/update``, the row id of the row inserted or updated.
    /// - Throws: ``SQLiteError`` naming the table and column, such as a constraint violation, a value that
    ///   cannot be stored, or a model whose ``TableModel/encode(to:)`` does not encode one value per column;
    ///   what the model's ``TableModel/willSave()`` throws.
    @inlinable @discardableResult
    public func insert(_ model: Model) throws -> Int64 {
        var model = model
        try model.willSave()
        let returned = try ModelWrite.run(model, raw: raw, on: connection)
        guard conflictPolicy == .update else { return connection.lastInsertedRowID }
        // An update in place does not set the last insert row id; RETURNING gives the row's id either way.
        guard let returned else {
            throw SQLiteError(.misuse, message: "the upsert returned no row id", sql: raw.sql).with(
                table: Model.tableName)
        }
        return returned
    }

    /// Inserts one row unless a row with the same primary key or unique value exists.
    ///
    /// Only a uniqueness conflict skips the row (`ON CONFLICT DO NOTHING`): a NOT NULL, CHECK or foreign-key
    /// violation still throws. The statement is compiled at the first call and reused.
    ///
    /// - Parameter model: The row to insert.
    /// - Returns: The row id of the inserted row, or `nil` when it was skipped.
    /// - Throws: As ``insert(_:)``.
    @inlinable @discardableResult
    public func insertIfNew(_ model: Model) throws -> Int64? {
        var model = model
        try model.willSave()
        let statement = try skipping ?? makeSkipping()
        try ModelWrite.run(model, raw: statement, on: connection)
        return connection.changes > 0 ? connection.lastInsertedRowID : nil
    }

    @usableFromInline func makeSkipping() throws(SQLiteError) -> RawStatement {
        let sql = TableSQL.insertIfNew(Model.tableName, columns: Model.columns)
        try connection.verifyOnce(Model.self)  // the schema may have changed since init
        let statement = try connection.compile(sql, persistent: true)
        skipping = statement
        return statement
    }
}

@available(*, unavailable, message: "An InsertStatement belongs to its connection's owner")
extension InsertStatement: Sendable {}

/// The encode-then-step run shared by the model writes: insert, update and delete.
@usableFromInline
enum ModelWrite {
    /// Binds the model's values and runs the statement once; returns the first column of the last row it
    /// produced (an upsert's `RETURNING rowid`), `nil` when it produced none.
    @inlinable @discardableResult static func run<Model: TableModel>(
        _ model: Model, raw: RawStatement, on connection: Connection
    ) throws -> Int64? {
        // After a schema change the statement re-prepares at its step and stores the values as the new schema says
        // (TEXT "007" as INTEGER 7, say): the model is verified against the schema first whenever the schema may
        // have changed since the last verification, which only a commit, a rollback or this connection's own
        // schema statement can do while a write runs (see ChangeTracker.schemaEpoch).
        let epoch = raw.tracker.schemaEpoch
        if epoch != raw.verifiedEpoch {
            try connection.verifyOnce(Model.self)
            raw.verifiedEpoch = epoch
        }
        try raw.begin()
        raw.isCallingOut = true  // while the model's `encode(to:)` runs
        defer { raw.isCallingOut = false }
        var encoder = RowEncoder(raw: raw)
        do {
            try model.encode(to: &encoder)
        } catch {
            raw.abandon()
            throw locate(error, in: Model.self, sql: raw.sql)
        }
        let expected = raw.parameterMap?.count ?? Int(raw.parameterCount)
        guard encoder.count == expected else {
            raw.abandon()
            throw countMismatch(encoded: encoder.count, expected: expected, in: Model.self, sql: raw.sql)
        }
        do {
            var returned: Int64?
            while try raw.step() { returned = sqlite3_column_int64(raw.handle, 0) }
            return returned
        } catch {
            throw error.with(table: Model.tableName)
        }
    }

    /// Names the table, the SQL, and the column of a parameter error.
    @usableFromInline static func locate<Model: TableModel>(_ error: any Error, in type: Model.Type, sql: String)
        -> any Error
    {
        guard let error = error as? SQLiteError else { return error }
        var column: String?
        if let parameter = error.parameter, parameter.hasPrefix("?"), let index = Int(parameter.dropFirst()) {
            let columns = Model.columns
            if index >= 1 && index <= columns.count { column = columns[index - 1].name }
        }
        return error.with(sql: sql, table: Model.tableName, column: column)
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
