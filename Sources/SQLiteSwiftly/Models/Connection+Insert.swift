// Inserts and upserts of one model value, through statements the connection compiles once per model and keeps.

extension Connection {
    /// Inserts a model's row and returns its row id.
    ///
    /// ```swift
    /// try db.insert(Planet(id: 7, name: "Uranus", au: 19.19, moons: 28))
    /// var moon = Moon(id: nil, planet: 4, name: "Phobos")
    /// moon.id = try db.insert(moon)  // nil id: SQLite assigns the next one
    /// ```
    ///
    /// The `INSERT` is compiled at the first insert of the model and kept in the connection's statement cache, so
    /// later inserts bind and step it as an ``InsertStatement`` does. A single `INTEGER` primary key left `nil`
    /// (bound as NULL) is assigned by SQLite, and the returned row id is its value. The model's
    /// ``TableModel/willSave()`` runs first, on a copy. Wrap many inserts in a transaction for speed.
    ///
    /// - Parameter model: The row to insert.
    /// - Returns: The row id of the inserted row (for an `INTEGER PRIMARY KEY`, its value).
    /// - Throws: ``SQLiteError`` naming the table and column, such as a constraint violation or a value that
    ///   cannot be stored; ``SQLiteError/Kind/schemaMismatch`` when the table is missing or does not match the
    ///   model; ``SQLiteError/Kind/parameterMismatch`` when ``TableModel/encode(to:)`` does not encode one value
    ///   per column; what the model's ``TableModel/willSave()`` throws. Nothing is written on failure.
    @inlinable @discardableResult
    public func insert<Model: TableModel>(_ model: Model) throws -> Int64 {
        var model = model
        try model.willSave()
        try ModelWrite.run(model, raw: modelStatement(Model.self, .insert), on: self)
        return lastInsertedRowID
    }

    /// Inserts a model's row unless a row with the same primary key or unique value exists.
    ///
    /// Only a uniqueness conflict skips the row (`ON CONFLICT DO NOTHING`): a NOT NULL, CHECK or foreign-key
    /// violation still throws. The statement is cached as ``insert(_:)``'s is.
    ///
    /// - Parameter model: The row to insert.
    /// - Returns: The row id of the inserted row, or `nil` when it was skipped.
    /// - Throws: As ``insert(_:)``.
    @inlinable @discardableResult
    public func insertIfNew<Model: TableModel>(_ model: Model) throws -> Int64? {
        var model = model
        try model.willSave()
        try ModelWrite.run(model, raw: modelStatement(Model.self, .insertIfNew), on: self)
        return changes > 0 ? lastInsertedRowID : nil
    }

    /// Inserts a model's row, or updates the row that has its primary key: an upsert.
    ///
    /// ```swift
    /// try db.upsert(Planet(id: 4, name: "Mars", au: 1.524, moons: 2))  // updates Mars
    /// ```
    ///
    /// It runs `INSERT ... ON CONFLICT (key) DO UPDATE SET` every other column: the row keeps its row id, and
    /// only its update triggers run (a ``FullTextSearchable`` model's index stays in step, where `INSERT OR
    /// REPLACE` would delete the row without its delete trigger). A conflict on another unique column is not the
    /// row's key: it throws a constraint error. A single `INTEGER` primary key left `nil` never conflicts, so the
    /// row is inserted with a new id. The statement is cached as ``insert(_:)``'s is; the model's
    /// ``TableModel/willSave()`` runs first, on a copy.
    ///
    /// - Parameter model: The row to insert or update.
    /// - Returns: The row id of the row inserted or updated (read with `RETURNING`, so the table must have row
    ///   ids: not a `WITHOUT ROWID` table).
    /// - Throws: As ``insert(_:)``; ``SQLiteError/Kind/misuse`` for a model without a primary key or with only
    ///   primary-key columns (use ``insertIfNew(_:)``).
    @inlinable @discardableResult
    public func upsert<Model: TableModel>(_ model: Model) throws -> Int64 {
        var model = model
        try model.willSave()
        let raw = try modelStatement(Model.self, .upsert)
        // An update in place does not set the last insert row id; RETURNING gives the row's id either way.
        guard let returned = try ModelWrite.run(model, raw: raw, on: self) else {
            throw SQLiteError(.misuse, message: "the upsert returned no row id", sql: raw.sql).with(
                table: Model.tableName)
        }
        return returned
    }
}
