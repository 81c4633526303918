// Table-model conveniences: create the table, read rows as models, and make the prepared write statements.

extension Connection {
    /// Creates the table a model describes, with its constraints and indexes, all or nothing.
    ///
    /// ```swift
    /// try db.createTable(for: Planet.self)
    /// // CREATE TABLE "planets" ("id" INTEGER PRIMARY KEY NOT NULL, "name" TEXT NOT NULL, ...)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The table model.
    ///   - ifNotExists: Whether an existing table (and index) with the same name is accepted as is.
    /// - Throws: ``SQLiteError``, for instance when the table exists and `ifNotExists` is `false`.
    public func createTable<Model: TableModel>(for type: Model.Type, ifNotExists: Bool = false) throws(SQLiteError) {
        let columns = try ModelStatements.columns(of: type, requiringKey: false)
        if let problem = TableSQL.problem(in: columns) {
            var error = SQLiteError(.misuse, message: problem)
            error.table = Model.tableName
            throw error
        }
        var statements = [TableSQL.createTable(Model.tableName, columns: columns, ifNotExists: ifNotExists)]
        statements += Model.indexes.map { TableSQL.createIndex($0, table: Model.tableName, ifNotExists: ifNotExists) }
        do {
            try transaction(.immediate) { () throws(SQLiteError) in
                for sql in statements { _ = try execute(compile(sql), arguments: .none) }
            }
        } catch let error as SQLiteError {
            throw error.with(table: Model.tableName)
        } catch {
            throw SQLiteError(.misuse, message: "unexpected error: \(error)")  // the body throws only SQLiteError
        }
    }

    /// The SQL ``createTable(for:ifNotExists:)`` runs for a model, one statement per element.
    ///
    /// - Parameter type: The table model.
    /// - Returns: The `CREATE TABLE` statement followed by one `CREATE INDEX` per declared index.
    public static func createTableSQL<Model: TableModel>(for type: Model.Type) -> [String] {
        [TableSQL.createTable(Model.tableName, columns: Model.columns, ifNotExists: false)]
            + Model.indexes.map { TableSQL.createIndex($0, table: Model.tableName, ifNotExists: false) }
    }

    /// Reads every row of a model's table.
    ///
    /// Rows come in SQLite's storage order (for rowid tables, usually row-id order); add `ORDER BY` with
    /// ``readAll(_:where:_:)`` when order matters.
    ///
    /// - Parameter type: The table model.
    /// - Returns: All rows, decoded.
    /// - Throws: ``SQLiteError`` naming table, column and row when a stored value does not convert, or the
    ///   model does not match the table.
    @inlinable public func readAll<Model: TableModel>(_ type: Model.Type) throws -> [Model] {
        try readAll(type, where: nil, .none)
    }

    /// Reads the rows of a model's table that match a condition.
    ///
    /// ```swift
    /// let far = try db.readAll(Planet.self, where: "au > ? ORDER BY au", [5.0])
    /// ```
    ///
    /// - Parameters:
    ///   - type: The table model.
    ///   - condition: SQL that follows `WHERE` (it may end with `ORDER BY` or `LIMIT`), or `nil` for all rows.
    ///   - arguments: One argument per parameter of `condition`.
    /// - Returns: The matching rows, decoded.
    /// - Throws: ``SQLiteError`` for argument mismatches, conversion failures and SQLite errors.
    @inlinable public func readAll<Model: TableModel>(
        _ type: Model.Type, where condition: String?, _ arguments: StatementArguments = .none
    ) throws -> [Model] {
        let (raw, arguments) = try modelQuery(type, where: condition, arguments)
        return try readModels(raw, arguments: arguments, as: type, limit: .max)
    }

    /// Reads the first row of a model's table that matches a condition, or `nil`.
    ///
    /// - Parameters:
    ///   - type: The table model.
    ///   - condition: SQL that follows `WHERE`, or `nil`.
    ///   - arguments: One argument per parameter of `condition`.
    /// - Returns: The first matching row, or `nil`.
    /// - Throws: As ``readAll(_:where:_:)``.
    @inlinable public func readOne<Model: TableModel>(
        _ type: Model.Type, where condition: String?, _ arguments: StatementArguments = .none
    ) throws -> Model? {
        let (raw, arguments) = try modelQuery(type, where: condition, arguments)
        return try readFirstModel(raw, arguments: arguments, as: type)
    }

    /// The cached SELECT for a model.
    ///
    /// A new statement is compiled after the model is verified against the schema; a cached one is found by
    /// model type and condition, and its run verifies the model again only if the schema changed since (see
    /// ``firstModelStep(_:_:)``).
    @usableFromInline func modelQuery<Model: TableModel>(
        _ type: Model.Type, where condition: String?, _ arguments: StatementArguments
    ) throws(SQLiteError) -> (RawStatement, StatementArguments) {
        let key = StatementCache.ModelKey(model: ObjectIdentifier(type), condition: condition)
        let expands = arguments.containsList
        if !expands, let cached = statementCache.statement(for: key), !cached.isMidway {
            return (cached, arguments)
        }
        try verifyOnce(type)
        let sql = TableSQL.select(Model.tableName, columns: Model.columns, where: condition)
        let (raw, expanded) = try cachedStatement(sql, arguments: arguments)
        // Lists change the SQL with their length, so those queries are only cached by their expanded text.
        if !expands { statementCache.insert(raw, for: key) }
        if !raw.isMidway { raw.schemaVerifiedAt = raw.reprepareCount }
        return (raw, expanded)
    }

    /// Prepares an INSERT for a model, to be run once per row.
    ///
    /// - Parameters:
    ///   - type: The table model.
    ///   - onConflict: What to do when a row conflicts with an existing one.
    /// - Returns: A reusable insert statement.
    /// - Throws: ``SQLiteError`` when the table does not exist or does not match the model.
    public func makeInsertStatement<Model: TableModel>(
        for type: Model.Type, onConflict: ConflictPolicy = .fail
    ) throws(SQLiteError) -> InsertStatement<Model> {
        try InsertStatement(connection: self, policy: onConflict)
    }

    /// Prepares an UPDATE by primary key for a model, to be run once per row.
    ///
    /// - Parameter type: The table model; it must declare a primary key and at least one other column.
    /// - Returns: A reusable update statement.
    /// - Throws: ``SQLiteError`` when the model has no primary key or does not match the table.
    public func makeUpdateStatement<Model: TableModel>(for type: Model.Type) throws(SQLiteError)
        -> UpdateStatement<Model>
    {
        try UpdateStatement(connection: self)
    }

    /// Prepares a DELETE by primary key for a model, to be run once per row.
    ///
    /// - Parameter type: The table model; it must declare a primary key.
    /// - Returns: A reusable delete statement.
    /// - Throws: ``SQLiteError`` when the model has no primary key or does not match the table.
    public func makeDeleteStatement<Model: TableModel>(for type: Model.Type) throws(SQLiteError)
        -> DeleteStatement<Model>
    {
        try DeleteStatement(connection: self)
    }
}
