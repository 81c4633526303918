import SQLiteSwiftly

// Unique constraints, foreign keys, indexes and triggers: what a model declares, and notes for the rest.
extension SchemaReader {
    /// One entry of `pragma_index_list`.
    struct IndexEntry {
        var name: String
        var isUnique: Bool
        /// `c` for `CREATE INDEX`, `u` for a `UNIQUE` constraint, `pk` for the primary key.
        var origin: String
        var isPartial: Bool
    }

    /// One key column of an index, from `pragma_index_xinfo`.
    struct IndexColumn {
        /// The column's name, or `nil` for an expression.
        var name: String?
        var isDescending: Bool
        var collation: String
    }

    /// Columns covered alone by a `UNIQUE` constraint (index origin `u`).
    func singleColumnUniqueConstraints(of table: String) throws -> Set<String> {
        var result: Set<String> = []
        for index in try indexList(of: table) where index.origin == "u" {
            let columns = try indexColumns(index.name)
            if columns.count == 1, let column = columns.first?.name { result.insert(column) }
        }
        return result
    }

    /// Notes for `UNIQUE` constraints on several columns, with their `ON CONFLICT` clause.
    func uniqueConstraintNotes(of table: String, definition: TableDefinition) throws -> [SchemaNote] {
        var notes: [SchemaNote] = []
        for index in try indexList(of: table).reversed() where index.origin == "u" {
            let columns = try indexColumns(index.name).compactMap(\.name)
            guard columns.count > 1 else { continue }
            var text = "UNIQUE (\(columns.map(\.quotedSQLName).joined(separator: ", ")))"
            let constraint = definition.constraint("UNIQUE", on: columns)
            if let conflict = constraint?.conflict { text += " ON CONFLICT \(conflict)" }
            notes.append(SchemaNote(text))
        }
        return notes
    }

    /// Indexes made by `CREATE INDEX` (origin `c`): those on plain columns, ascending, in the binary collation and
    /// not partial become ``TableIndex``es; the others become notes holding their `CREATE INDEX` statement.
    func createdIndexes(of table: String) throws -> (indexes: [TableIndex], notes: [SchemaNote]) {
        var indexes: [TableIndex] = []
        var notes: [SchemaNote] = []
        for index in try indexList(of: table).sorted(by: { $0.name < $1.name }) where index.origin == "c" {
            let columns = try indexColumns(index.name)
            var kinds: [String] = []
            if index.isPartial { kinds.append("partial") }
            if columns.contains(where: { $0.name == nil }) { kinds.append("expression") }
            if columns.contains(where: \.isDescending) { kinds.append("descending") }
            if columns.contains(where: { $0.collation.uppercased() != "BINARY" }) { kinds.append("collated") }
            let names = columns.compactMap(\.name)
            if kinds.isEmpty && !names.isEmpty {
                indexes.append(TableIndex(index.name, on: names, unique: index.isUnique))
                continue
            }
            let sql = try createStatement(type: "index", name: index.name) ?? ""
            let kind = "\(kinds.joined(separator: " ")) index"
            notes.append(
                SchemaNote(
                    "\(kind) \(SwiftLiteral.string(index.name))", detail: "\(kind): \(SQLTokenizer.singleLine(sql))"))
        }
        return (indexes, notes)
    }

    /// Notes for the triggers on a table or view: name, timing and event, without the body.
    func triggerNotes(on table: String) throws -> [SchemaNote] {
        let rows = try connection.fetchAll(
            UntypedRow.self,
            "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = \(table) ORDER BY name")
        return rows.map { row in
            let name = row[0].flatMap { if case .text(let text) = $0 { text } else { nil } } ?? ""
            let sql = row[1].flatMap { if case .text(let text) = $0 { text } else { nil } } ?? ""
            return SchemaNote("trigger \(SwiftLiteral.string(name))", detail: Self.triggerHeading(name: name, sql: sql))
        }
    }

    /// `trigger "name": AFTER UPDATE OF "Status" ON "Orders"`: the statement's text between the trigger's name and
    /// `BEGIN`.
    static func triggerHeading(name: String, sql: String) -> String {
        let tokens = SQLTokenizer.tokens(in: sql)
        var start = 0
        while start < tokens.count,
            ["CREATE", "TEMP", "TEMPORARY", "TRIGGER", "IF", "NOT", "EXISTS"].contains(where: tokens[start].isKeyword)
        {
            start += 1
        }
        start += 1  // the name
        if start + 1 < tokens.count, tokens[start].isSymbol(".") { start += 2 }  // schema.name
        let end = tokens.firstIndex { $0.isKeyword("BEGIN") } ?? tokens.count
        let label = "trigger \(SwiftLiteral.string(name))"
        guard start < end else { return label }
        return "\(label): \(SQLTokenizer.text(from: tokens[start], through: tokens[end - 1], in: sql))"
    }

    /// Single-column foreign keys by referencing column, and notes for the others: composite keys, and references
    /// to a parent whose key column cannot be found.
    func singleColumnForeignKeys(
        of table: String, definition: TableDefinition
    ) throws -> (single: [String: ForeignKey], others: [SchemaNote]) {
        let rows = try connection.fetchAll(
            UntypedRow.self,
            """
            SELECT id, "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(\(table), 'main')
            ORDER BY id, seq
            """)
        var groups: [Int64: [UntypedRow]] = [:]
        var order: [Int64] = []
        for row in rows {
            guard case .integer(let id) = row[0] else { continue }
            if groups[id] == nil { order.append(id) }
            groups[id, default: []].append(row)
        }
        var single: [String: ForeignKey] = [:]
        var others: [SchemaNote] = []
        for id in order.reversed() {
            guard let group = groups[id], let first = group.first, case .text(let parent) = first[1] else { continue }
            let from = group.compactMap { row -> String? in if case .text(let name) = row[2] { name } else { nil } }
            var to = group.compactMap { row -> String? in if case .text(let name) = row[3] { name } else { nil } }
            if to.isEmpty {
                to = try connection.fetchAll(
                    UntypedRow.self, "SELECT name FROM pragma_table_info(\(parent), 'main') WHERE pk > 0 ORDER BY pk"
                ).compactMap { row in if case .text(let name) = row[0] { name } else { nil } }
            }
            let onDelete = action(first[5])
            let onUpdate = action(first[4])
            if from.count == 1, to.count == 1, let column = from.first, let parentColumn = to.first {
                single[column] = ForeignKey(parent, parentColumn, onDelete: onDelete, onUpdate: onUpdate)
                continue
            }
            var text = "FOREIGN KEY (\(from.map(\.quotedSQLName).joined(separator: ", "))) REFERENCES "
            text += parent.quotedSQLName
            if !to.isEmpty { text += " (\(to.map(\.quotedSQLName).joined(separator: ", ")))" }
            if onDelete != .noAction { text += " ON DELETE \(onDelete.rawValue)" }
            if onUpdate != .noAction { text += " ON UPDATE \(onUpdate.rawValue)" }
            let isDeferred = definition.constraint("FOREIGN KEY", on: from)?.isDeferred == true
            if isDeferred { text += " DEFERRABLE INITIALLY DEFERRED (checked at commit)" }
            let columns = from.map(SwiftLiteral.string).joined(separator: ", ")
            others.append(SchemaNote("\(isDeferred ? "deferred " : "")foreign key (\(columns))", detail: text))
        }
        return (single, others)
    }

    private func action(_ value: SQLiteValue?) -> ForeignKey.Action {
        guard case .text(let text) = value else { return .noAction }
        return ForeignKey.Action(rawValue: text.uppercased()) ?? .noAction
    }

    func indexList(of table: String) throws -> [IndexEntry] {
        try connection.fetchAll(
            UntypedRow.self, "SELECT name, \"unique\", origin, partial FROM pragma_index_list(\(table), 'main')"
        ).map { row in
            var entry = IndexEntry(name: "", isUnique: row[1] == .integer(1), origin: "", isPartial: false)
            if case .text(let name) = row[0] { entry.name = name }
            if case .text(let origin) = row[2] { entry.origin = origin }
            entry.isPartial = row[3] == .integer(1)
            return entry
        }
    }

    /// The key columns of an index, in order.
    func indexColumns(_ index: String) throws -> [IndexColumn] {
        try connection.fetchAll(
            UntypedRow.self,
            "SELECT name, \"desc\", coll FROM pragma_index_xinfo(\(index), 'main') WHERE key = 1 ORDER BY seqno"
        ).map { row in
            var column = IndexColumn(name: nil, isDescending: row[1] == .integer(1), collation: "BINARY")
            if case .text(let name) = row[0] { column.name = name }
            if case .text(let collation) = row[2] { column.collation = collation }
            return column
        }
    }
}

extension String {
    /// The name quoted for SQL: `unit price` becomes `"unit price"`, with `"` doubled inside.
    var quotedSQLName: String {
        // Byte by byte: a `"` that a combining mark joins into one Character is still a quote to SQLite.
        var quoted: [UInt8] = [UInt8(ascii: "\"")]
        for byte in utf8 {
            quoted.append(byte)
            if byte == UInt8(ascii: "\"") { quoted.append(byte) }
        }
        quoted.append(UInt8(ascii: "\""))
        return String(decoding: quoted, as: UTF8.self)
    }
}
