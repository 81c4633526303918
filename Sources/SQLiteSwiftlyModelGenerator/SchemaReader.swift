import SQLiteSwiftly

/// Reads the schema of the tables and views of a database's `main` schema through the public query API.
///
/// `pragma_table_list` (SQLite 3.37) lists tables, views, virtual tables and their shadow tables; SQLite's own
/// tables (`sqlite_%`) are left out. Columns come from `pragma_table_xinfo`, which also reports generated columns
/// (`hidden` 2 or 3): those are listed as notes, because they cannot be written. Keys, unique constraints,
/// indexes and foreign keys come from their pragmas; what no pragma reports (`CHECK`, `COLLATE`...) comes from the
/// `CREATE` statement (``TableDefinition``). Everything a model cannot declare becomes a ``SchemaNote``.
struct SchemaReader {
    let connection: Connection

    /// One entry of `pragma_table_list`.
    struct Entry: Hashable, Sendable {
        /// The name, exactly.
        var name: String
        /// `table`, `view`, `virtual` or `shadow`.
        var type: String
        /// Whether the table is declared `WITHOUT ROWID`.
        var isWithoutRowID: Bool
        /// Whether the table is declared `STRICT`.
        var isStrict: Bool
    }

    /// The tables, views, virtual and shadow tables of the `main` schema, sorted by name, ignoring case.
    func entries() throws -> [Entry] {
        try connection.fetchAll(
            UntypedRow.self,
            """
            SELECT name, type, wr, strict FROM pragma_table_list
            WHERE schema = 'main' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY name COLLATE NOCASE, name
            """
        ).map { row in
            Entry(
                name: text(row[0]) ?? "", type: text(row[1]) ?? "", isWithoutRowID: integer(row[2]) != 0,
                isStrict: integer(row[3]) != 0)
        }
    }

    /// The module a virtual table is made with (`fts5`), read from its `CREATE VIRTUAL TABLE` statement.
    func module(ofVirtualTable name: String) throws -> String? {
        let tokens = SQLTokenizer.tokens(in: try createStatement(type: "table", name: name) ?? "")
        guard let using = tokens.firstIndex(where: { $0.isKeyword("USING") }), using + 1 < tokens.count else {
            return nil
        }
        return tokens[using + 1].identifier
    }

    /// The schema of one table, with notes on what a model cannot declare.
    ///
    /// - Parameter entry: The table's entry.
    /// - Throws: ``SQLiteError`` when SQLite cannot read the schema.
    func table(_ entry: Entry) throws -> TableSchema {
        let name = entry.name
        let sql = try createStatement(type: "table", name: name) ?? ""
        let definition = TableDefinition(sql: sql)
        let uniqueColumns = try singleColumnUniqueConstraints(of: name)
        let references = try singleColumnForeignKeys(of: name, definition: definition)
        var notes: [SchemaNote] = []
        if entry.isWithoutRowID { notes.append(SchemaNote("WITHOUT ROWID")) }
        if entry.isStrict { notes.append(SchemaNote("STRICT")) }
        var columns: [ColumnSchema] = []
        for row in try columnInfo(of: name) {
            let columnName = text(row[0]) ?? ""
            let declaredType = text(row[1]) ?? ""
            if integer(row[5]) == 2 || integer(row[5]) == 3 {
                let key = columnName.nameKey
                let clause = definition.generatedColumns.first { $0.column?.nameKey == key }?.text ?? "AS (...)"
                let declared = declaredType.isEmpty ? "" : " " + declaredType
                notes.append(
                    SchemaNote(
                        "generated column \(SwiftLiteral.string(columnName))",
                        detail: "generated column \(SwiftLiteral.string(columnName))\(declared) \(clause) "
                            + "(it cannot be written, so it is not a property)"))
                continue
            }
            var column = ColumnSchema(
                name: columnName, declaredType: declaredType, isNotNull: integer(row[2]) != 0,
                primaryKeyPosition: integer(row[4]), defaultExpression: text(row[3]),
                isUnique: uniqueColumns.contains(columnName), references: references.single[columnName])
            // A column's collation is declared by the model (`Column(..., collation:)`) and verified with it.
            column.collation = definition.collations.first { $0.column?.nameKey == columnName.nameKey }
                .map(\.text).flatMap { $0.uppercased() == "BINARY" ? nil : $0 }
            if let expression = column.defaultExpression, SwiftLiteral.defaultValue(expression) == nil {
                let line = "\(SwiftLiteral.string(columnName)) DEFAULT \(SQLTokenizer.singleLine(expression))"
                notes.append(SchemaNote("DEFAULT on \(SwiftLiteral.string(columnName))", detail: line))
            }
            columns.append(column)
        }
        guard !columns.isEmpty else {
            throw SQLiteError(.misuse, message: "the database has no table named \(SwiftLiteral.string(name))")
        }
        notes += definitionNotes(definition)
        notes += references.others
        notes += try uniqueConstraintNotes(of: name, definition: definition)
        let (indexes, indexNotes) = try createdIndexes(of: name)
        notes += indexNotes
        notes += try triggerNotes(on: name)
        let keys = columns.filter(\.isPrimaryKey)
        let autoIncrement =
            keys.count == 1 && keys.first?.declaredType.uppercased() == "INTEGER"
            && SQLTokenizer.tokens(in: sql).contains { $0.isKeyword("AUTOINCREMENT") }
        return TableSchema(
            kind: .table, name: name, columns: columns, isAutoIncrement: autoIncrement, indexes: indexes, notes: notes)
    }

    /// The schema of one view: its result columns, as SQLite declares them, and its triggers.
    ///
    /// - Parameter name: The view's name.
    /// - Throws: ``SQLiteError`` when the view's `SELECT` does not compile (a table it reads is gone).
    func view(named name: String) throws -> TableSchema {
        let columns = try columnInfo(of: name).map { row in
            ColumnSchema(
                name: text(row[0]) ?? "", declaredType: text(row[1]) ?? "", isNotNull: integer(row[2]) != 0,
                primaryKeyPosition: 0, defaultExpression: nil)
        }
        return TableSchema(kind: .view, name: name, columns: columns, notes: try triggerNotes(on: name))
    }

    /// The `CREATE` statement of a schema object, as SQLite keeps it.
    func createStatement(type: String, name: String) throws -> String? {
        try connection.fetchValue(
            String?.self, "SELECT sql FROM sqlite_schema WHERE type = \(type) AND name = \(name)") ?? nil
    }

    private func columnInfo(of name: String) throws -> [UntypedRow] {
        try connection.fetchAll(
            UntypedRow.self,
            "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(\(name), 'main')")
    }

    /// Notes for the clauses only the `CREATE TABLE` statement shows.
    private func definitionNotes(_ definition: TableDefinition) -> [SchemaNote] {
        func on(_ column: String?) -> String { column.map { " on \(SwiftLiteral.string($0))" } ?? "" }
        var notes: [SchemaNote] = []
        for check in definition.checks {
            notes.append(SchemaNote("CHECK\(on(check.column))", detail: "CHECK \(check.text)\(on(check.column))"))
        }
        // Column collations are declared by the model; a collation clause not tied to a column stays a note.
        for collation in definition.collations where collation.text.uppercased() != "BINARY" && collation.column == nil
        {
            notes.append(SchemaNote("COLLATE \(collation.text)"))
        }
        for clause in definition.conflictClauses {
            notes.append(SchemaNote("\(clause.text)\(on(clause.column))"))
        }
        for foreignKey in definition.deferredForeignKeys {
            notes.append(
                SchemaNote(
                    "deferred foreign key\(on(foreignKey.column))",
                    detail: "\(foreignKey.text)\(on(foreignKey.column)) (checked at commit)"))
        }
        // Multi-column UNIQUE constraints and composite foreign keys get their own notes, with these clauses.
        for constraint in definition.constraints where constraint.columns.count == 1 {
            let columns = "(\(constraint.columns.map(\.quotedSQLName).joined(separator: ", ")))"
            if let conflict = constraint.conflict, constraint.kind != "FOREIGN KEY" {
                notes.append(SchemaNote("\(constraint.kind) \(columns) ON CONFLICT \(conflict)"))
            }
            if constraint.isDeferred, let column = constraint.columns.first {
                notes.append(
                    SchemaNote(
                        "deferred foreign key\(on(column))",
                        detail: "FOREIGN KEY \(columns) ... DEFERRABLE INITIALLY DEFERRED (checked at commit)"))
            }
        }
        return notes
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

extension String {
    /// The name as SQLite compares names: ASCII letters ignoring case, every other character exactly.
    var nameKey: String {
        var scalars = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            let isUppercaseASCII = scalar.value >= 0x41 && scalar.value <= 0x5A
            scalars.append(isUppercaseASCII ? Unicode.Scalar(UInt8(scalar.value + 0x20)) : scalar)
        }
        return String(scalars)
    }
}
