import SQLiteSwiftly

/// Reads the schema of the tables of a database through the public query API.
///
/// Tables are the ordinary tables of `pragma_table_list`, except SQLite's own (`sqlite_%`): virtual tables, their
/// shadow tables and views are left out, because a model cannot create them. Columns come from `pragma_table_xinfo`, which also reports generated
/// columns (`hidden` 2 or 3); those are left out because they cannot be inserted.
struct SchemaReader {
    let connection: Connection

    /// The names of the ordinary tables, sorted, and the names of the virtual tables that were skipped.
    ///
    /// `pragma_table_list` (SQLite 3.37) tells virtual tables and their shadow tables (the ordinary tables a
    /// virtual table such as FTS5 keeps its data in) from ordinary ones; shadow tables are left out silently.
    func tableNames() throws -> (tables: [String], virtualTables: [String]) {
        let rows = try connection.fetchAll(
            UntypedRow.self,
            """
            SELECT name, type FROM pragma_table_list
            WHERE schema = 'main' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY name
            """)
        var tables: [String] = []
        var virtualTables: [String] = []
        for row in rows {
            guard case .text(let name) = row[0], case .text(let type) = row[1] else { continue }
            switch type {
            case "table": tables.append(name)
            case "virtual": virtualTables.append(name)
            default: break  // views and shadow tables
            }
        }
        return (tables, virtualTables)
    }

    /// The schema of one table.
    ///
    /// - Throws: ``SQLiteError`` of kind ``SQLiteError/Kind/misuse`` when the table does not exist, or an SQLite
    ///   error.
    func table(named name: String) throws -> TableSchema {
        let info = try connection.fetchAll(
            UntypedRow.self, "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?)",
            [name])
        guard !info.isEmpty else {
            throw SQLiteError(.misuse, message: "the database has no table named \"\(name)\"")
        }
        let uniqueColumns = try singleColumnUniqueConstraints(of: name)
        let references = try singleColumnForeignKeys(of: name)
        var columns: [ColumnSchema] = []
        var generated: [String] = []
        for row in info {
            let columnName = text(row[0]) ?? ""
            if integer(row[5]) != 0 {
                generated.append(columnName)
                continue
            }
            columns.append(
                ColumnSchema(
                    name: columnName, declaredType: text(row[1]) ?? "", isNotNull: integer(row[2]) != 0,
                    primaryKeyPosition: integer(row[4]), defaultExpression: text(row[3]),
                    isUnique: uniqueColumns.contains(columnName), references: references[columnName]))
        }
        let sql = try connection.fetchValue(
            String?.self, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [name])
        let keys = columns.filter(\.isPrimaryKey)
        let autoIncrement =
            keys.count == 1 && keys.first?.declaredType.uppercased() == "INTEGER"
            && (sql??.uppercased().contains("AUTOINCREMENT") ?? false)
        return TableSchema(
            name: name, columns: columns, generatedColumns: generated, isAutoIncrement: autoIncrement,
            indexes: try createdIndexes(of: name))
    }

    /// Columns covered alone by a `UNIQUE` constraint (index origin `u`).
    private func singleColumnUniqueConstraints(of table: String) throws -> Set<String> {
        var result: Set<String> = []
        for index in try indexList(of: table) where index.origin == "u" && !index.isPartial {
            let columns = try indexColumns(index.name)
            if columns.count == 1, let column = columns.first, let column { result.insert(column) }
        }
        return result
    }

    /// Indexes made by `CREATE INDEX` (origin `c`) on plain columns; partial and expression indexes are skipped.
    private func createdIndexes(of table: String) throws -> [TableIndex] {
        var result: [TableIndex] = []
        for index in try indexList(of: table) where index.origin == "c" && !index.isPartial {
            let columns = try indexColumns(index.name)
            let names = columns.compactMap { $0 }
            guard names.count == columns.count, !names.isEmpty else { continue }
            result.append(TableIndex(index.name, on: names, unique: index.isUnique))
        }
        return result.sorted { $0.name < $1.name }
    }

    private struct IndexListEntry {
        var name: String
        var isUnique: Bool
        var origin: String
        var isPartial: Bool
    }

    private func indexList(of table: String) throws -> [IndexListEntry] {
        try connection.fetchAll(
            UntypedRow.self, "SELECT name, \"unique\", origin, partial FROM pragma_index_list(?)", [table]
        ).map { row in
            IndexListEntry(
                name: text(row[0]) ?? "", isUnique: integer(row[1]) != 0, origin: text(row[2]) ?? "",
                isPartial: integer(row[3]) != 0)
        }
    }

    /// The key columns of an index, in order; `nil` for an expression.
    private func indexColumns(_ index: String) throws -> [String?] {
        try connection.fetchAll(UntypedRow.self, "SELECT name FROM pragma_index_info(?) ORDER BY seqno", [index])
            .map { text($0[0]) }
    }

    /// Single-column foreign keys by referencing column. A reference without a parent column names the parent's
    /// primary key, which is looked up; composite foreign keys are skipped.
    private func singleColumnForeignKeys(of table: String) throws -> [String: ForeignKey] {
        let rows = try connection.fetchAll(
            UntypedRow.self,
            "SELECT id, \"table\", \"from\", \"to\", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq",
            [table])
        let groups = Dictionary(grouping: rows) { integer($0[0]) }
        var result: [String: ForeignKey] = [:]
        for (_, group) in groups where group.count == 1 {
            guard let row = group.first, let parent = text(row[1]), let from = text(row[2]) else { continue }
            var to = text(row[3])
            if to == nil {
                let parentKeys = try connection.fetchAll(
                    UntypedRow.self, "SELECT name FROM pragma_table_info(?) WHERE pk > 0", [parent])
                if parentKeys.count == 1, let key = parentKeys.first { to = text(key[0]) }
            }
            guard let to else { continue }
            result[from] = ForeignKey(
                parent, to, onDelete: action(text(row[5])), onUpdate: action(text(row[4])))
        }
        return result
    }

    private func action(_ text: String?) -> ForeignKey.Action {
        text.flatMap { ForeignKey.Action(rawValue: $0.uppercased()) } ?? .noAction
    }

    private func text(_ value: SQLiteValue?) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }

    private func integer(_ value: SQLiteValue?) -> Int {
        if case .integer(let integer) = value { return Int(integer) }
        return 0
    }
}
