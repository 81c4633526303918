// Table-model conveniences: create the table, read rows as models, update and delete by primary key, and make
// the prepared insert statement. Inserts, upserts and reads and deletes by id are in `Connection+ModelWrites`.

extension Connection {
    /// Creates the table a model describes, with its constraints and indexes, all or nothing.
    ///
    /// For a ``FullTextSearchable`` model, the full-text index and the triggers that keep it in step are created
    /// in the same transaction.
    ///
    /// ```swift
    /// try db.createTable(for: Planet.self)
    /// // CREATE TABLE "planets" ("id" INTEGER PRIMARY KEY NOT NULL, "name" TEXT NOT NULL, ...)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The table model.
    ///   - ifNotExists: Whether an existing table (and index) with the same name is accepted as is.
    /// - Throws: ``SQLiteError``, for instance when the table exists and `ifNotExists` is `false`, or the
    ///   model declares what SQLite cannot create (an empty or duplicate name, a misplaced `AUTOINCREMENT`).
    public func createTable<Model: TableModel>(for type: Model.Type, ifNotExists: Bool = false) throws(SQLiteError) {
        let statements = try TableSQL.creation(of: type, ifNotExists: ifNotExists)
        do {
            try withTransaction(.immediate) { () throws(SQLiteError) in
                // A full-text index created here over a table that already exists must index its rows.
                let unfilledIndex = ifNotExists ? try fullTextIndexToFill(for: type) : nil
                for sql in statements { try execute(SQL(verbatim: sql)) }
                if let unfilledIndex { try execute(SQL(verbatim: FullTextSQL.rebuild(unfilledIndex))) }
            }
        } catch {
            throw error.with(table: Model.tableName)
        }
    }

    /// The SQL ``createTable(for:ifNotExists:)`` runs for a model, one statement per element.
    ///
    /// - Parameter type: The table model.
    /// - Returns: The `CREATE TABLE` statement followed by one `CREATE INDEX` per declared index, then, for a
    ///   ``FullTextSearchable`` model, the full-text index's `CREATE VIRTUAL TABLE` and its three `CREATE TRIGGER`s.
    /// - Throws: ``SQLiteError/Kind/misuse`` for a model SQLite could not create as declared, as
    ///   ``createTable(for:ifNotExists:)`` does.
    public static func createTableSQL<Model: TableModel>(for type: Model.Type) throws(SQLiteError) -> [String] {
        try TableSQL.creation(of: type, ifNotExists: false)
    }

    /// Reads the rows of a model's table, all of them or those that match a condition.
    ///
    /// ```swift
    /// let all = try db.fetchAll(Planet.self)
    /// let far = try db.fetchAll(Planet.self, where: "au > \(5.0) ORDER BY au")
    /// ```
    ///
    /// Without `ORDER BY`, rows come in SQLite's storage order (for rowid tables, usually row-id order). The model
    /// is verified against the table once per schema version.
    ///
    /// - Parameters:
    ///   - type: The table model.
    ///   - condition: SQL that follows `WHERE` (it may end with `ORDER BY` or `LIMIT`), or `nil` for all rows;
    ///     interpolated values are bound.
    ///   - arguments: One argument per parameter written in `condition`, when it has no interpolated values.
    /// - Returns: The rows, decoded.
    /// - Throws: ``SQLiteError`` naming table, column and row when a stored value does not convert, or the
    ///   model does not match the table; argument mismatches and SQLite errors.
    @inlinable public func fetchAll<Model: TableModel>(
        _ type: Model.Type, where condition: SQL? = nil, _ arguments: StatementArguments = .none
    ) throws -> [Model] {
        let (raw, arguments) = try modelQuery(type, where: condition, arguments)
        return try readRows(raw, as: type, checkingSchema: true) { raw throws(SQLiteError) in
            try raw.bindIfNeeded(arguments)
        }
    }

    /// Reads the first row of a model's table that matches a condition, or `nil`.
    ///
    /// ```swift
    /// let earth = try db.fetchOne(Planet.self, where: "name = \(name)")
    /// ```
    ///
    /// - Parameters:
    ///   - type: The table model.
    ///   - condition: SQL that follows `WHERE`; interpolated values are bound.
    ///   - arguments: One argument per parameter written in `condition`, when it has no interpolated values.
    /// - Returns: The first matching row, or `nil`.
    /// - Throws: As ``fetchAll(_:where:_:)``.
    @inlinable public func fetchOne<Model: TableModel>(
        _ type: Model.Type, where condition: SQL, _ arguments: StatementArguments = .none
    ) throws -> Model? {
        let (raw, arguments) = try modelQuery(type, where: condition, arguments)
        return try readFirst(raw, as: type, checkingSchema: true) { raw throws(SQLiteError) in
            try raw.bindIfNeeded(arguments)
        }
    }

    /// The cached SELECT of a model query, with the arguments to bind.
    ///
    /// A new statement is compiled after the model is verified against the schema; a cached one is found by
    /// model type and condition, and its run verifies the model again only if the schema changed since.
    @usableFromInline func modelQuery<Model: TableModel>(
        _ type: Model.Type, where condition: SQL?, _ arguments: StatementArguments
    ) throws(SQLiteError) -> (RawStatement, StatementArguments) {
        let (text, arguments) = try condition?.resolved(with: arguments) ?? (nil, arguments)
        let key = StatementCache.ModelKey(model: ObjectIdentifier(type), purpose: .select(condition: text))
        if let cached = statementCache.statement(for: key), !cached.isMidway {
            return (cached, arguments)
        }
        try verifyOnce(type)
        let raw = try cachedStatement(
            TableSQL.select(Model.tableName, columns: Model.columns, where: text), keepingAtFirstRun: true)
        statementCache.insert(raw, for: key)
        if !raw.isMidway { raw.schemaVerifiedAt = raw.reprepareCount }
        return (raw, arguments)
    }

    /// Updates the row with the model's primary key to the model's values.
    ///
    /// ```swift
    /// mars.moons = 2
    /// let found = try db.update(mars)   // false if no row has mars.id
    /// ```
    ///
    /// The model's ``TableModel/willSave()`` runs first, on a copy. The statement is compiled once per model and
    /// kept in the connection's statement cache.
    ///
    /// - Parameter model: The new values, with the primary key of the row to change.
    /// - Returns: `true` if a row was updated, `false` if no row has that primary key.
    /// - Throws: ``SQLiteError`` naming the table and column, such as a constraint violation; the model has no
    ///   primary key or no other column; what ``TableModel/willSave()`` throws.
    @inlinable @discardableResult
    public func update<Model: TableModel>(_ model: Model) throws -> Bool {
        var model = model
        try model.willSave()
        try ModelWrite.run(model, raw: modelStatement(Model.self, .update), on: self)
        return changes > 0
    }

    /// Deletes the row with the model's primary key.
    ///
    /// - Parameter model: The row to delete; only its primary-key values are used.
    /// - Returns: `true` if a row was deleted, `false` if no row has that primary key.
    /// - Throws: ``SQLiteError``, such as a foreign-key violation; the model has no primary key.
    @inlinable @discardableResult
    public func delete<Model: TableModel>(_ model: Model) throws -> Bool {
        try ModelWrite.run(model, raw: modelStatement(Model.self, .delete), on: self)
        return changes > 0
    }

    /// The cached statement of a model for `purpose` (a read by key, an insert, an upsert, an update or a delete),
    /// verified against the table when compiled.
    @usableFromInline func modelStatement<Model: TableModel>(
        _ type: Model.Type, _ purpose: StatementCache.ModelKey.Purpose
    ) throws(SQLiteError) -> RawStatement {
        let key = StatementCache.ModelKey(model: ObjectIdentifier(type), purpose: purpose)
        if let cached = statementCache.statement(for: key), !cached.isMidway { return cached }
        let sql = try TableSQL.modelStatement(type, purpose)
        try verifyOnce(type)  // first, so that a drifted schema is a schemaMismatch error
        let raw = try cachedStatement(sql, keepingAtFirstRun: true)
        // A DELETE binds only the key columns: the model's other values are skipped while it encodes.
        if purpose == .delete { raw.parameterMap = TableSQL.keyParameterMap(Model.columns) }
        statementCache.insert(raw, for: key)
        if !raw.isMidway { raw.schemaVerifiedAt = raw.reprepareCount }  // for a read: verified just above
        return raw
    }

    /// Prepares an INSERT for a model, to be run once per row.
    ///
    /// - Parameters:
    ///   - type: The table model.
    ///   - onConflict: What ``InsertStatement/insert(_:)`` does when a row conflicts with an existing one.
    /// - Returns: A reusable insert statement.
    /// - Throws: ``SQLiteError`` when the table does not exist or does not match the model; ``SQLiteError/Kind/misuse``
    ///   for ``ConflictPolicy/replace`` on a ``FullTextSearchable`` model while `PRAGMA recursive_triggers` is off
    ///   (the row a `REPLACE` deletes would stay in the full-text index).
    public func makeInsertStatement<Model: TableModel>(
        for type: Model.Type, onConflict: ConflictPolicy = .fail
    ) throws(SQLiteError) -> InsertStatement<Model> {
        if onConflict == .replace { try checkReplaceKeepsFullTextIndex(type) }
        return try InsertStatement(connection: self, policy: onConflict)
    }
}
