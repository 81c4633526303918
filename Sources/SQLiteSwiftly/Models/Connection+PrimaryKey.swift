// Reading and deleting one row by the value of its model's single-column primary key.

extension Connection {
    /// Reads the row of a model's table whose primary key is `id`, or `nil`.
    ///
    /// ```swift
    /// let earth = try db.fetchOne(Planet.self, id: 3)
    /// ```
    ///
    /// The model must have a primary key of one column. The `SELECT ... WHERE key = ?` is compiled at the first
    /// read of the model and kept in the connection's statement cache; `id` is bound in place. Any
    /// ``SQLiteValueConvertible`` type is accepted, and compared as SQLite compares it with the key column (an
    /// `INTEGER` key finds `3` given `3`, `3.0` or `"3"`); a `nil` optional finds no row.
    ///
    /// - Parameters:
    ///   - type: The table model.
    ///   - id: The primary-key value of the row to read.
    /// - Returns: The row, decoded, or `nil` when no row has that key.
    /// - Throws: ``SQLiteError/Kind/misuse`` naming the table when the model has no primary key or one of several
    ///   columns; as ``fetchAll(_:where:_:)`` otherwise (a missing or mismatched table, a value that does not
    ///   convert, naming table and column).
    @inlinable public func fetchOne<Model: TableModel>(_ type: Model.Type, id: some SQLiteValueConvertible) throws
        -> Model?
    {
        let raw = try modelStatement(type, .selectByKey)
        return try readFirst(raw, as: type, checkingSchema: true) { raw throws(SQLiteError) in
            do throws(SQLiteError) {
                try raw.bind(id)
            } catch {
                throw keyError(error, Model.self)
            }
        }
    }

    /// Deletes the row of a model's table whose primary key is `id`.
    ///
    /// ```swift
    /// let deleted = try db.delete(Planet.self, id: 4)  // false if no row has that key
    /// ```
    ///
    /// The model must have a primary key of one column. The statement is the one ``delete(_:)`` runs, compiled
    /// once per model and kept in the connection's statement cache; `id` is compared as in
    /// ``fetchOne(_:id:)``.
    ///
    /// - Parameters:
    ///   - type: The table model.
    ///   - id: The primary-key value of the row to delete.
    /// - Returns: `true` if a row was deleted, `false` if no row has that key.
    /// - Throws: ``SQLiteError/Kind/misuse`` naming the table when the model has no primary key or one of several
    ///   columns; ``SQLiteError`` naming the table, such as a foreign-key violation, or a missing or mismatched
    ///   table.
    @inlinable @discardableResult
    public func delete<Model: TableModel>(_ type: Model.Type, id: some SQLiteValueConvertible) throws(SQLiteError)
        -> Bool
    {
        let raw = try modelStatement(type, .deleteByKey)
        // As in ModelWrite.run: verified again whenever the schema may have changed since the last run.
        let epoch = raw.tracker.schemaEpoch
        if epoch != raw.verifiedEpoch {
            try verifyOnce(type)
            raw.verifiedEpoch = epoch
        }
        do {
            return try execute(raw) { raw throws(SQLiteError) in try raw.bind(id) } > 0
        } catch {
            throw keyError(error, Model.self)
        }
    }

    /// Names the table of a read or delete by key, and the key column when the key's value could not be bound.
    @usableFromInline func keyError<Model: TableModel>(_ error: SQLiteError, _ type: Model.Type) -> SQLiteError {
        let column = error.parameter == nil ? nil : Model.columns.first(where: \.isPrimaryKey)?.name
        return error.with(table: Model.tableName, column: column)
    }
}
