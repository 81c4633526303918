// Verifying table models against the live schema, once per model and schema version.

extension Connection {
    /// Checks that a model matches the table that exists in the database, and throws one error listing every
    /// difference.
    ///
    /// The table is read with `PRAGMA table_xinfo` and compared column by column (names ignore ASCII case):
    ///
    /// - the table must exist;
    /// - every column of ``TableModel/columns`` must exist;
    /// - a table column the model does not know must not be `NOT NULL` without a default, or inserts fail;
    /// - the declared types must have the same *type affinity* (`INT` and `INTEGER` match, `VARCHAR(20)` and
    ///   `TEXT` match, `TEXT` and `INTEGER` do not): affinity decides how SQLite stores a value;
    /// - nullability must match (an `INTEGER PRIMARY KEY` row-id alias never reads as NULL, so it matches
    ///   both);
    /// - each column's position in the primary key must match;
    /// - each column's collation must match (a column that declares none has `BINARY`).
    /// - for a ``FullTextSearchable`` model, the full-text index must exist with the declared columns, tokenizer,
    ///   prefix lengths and content, and its three triggers must be the ones the library writes.
    ///
    /// Uniqueness, defaults, foreign keys and indexes are not compared.
    ///
    /// ```swift
    /// do {
    ///     try db.verify(Planet.self)
    /// } catch {
    ///     for difference in error.differences { print(difference) }
    ///     // missing column at "planets"."moons": expected INTEGER NOT NULL, found no column
    /// }
    /// ```
    ///
    /// Reading and writing through a model (``fetchAll(_:where:_:)``, ``makeInsertStatement(for:onConflict:)``,
    /// ...) runs this check automatically, once per model and `PRAGMA schema_version`.
    ///
    /// - Parameter type: The table model.
    /// - Throws: ``SQLiteError`` of kind ``SQLiteError/Kind/schemaMismatch`` whose
    ///   ``SQLiteError/differences`` lists every difference; or an SQLite error if the schema cannot be read.
    public func verify<Model: TableModel>(_ type: Model.Type) throws(SQLiteError) {
        let differences = try schemaDifferences(for: type)
        guard !differences.isEmpty else { return }
        let count = differences.count == 1 ? "1 difference" : "\(differences.count) differences"
        var error = SQLiteError(
            .schemaMismatch,
            message: "\(Model.self) does not match table \"\(Model.tableName)\" (\(count)): "
                + differences.map(\.description).joined(separator: "; "))
        error.table = Model.tableName
        error.differences = differences
        throw error
    }

    /// Lists the differences between a model and the table that exists in the database.
    ///
    /// The comparison is the one ``verify(_:)`` makes; an empty array means the model matches.
    ///
    /// - Parameter type: The table model.
    /// - Returns: Every difference, table-level first, then in the order of the model's columns, then the
    ///   table's extra columns.
    /// - Throws: ``SQLiteError`` if the schema cannot be read.
    public func schemaDifferences<Model: TableModel>(for type: Model.Type) throws(SQLiteError) -> [SchemaDifference] {
        let live = try liveColumns(of: Model.tableName)
        let differences = SchemaComparison.differences(table: Model.tableName, model: Model.columns, live: live)
        return live.isEmpty ? differences : differences + (try fullTextDifferences(for: type))
    }

    /// Verifies a model once per model type and `PRAGMA schema_version`: the repeated check is one cached
    /// pragma read and a dictionary lookup.
    @usableFromInline func verifyOnce<Model: TableModel>(_ type: Model.Type) throws(SQLiteError) {
        let version = try schemaVersion()
        let key = ObjectIdentifier(type)
        if schemaChecks.verified[key] == version { return }
        try verify(type)
        schemaChecks.verified[key] = version
    }

    /// The main database's schema cookie, which SQLite bumps on every schema change by any connection.
    ///
    /// See <https://www.sqlite.org/pragma.html#pragma_schema_version>.
    func schemaVersion() throws(SQLiteError) -> Int64 {
        let raw: RawStatement
        if let cached = schemaChecks.versionStatement, !cached.isMidway {
            raw = cached
        } else {
            raw = try compile("PRAGMA schema_version", persistent: true)
            schemaChecks.versionStatement = raw
        }
        return try readValue(raw, as: Int64.self) { _ throws(SQLiteError) in } ?? 0
    }

    /// The table's columns as `PRAGMA table_xinfo` reports them; empty when there is no such table.
    func liveColumns(of table: String) throws(SQLiteError) -> [LiveColumn] {
        let raw = try compile(
            "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?) ORDER BY cid")
        var columns: [LiveColumn] = []
        try forEachRow(
            raw, as: UntypedRow.self, binding: { raw throws(SQLiteError) in try raw.bind([table]) }, lift: { $0 }
        ) {
            (row: borrowing Row) throws(SQLiteError) in columns.append(try LiveColumn(row: row))
        }
        for index in columns.indices {
            columns[index].collation = declaredCollation(table: table, column: columns[index].name)
        }
        return columns
    }
}

/// A connection's record of which models were verified against which schema version.
///
/// `Connection.verifyOnce(_:)` compares the current `PRAGMA schema_version` with the version each model was
/// last verified at. The pragma's compiled statement is kept here rather than in the statement cache, so that
/// it neither counts in ``Connection/cachedStatementCount`` nor is dropped by
/// ``Connection/clearStatementCache()``.
struct SchemaCheckCache {
    /// The compiled `PRAGMA schema_version`, once used.
    var versionStatement: RawStatement?
    /// The schema version at which each model type last passed verification.
    var verified: [ObjectIdentifier: Int64] = [:]
}
