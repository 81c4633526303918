// Creating, dropping, rebuilding and checking full-text indexes.

extension Connection {
    /// Creates a model's full-text index and its triggers over the model's existing table, and indexes the rows
    /// the table already holds, all or nothing.
    ///
    /// ``createTable(for:ifNotExists:)`` creates the index with the table; this is for a table that exists
    /// without it: one made before the model declared an index, or whose index was dropped.
    ///
    /// - Parameters:
    ///   - type: The searchable model.
    ///   - ifNotExists: Whether an existing index (and triggers) with the same names are accepted as they are;
    ///     the rows are then indexed only if the index was missing.
    /// - Throws: ``SQLiteError``: ``SQLiteError/Kind/misuse`` for an index FTS5 cannot create as declared (see
    ///   ``FullTextIndex``) or a model without a single `INTEGER` primary key; SQLite's error when the table does
    ///   not exist, or the index does and `ifNotExists` is `false`.
    public func createFullTextIndex<Model: FullTextSearchable>(for type: Model.Type, ifNotExists: Bool = false)
        throws(SQLiteError)
    {
        let index = try ResolvedFullTextIndex.of(type)
        try create(index, ifNotExists: ifNotExists)
    }

    /// The SQL ``createFullTextIndex(for:ifNotExists:)`` runs, one statement per element, for a migration to
    /// write as it is.
    ///
    /// - Parameter type: The searchable model.
    /// - Returns: `CREATE VIRTUAL TABLE`, the three `CREATE TRIGGER`s, and the `rebuild` command that indexes the
    ///   rows the table already holds.
    /// - Throws: ``SQLiteError/Kind/misuse``, as ``createFullTextIndex(for:ifNotExists:)``.
    public static func createFullTextIndexSQL<Model: FullTextSearchable>(for type: Model.Type) throws(SQLiteError)
        -> [String]
    {
        let index = try ResolvedFullTextIndex.of(type)
        return FullTextSQL.creation(of: index) + [FullTextSQL.rebuild(index.name)]
    }

    /// Creates a full-text index over a table of any database, or a contentless one, all or nothing.
    ///
    /// Over a table (``FullTextIndex/Content/table(_:rowID:)``), the triggers that keep the index in step are
    /// created too, and the rows the table holds are indexed: use it for a table the library did not create.
    /// Search it with SQL, binding a ``SearchPattern``:
    ///
    /// ```swift
    /// try db.createFullTextIndex(FullTextIndex(columns: ["subject", "body"]), content: .table("mail", rowID: "id"))
    /// let ids = try db.fetchAll(UntypedRow.self, "SELECT rowid FROM mail_fts WHERE mail_fts MATCH \(pattern)")
    /// ```
    ///
    /// A contentless index (``FullTextIndex/Content/none``) keeps only the index: insert each row's text with
    /// `INSERT INTO name (rowid, columns...) VALUES (...)`, and remove it with FTS5's `delete` command, which needs
    /// the same text again: `INSERT INTO name (name, rowid, columns...) VALUES ('delete', ...)`.
    ///
    /// - Parameters:
    ///   - index: The index; a contentless index must have a ``FullTextIndex/name``.
    ///   - content: Where the text is.
    ///   - ifNotExists: Whether an existing index (and triggers) with the same names are accepted as they are.
    /// - Throws: ``SQLiteError``: ``SQLiteError/Kind/misuse`` for an index FTS5 cannot create as declared;
    ///   SQLite's error, such as for a content table that does not exist.
    public func createFullTextIndex(_ index: FullTextIndex, content: FullTextIndex.Content, ifNotExists: Bool = false)
        throws(SQLiteError)
    {
        try create(ResolvedFullTextIndex.standalone(index, content: content), ifNotExists: ifNotExists)
    }

    /// The SQL ``createFullTextIndex(_:content:ifNotExists:)`` runs, one statement per element.
    ///
    /// - Parameters:
    ///   - index: The index.
    ///   - content: Where the text is.
    /// - Returns: `CREATE VIRTUAL TABLE`; over a table, the three `CREATE TRIGGER`s and the `rebuild` command.
    /// - Throws: ``SQLiteError/Kind/misuse``, as ``createFullTextIndex(_:content:ifNotExists:)``.
    public static func createFullTextIndexSQL(_ index: FullTextIndex, content: FullTextIndex.Content)
        throws(SQLiteError) -> [String]
    {
        let resolved = try ResolvedFullTextIndex.standalone(index, content: content)
        let rebuild = resolved.contentTable == nil ? [] : [FullTextSQL.rebuild(resolved.name)]
        return FullTextSQL.creation(of: resolved) + rebuild
    }

    /// Removes a model's full-text index and its triggers; the model's table and rows stay.
    ///
    /// - Parameter type: The searchable model.
    /// - Throws: ``SQLiteError``, such as when a Swift tokenizer the index uses is not added to the connection.
    public func dropFullTextIndex<Model: FullTextSearchable>(for type: Model.Type) throws(SQLiteError) {
        try dropFullTextIndex(named: try ResolvedFullTextIndex.of(type).name)
    }

    /// Removes a full-text index and the triggers named as the library names them (the index's name followed by
    /// `_ai`, `_ad` and `_au`); each is skipped if it does not exist.
    ///
    /// - Parameter name: The index's table name.
    /// - Throws: ``SQLiteError``, such as when a Swift tokenizer the index uses is not added to the connection.
    public func dropFullTextIndex(named name: String) throws(SQLiteError) {
        let index = ResolvedFullTextIndex(name: name, declaration: FullTextIndex(columns: []), content: .none)
        try runIndexCommands(FullTextSQL.drop(index), index: name)
    }

    /// Empties a model's full-text index and indexes every row of its table again.
    ///
    /// Run it after the table was changed without the triggers (an `INSERT OR REPLACE` with recursive triggers off,
    /// a tool that dropped them), when ``checkFullTextIndex(for:)`` finds the index out of step.
    ///
    /// - Parameter type: The searchable model.
    /// - Throws: ``SQLiteError``, such as when the index does not exist.
    public func rebuildFullTextIndex<Model: FullTextSearchable>(for type: Model.Type) throws(SQLiteError) {
        try rebuildFullTextIndex(named: try ResolvedFullTextIndex.of(type).name)
    }

    /// Empties an external-content full-text index and indexes every row of its content table again.
    ///
    /// - Parameter name: The index's table name.
    /// - Throws: ``SQLiteError``, such as when the index does not exist or is contentless (it has no text to index).
    public func rebuildFullTextIndex(named name: String) throws(SQLiteError) {
        try runIndexCommands([FullTextSQL.rebuild(name)], index: name)
    }

    /// Checks that a model's full-text index is sound and matches its table's rows.
    ///
    /// - Parameter type: The searchable model.
    /// - Returns: `true` when the index is in step with the table; `false` when it is damaged or holds other text
    ///   than the table (repair it with ``rebuildFullTextIndex(for:)``).
    /// - Throws: ``SQLiteError`` for other failures, such as an index that does not exist.
    public func checkFullTextIndex<Model: FullTextSearchable>(for type: Model.Type) throws(SQLiteError) -> Bool {
        try checkFullTextIndex(named: try ResolvedFullTextIndex.of(type).name)
    }

    /// Checks that a full-text index is sound, and for an external-content index, that it matches its table's rows
    /// (FTS5's `integrity-check` command).
    ///
    /// - Parameter name: The index's table name.
    /// - Returns: `true` when the index is sound and in step; `false` when it is not.
    /// - Throws: ``SQLiteError`` for other failures, such as an index that does not exist.
    public func checkFullTextIndex(named name: String) throws(SQLiteError) -> Bool {
        do {
            try runIndexCommands([FullTextSQL.integrityCheck(name, content: true)], index: name)
            return true
        } catch let error where error.code.primary == .corrupt {
            return false
        }
    }

    /// Creates an index, its triggers, and fills it from its content table when it was not there before.
    func create(_ index: ResolvedFullTextIndex, ifNotExists: Bool) throws(SQLiteError) {
        try withTransaction(.immediate) { () throws(SQLiteError) in
            let existed = try ifNotExists ? tableExists(index.name) : false
            try runIndexCommands(FullTextSQL.creation(of: index, ifNotExists: ifNotExists), index: index.name)
            if !existed && index.contentTable != nil {
                try runIndexCommands([FullTextSQL.rebuild(index.name)], index: index.name)
            }
        }
    }

    /// The name of a model's full-text index when the model's table exists without it, so that creating it with
    /// `IF NOT EXISTS` must also index the rows the table holds; `nil` otherwise.
    func fullTextIndexToFill<Model: TableModel>(for type: Model.Type) throws(SQLiteError) -> String? {
        guard let searchable = type as? any FullTextSearchable.Type else { return nil }
        let index = try ResolvedFullTextIndex.of(searchable)
        guard try tableExists(Model.tableName) else { return nil }
        return try tableExists(index.name) ? nil : index.name
    }

    /// Refuses `INSERT OR REPLACE` into a searchable model's table while recursive triggers are off: SQLite then
    /// deletes the conflicting row without running delete triggers, and its words would stay in the index.
    func checkReplaceKeepsFullTextIndex<Model: TableModel>(_ type: Model.Type) throws(SQLiteError) {
        guard type is any FullTextSearchable.Type, try fetchValue(Int.self, "PRAGMA recursive_triggers") == 0 else {
            return
        }
        var error = SQLiteError(
            .misuse,
            message: "an INSERT OR REPLACE into a table with a full-text index deletes the conflicting row without "
                + "its delete trigger while PRAGMA recursive_triggers is off, which leaves the row's words in the "
                + "index: insert with .update (an upsert), or turn recursive triggers on first")
        error.table = Model.tableName
        throw error
    }

    /// Whether the main database has a table (virtual tables included) of this name, ignoring ASCII case.
    func tableExists(_ name: String) throws(SQLiteError) -> Bool {
        let sql: SQL = "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = \(name) COLLATE NOCASE"
        return try fetchValue(Int.self, sql) != 0
    }

    /// Runs statements about one index, naming it in any error.
    func runIndexCommands(_ statements: [String], index: String) throws(SQLiteError) {
        do {
            try withTransaction(.immediate) { () throws(SQLiteError) in
                for sql in statements { try execute(SQL(verbatim: sql)) }
            }
        } catch {
            throw error.with(table: index)
        }
    }
}
