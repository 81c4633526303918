// Verifying a model's full-text index against the live schema: the FTS5 table's declaration and the triggers.

/// An FTS5 table as its `CREATE VIRTUAL TABLE` statement declares it. FTS5 keeps its columns and options nowhere
/// else, so they are read from the statement, as FTS5 itself reads them.
struct LiveFullTextIndex: Equatable {
    var module: String
    var columns: [String] = []
    /// The `tokenize` option's words: the tokenizer's name, then its arguments; `unicode61` when absent.
    var tokenizer: [String] = ["unicode61"]
    var prefixLengths: [Int] = []
    /// The `content` option: `nil` when absent (the index keeps its own copy of the text), empty for a
    /// contentless index, or the content table.
    var content: String?
    var contentRowID = "rowid"

    /// Reads the declaration, or `nil` when the text is not a `CREATE VIRTUAL TABLE ... USING module(...)`.
    init?(sql: String) {
        let words = SQLWords(sql).words
        guard let using = words.firstIndex(where: { $0.isName("using") }), using + 1 < words.count else { return nil }
        module = words[using + 1].text
        var arguments: [[SQLWords.Word]] = []
        var current: [SQLWords.Word] = []
        var depth = 0
        for word in words.dropFirst(using + 2) {
            if word.isSymbol("(") {
                depth += 1
                if depth == 1 { continue }
            } else if word.isSymbol(")") {
                depth -= 1
                if depth == 0 { break }
            } else if word.isSymbol(","), depth == 1 {
                arguments.append(current)
                current = []
                continue
            }
            current.append(word)
        }
        if !current.isEmpty { arguments.append(current) }
        for argument in arguments { read(argument) }
    }

    /// Where the index reads its text: `nil` when it keeps its own copy.
    var contentDeclaration: FullTextIndex.Content? {
        switch content {
        case nil: nil
        case ""?: FullTextIndex.Content.none
        case let table?: .table(table, rowID: contentRowID.sqlIdentifierKey == "rowid" ? nil : contentRowID)
        }
    }

    private mutating func read(_ argument: [SQLWords.Word]) {
        guard let first = argument.first else { return }
        guard argument.count >= 3, argument[1].isSymbol("=") else {
            columns.append(first.text)
            return
        }
        let value = argument[2...].map(\.text).joined(separator: " ")
        switch first.key {
        case "tokenize": tokenizer = SQLWords(value).words.map(\.text)
        case "prefix": prefixLengths += value.split(separator: " ").compactMap { Int($0) }
        case "content": content = value
        case "content_rowid": contentRowID = value
        default: break
        }
    }
}

/// One row of `sqlite_schema`.
private struct SchemaEntry {
    var type: String
    var name: String
    var sql: String?
}

extension Connection {
    /// Reads the declaration of an FTS5 table of the main database, such as one the library did not create.
    ///
    /// - Parameter name: The table's name (ASCII case ignored).
    /// - Returns: The index, named `name`, and where it reads its text: a table, `.none` for a contentless index,
    ///   or `nil` for an index that keeps its own copy of the text; `nil` when there is no such table or it is not
    ///   an FTS5 table.
    /// - Throws: ``SQLiteError`` when the schema cannot be read.
    public func fullTextIndexDeclaration(named name: String) throws(SQLiteError)
        -> (index: FullTextIndex, content: FullTextIndex.Content?)?
    {
        let sql = try fetchValue(
            String.self, "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = \(name) COLLATE NOCASE")
        guard let sql, let live = LiveFullTextIndex(sql: sql), live.module.sqlIdentifierKey == "fts5" else {
            return nil
        }
        var index = FullTextIndex(columns: live.columns, prefixLengths: live.prefixLengths, name: name)
        index.tokenizer = FullTextTokenizer(live.tokenizer.first ?? "", arguments: Array(live.tokenizer.dropFirst()))
        return (index, live.contentDeclaration)
    }

    /// Lists the differences between a full-text index and the database: the FTS5 table's columns, tokenizer,
    /// prefix lengths and content, and over a table, the three triggers the library writes.
    ///
    /// ``verify(_:)`` makes this comparison for a ``FullTextSearchable`` model; this is for an index created with
    /// ``createFullTextIndex(_:content:ifNotExists:)``.
    ///
    /// - Parameters:
    ///   - index: The index as declared.
    ///   - content: Where it reads its text.
    /// - Returns: Every difference; empty when the index matches.
    /// - Throws: ``SQLiteError/Kind/misuse`` for an index FTS5 could not create as declared; ``SQLiteError`` when
    ///   the schema cannot be read.
    public func fullTextIndexDifferences(_ index: FullTextIndex, content: FullTextIndex.Content) throws(SQLiteError)
        -> [SchemaDifference]
    {
        try fullTextDifferences(of: ResolvedFullTextIndex.standalone(index, content: content))
    }

    /// The differences between a model's declared full-text index and the database, or none for a model that
    /// declares no index.
    func fullTextDifferences<Model: TableModel>(for type: Model.Type) throws(SQLiteError) -> [SchemaDifference] {
        guard let searchable = type as? any FullTextSearchable.Type else { return [] }
        return try fullTextDifferences(of: ResolvedFullTextIndex.of(searchable))
    }

    /// The differences between an index and the FTS5 table and triggers of the database.
    func fullTextDifferences(of index: ResolvedFullTextIndex) throws(SQLiteError) -> [SchemaDifference] {
        let raw = try compile(
            "SELECT type, name, sql FROM sqlite_schema WHERE (type = 'table' AND name = ?1 COLLATE NOCASE) "
                + "OR (type = 'trigger' AND tbl_name = ?2 COLLATE NOCASE)")
        var entries: [SchemaEntry] = []
        try forEachRow(
            raw, as: UntypedRow.self,
            binding: { raw throws(SQLiteError) in try raw.bind([index.name, index.contentTable ?? ""]) }, lift: { $0 }
        ) { (row: borrowing Row) throws(SQLiteError) in
            entries.append(SchemaEntry(type: try row[0], name: try row[1], sql: try row[2]))
        }
        func difference(_ kind: SchemaDifference.Kind, column: String? = nil, _ expected: String, _ actual: String)
            -> SchemaDifference
        {
            SchemaDifference(kind, table: index.name, column: column, expected: expected, actual: actual)
        }
        let expectedDeclaration = "an FTS5 table over \(describe(index.content))"
        guard let table = entries.first(where: { $0.type == "table" }) else {
            return [difference(.fullTextIndex, expectedDeclaration, "no table")]
        }
        guard let live = table.sql.flatMap(LiveFullTextIndex.init(sql:)), live.module.sqlIdentifierKey == "fts5" else {
            return [difference(.fullTextIndex, expectedDeclaration, "a table that is not an FTS5 table")]
        }
        var differences: [SchemaDifference] = []
        let columns = index.columns
        if columns.map(\.sqlIdentifierKey) != live.columns.map(\.sqlIdentifierKey) {
            differences.append(difference(.fullTextIndex, "columns \(list(columns))", "columns \(list(live.columns))"))
        }
        let tokenizer = [index.declaration.tokenizer.name] + index.declaration.tokenizer.arguments
        if tokenizer.first?.sqlIdentifierKey != live.tokenizer.first?.sqlIdentifierKey
            || tokenizer.dropFirst() != live.tokenizer.dropFirst()
        {
            differences.append(
                difference(
                    .fullTextIndex, "tokenize = '\(tokenizer.joined(separator: " "))'",
                    "tokenize = '\(live.tokenizer.joined(separator: " "))'"))
        }
        if Set(index.declaration.prefixLengths) != Set(live.prefixLengths) {
            differences.append(
                difference(
                    .fullTextIndex, "prefix lengths \(Set(index.declaration.prefixLengths).sorted())",
                    "prefix lengths \(Set(live.prefixLengths).sorted())"))
        }
        let liveContent = live.contentDeclaration
        if !sameContent(index.content, liveContent) {
            differences.append(
                difference(.fullTextIndex, "content \(describe(index.content))", "content \(describe(liveContent))"))
        }
        for trigger in FullTextSQL.triggers(of: index) {
            let found = entries.first {
                $0.type == "trigger" && $0.name.sqlIdentifierKey == trigger.name.sqlIdentifierKey
            }
            guard let found else {
                differences.append(difference(.fullTextTrigger, column: trigger.name, "the trigger", "no trigger"))
                continue
            }
            if SQLWords(found.sql ?? "").keys != SQLWords(trigger.sql).keys {
                differences.append(
                    difference(.fullTextTrigger, column: trigger.name, trigger.sql, found.sql ?? "no SQL"))
            }
        }
        return differences
    }

    private func sameContent(_ declared: FullTextIndex.Content, _ live: FullTextIndex.Content?) -> Bool {
        switch (declared, live) {
        case (.none, .none?): return true
        case (.table(let table, let rowID), .table(let liveTable, let liveRowID)?):
            return table.sqlIdentifierKey == liveTable.sqlIdentifierKey
                && (rowID ?? "rowid").sqlIdentifierKey == (liveRowID ?? "rowid").sqlIdentifierKey
        default: return false
        }
    }

    private func describe(_ content: FullTextIndex.Content?) -> String {
        switch content {
        case nil: "of its own (no content option)"
        case .none?: "none (contentless)"
        case .table(let table, let rowID)?: "\"\(table)\" by \"\(rowID ?? "rowid")\""
        }
    }

    private func list(_ names: [String]) -> String {
        names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
