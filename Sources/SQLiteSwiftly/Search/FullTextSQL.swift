/// Builds the SQL of full-text indexes: the FTS5 table, the triggers that keep an external-content index in step
/// with its table, and the commands FTS5 takes as inserts. Every identifier is quoted; the option values of
/// `CREATE VIRTUAL TABLE` are string literals, since a virtual table's arguments take no parameters.
enum FullTextSQL {
    /// The statements that create an index: the FTS5 table, then, over a content table, its three triggers.
    static func creation(of index: ResolvedFullTextIndex, ifNotExists: Bool = false) -> [String] {
        [createTable(index, ifNotExists: ifNotExists)] + triggers(of: index, ifNotExists: ifNotExists).map(\.sql)
    }

    /// The statements that create a model's index after its table, or none for a model without one.
    static func creation<Model: TableModel>(ofModel type: Model.Type, ifNotExists: Bool) throws(SQLiteError)
        -> [String]
    {
        guard let searchable = type as? any FullTextSearchable.Type else { return [] }
        return creation(of: try ResolvedFullTextIndex.of(searchable), ifNotExists: ifNotExists)
    }

    /// `CREATE VIRTUAL TABLE ... USING fts5(...)`.
    static func createTable(_ index: ResolvedFullTextIndex, ifNotExists: Bool = false) -> String {
        var arguments = index.columns.map(\.quotedSQLIdentifier)
        arguments.append("tokenize = " + literal(index.declaration.tokenizer.description))
        let prefixes = index.declaration.prefixLengths
        if !prefixes.isEmpty {
            arguments.append("prefix = " + literal(prefixes.map(String.init).joined(separator: " ")))
        }
        switch index.content {
        case .table(let table, let rowID):
            arguments.append("content = " + literal(table))
            if let rowID { arguments.append("content_rowid = " + literal(rowID)) }
        case .none:
            arguments.append("content = ''")
        }
        let exists = ifNotExists ? "IF NOT EXISTS " : ""
        return
            "CREATE VIRTUAL TABLE \(exists)\(index.name.quotedSQLIdentifier) USING fts5(\(arguments.joined(separator: ", ")))"
    }

    /// One trigger of an external-content index: its name and its `CREATE TRIGGER` statement.
    struct Trigger: Hashable {
        var name: String
        var sql: String
    }

    /// The triggers that keep an external-content index in step with its table: after an insert, the new row is
    /// indexed; after a delete, the old row is removed with FTS5's `delete` command, which needs the values that
    /// were indexed; after an update of an indexed column or of the row id, both. None for a contentless index.
    static func triggers(of index: ResolvedFullTextIndex, ifNotExists: Bool = false) -> [Trigger] {
        guard let table = index.contentTable else { return [] }
        let exists = ifNotExists ? "IF NOT EXISTS " : ""
        let target = index.name.quotedSQLIdentifier
        let columns = index.columns.map(\.quotedSQLIdentifier)
        let list = (["rowid"] + columns).joined(separator: ", ")
        func values(_ row: String) -> String {
            ([index.rowIDExpression] + columns).map { "\(row).\($0)" }.joined(separator: ", ")
        }
        let insert = "INSERT INTO \(target) (\(list)) VALUES (\(values("new")));"
        let delete = "INSERT INTO \(target) (\(target), \(list)) VALUES ('delete', \(values("old")));"
        // An implicit rowid cannot be named in UPDATE OF: then every update re-indexes the row.
        let watched =
            index.rowIDExpression == "rowid" ? "" : "OF \(([index.rowIDExpression] + columns).joined(separator: ", ")) "
        let on = table.quotedSQLIdentifier
        let names = triggerNames(of: index)
        return [
            Trigger(
                name: names[0],
                sql: "CREATE TRIGGER \(exists)\(names[0].quotedSQLIdentifier) AFTER INSERT ON \(on) BEGIN \(insert) END"
            ),
            Trigger(
                name: names[1],
                sql: "CREATE TRIGGER \(exists)\(names[1].quotedSQLIdentifier) AFTER DELETE ON \(on) BEGIN \(delete) END"
            ),
            Trigger(
                name: names[2],
                sql: "CREATE TRIGGER \(exists)\(names[2].quotedSQLIdentifier) AFTER UPDATE \(watched)ON \(on) "
                    + "BEGIN \(delete) \(insert) END"),
        ]
    }

    /// The names of the insert, delete and update triggers: the index's name followed by `_ai`, `_ad` and `_au`.
    static func triggerNames(of index: ResolvedFullTextIndex) -> [String] {
        ["_ai", "_ad", "_au"].map { index.name + $0 }
    }

    /// The statements that remove an index and its triggers.
    static func drop(_ index: ResolvedFullTextIndex) -> [String] {
        triggerNames(of: index).map { "DROP TRIGGER IF EXISTS \($0.quotedSQLIdentifier)" }
            + ["DROP TABLE IF EXISTS \(index.name.quotedSQLIdentifier)"]
    }

    /// FTS5's `rebuild` command: the index is emptied and made again from the content table.
    static func rebuild(_ name: String) -> String {
        let table = name.quotedSQLIdentifier
        return "INSERT INTO \(table) (\(table)) VALUES ('rebuild')"
    }

    /// FTS5's `integrity-check` command. With a rank of 1 it also compares the index with the content table.
    static func integrityCheck(_ name: String, content: Bool) -> String {
        let table = name.quotedSQLIdentifier
        return "INSERT INTO \(table) (\(table), rank) VALUES ('integrity-check', \(content ? 1 : 0))"
    }

    /// An SQL string literal, for the options of `CREATE VIRTUAL TABLE`.
    static func literal(_ text: String) -> String {
        text.quoted(by: UInt8(ascii: "'"))
    }
}
