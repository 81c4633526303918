/// Builds the SQL the library generates from table models. Every identifier is quoted.
enum TableSQL {
    static func quote(_ identifier: String) -> String {
        identifier.quotedSQLIdentifier
    }

    static func columnList(_ columns: [Column]) -> String {
        columns.map { quote($0.name) }.joined(separator: ", ")
    }

    /// The statements that create a model's table and its indexes, after the checks of ``checkedColumns(of:requiringKey:)``
    /// and of each declared type, whose text is written into `CREATE TABLE` as it is.
    static func creation<Model: TableModel>(of type: Model.Type, ifNotExists: Bool) throws(SQLiteError) -> [String] {
        let columns = try checkedColumns(of: type, requiringKey: false)
        if let column = columns.first(where: { !$0.type.isTypeName }) {
            var error = SQLiteError(
                .misuse,
                message:
                    "the column \"\(column.name)\" of \(Model.self) declares the type \"\(column.type.rawValue)\", "
                    + "which is not a type name (words, then optionally one or two numbers in parentheses)")
            error.table = Model.tableName
            error.column = column.name
            throw error
        }
        return [createTable(Model.tableName, columns: columns, ifNotExists: ifNotExists)]
            + Model.indexes.map { createIndex($0, table: Model.tableName, ifNotExists: ifNotExists) }
            + (try FullTextSQL.creation(ofModel: type, ifNotExists: ifNotExists))
    }

    /// `CREATE TABLE` for a model, with its constraints.
    static func createTable(_ name: String, columns: [Column], ifNotExists: Bool) -> String {
        let keys = columns.filter(\.isPrimaryKey)
        // A single INTEGER primary key is declared inline, which makes it an alias of the row id.
        let inlineKey = keys.count == 1 ? keys.first?.name : nil
        var parts = columns.map { definition(of: $0, inlineKey: $0.name == inlineKey) }
        if keys.count > 1 {
            parts.append("PRIMARY KEY (\(columnList(keys)))")
        }
        let exists = ifNotExists ? "IF NOT EXISTS " : ""
        return "CREATE TABLE \(exists)\(quote(name)) (\(parts.joined(separator: ", ")))"
    }

    /// A column's definition in `CREATE TABLE`; with `inlineKey`, its `PRIMARY KEY` (and `AUTOINCREMENT`) too.
    static func definition(of column: Column, inlineKey: Bool) -> String {
        var definition = quote(column.name)
        if !column.type.rawValue.isEmpty { definition += " " + column.type.rawValue }
        if inlineKey {
            definition += " PRIMARY KEY"
            if column.isAutoIncrement && column.type == .integer { definition += " AUTOINCREMENT" }
        }
        if !column.isNullable { definition += " NOT NULL" }
        if column.isUnique { definition += " UNIQUE" }
        if let value = column.defaultValue { definition += " DEFAULT " + literal(value) }
        if let collation = column.collation { definition += " COLLATE " + quote(collation) }
        if let reference = column.references { definition += " " + references(reference) }
        return definition
    }

    /// A foreign key's `REFERENCES` clause, with its actions other than `NO ACTION`.
    static func references(_ reference: ForeignKey) -> String {
        var clause = "REFERENCES \(quote(reference.table)) (\(quote(reference.column)))"
        if reference.onDelete != .noAction { clause += " ON DELETE \(reference.onDelete.rawValue)" }
        if reference.onUpdate != .noAction { clause += " ON UPDATE \(reference.onUpdate.rawValue)" }
        return clause
    }

    /// A model's columns, checked for what SQLite cannot create or the statement needs: see ``problem(in:)``,
    /// and a primary key when `requiringKey`.
    static func checkedColumns<Model: TableModel>(of type: Model.Type, requiringKey: Bool) throws(SQLiteError)
        -> [Column]
    {
        let columns = Model.columns
        var problem: String?
        if Model.tableName.isEmpty {
            problem = "\(Model.self) has an empty table name"
        } else if columns.isEmpty {
            problem = "\(Model.self) declares no columns"
        } else if requiringKey && !columns.contains(where: \.isPrimaryKey) {
            problem = "\(Model.self) declares no primary key, which this statement needs"
        } else {
            problem = Self.problem(in: columns)
        }
        if let problem {
            var error = SQLiteError(.misuse, message: problem)
            error.table = Model.tableName
            throw error
        }
        return columns
    }

    /// The parameter of each column in a DELETE by key (see ``delete(_:columns:)``): the key columns bind
    /// parameters 1, 2, ... in column order; the other columns bind nothing (0).
    static func keyParameterMap(_ columns: [Column]) -> [Int32] {
        var next: Int32 = 0
        return columns.map { column in
            guard column.isPrimaryKey else { return 0 }
            next += 1
            return next
        }
    }

    /// What makes a column list impossible to create as declared, or `nil`: empty or duplicate names (SQLite
    /// compares them ignoring ASCII case), `AUTOINCREMENT` anywhere but on a single INTEGER primary key, where
    /// SQLite would refuse it or the generated SQL would silently drop it, or a NaN default, which SQLite would
    /// store as NULL.
    static func problem(in columns: [Column]) -> String? {
        if columns.contains(where: \.name.isEmpty) { return "a column has an empty name" }
        if let column = columns.first(where: { $0.collation?.isEmpty == true }) {
            return "the column \"\(column.name)\" declares an empty collation name"
        }
        if let column = columns.first(where: {
            if case .real(let value) = $0.defaultValue { value.isNaN } else { false }
        }) {
            return "the column \"\(column.name)\" has a NaN default, which SQLite cannot store"
        }
        var seen = Set<String>()
        for column in columns where !seen.insert(column.name.sqlIdentifierKey).inserted {
            return "the column \"\(column.name)\" is declared twice"
        }
        let keys = columns.filter(\.isPrimaryKey)
        if let column = columns.first(where: \.isAutoIncrement),
            keys.count != 1 || !column.isPrimaryKey || column.type != .integer
        {
            return "AUTOINCREMENT needs a single INTEGER primary key, but \"\(column.name)\" is not one"
        }
        return nil
    }

    /// `CREATE INDEX` for one declared index.
    static func createIndex(_ index: TableIndex, table: String, ifNotExists: Bool) -> String {
        let unique = index.isUnique ? "UNIQUE " : ""
        let exists = ifNotExists ? "IF NOT EXISTS " : ""
        let columns = index.columns.map(quote).joined(separator: ", ")
        return "CREATE \(unique)INDEX \(exists)\(quote(index.name)) ON \(quote(table)) (\(columns))"
    }

    static func select(_ table: String, columns: [Column], where condition: String?) -> String {
        var sql = "SELECT \(columnList(columns)) FROM \(quote(table))"
        if let condition { sql += " WHERE \(condition)" }
        return sql
    }

    static func insert(_ table: String, columns: [Column], policy: ConflictPolicy) -> String {
        let verb =
            switch policy {
            case .fail, .update: "INSERT"
            case .replace: "INSERT OR REPLACE"
            }
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        var sql = "\(verb) INTO \(quote(table)) (\(columnList(columns))) VALUES (\(placeholders))"
        if policy == .update {
            let keys = columns.filter(\.isPrimaryKey)
            let others = columns.filter { !$0.isPrimaryKey }
            sql += " ON CONFLICT (\(columnList(keys))) DO "
            sql +=
                others.isEmpty
                ? "NOTHING"
                : "UPDATE SET "
                    + others.map { "\(quote($0.name)) = excluded.\(quote($0.name))" }.joined(separator: ", ")
            // The row's id whether it was inserted or updated, under a name no column of the model shadows.
            let names = Set(columns.map(\.name.sqlIdentifierKey))
            let rowID = ["rowid", "_rowid_", "oid"].first { !names.contains($0) } ?? "rowid"
            sql += " RETURNING \(rowID)"
        }
        return sql
    }

    /// `INSERT ... ON CONFLICT DO NOTHING`: a row that breaks a uniqueness constraint is skipped.
    static func insertIfNew(_ table: String, columns: [Column]) -> String {
        insert(table, columns: columns, policy: .fail) + " ON CONFLICT DO NOTHING"
    }

    /// A model's columns for an upsert: a primary key, and another column to update.
    static func upsertColumns<Model: TableModel>(of type: Model.Type) throws(SQLiteError) -> [Column] {
        let columns = try checkedColumns(of: type, requiringKey: true)
        guard columns.contains(where: { !$0.isPrimaryKey }) else {
            var error = SQLiteError(
                .misuse,
                message:
                    "\(Model.self) has only primary-key columns: an upsert has nothing to update; use insertIfNew(_:)")
            error.table = Model.tableName
            throw error
        }
        return columns
    }

    /// The one primary-key column of a model, for a read or delete by key; a model without a key, or with a key
    /// of several columns, is ``SQLiteError/Kind/misuse``.
    static func singleKey<Model: TableModel>(of type: Model.Type) throws(SQLiteError) -> Column {
        let keys = try checkedColumns(of: type, requiringKey: true).filter(\.isPrimaryKey)
        guard keys.count == 1, let key = keys.first else {
            var error = SQLiteError(
                .misuse,
                message:
                    "\(Model.self) has a primary key of \(keys.count) columns (\(columnList(keys))), and a read or "
                    + "delete by id needs a single one: use a condition (fetchOne(_:where:)) or delete(_:) with a model"
            )
            error.table = Model.tableName
            throw error
        }
        return key
    }

    /// The SQL of a model statement, after the checks it needs (see ``checkedColumns(of:requiringKey:)``).
    static func modelStatement<Model: TableModel>(
        _ type: Model.Type, _ purpose: StatementCache.ModelKey.Purpose
    ) throws(SQLiteError) -> String {
        let table = Model.tableName
        switch purpose {
        case .select(let condition):
            return select(table, columns: Model.columns, where: condition)
        case .selectByKey:
            let key = try singleKey(of: type)
            return select(table, columns: Model.columns, where: "\(quote(key.name)) = ?")
        case .insert:
            return insert(table, columns: try checkedColumns(of: type, requiringKey: false), policy: .fail)
        case .insertIfNew:
            return insertIfNew(table, columns: try checkedColumns(of: type, requiringKey: false))
        case .upsert:
            return insert(table, columns: try upsertColumns(of: type), policy: .update)
        case .update:
            let columns = try checkedColumns(of: type, requiringKey: true)
            guard columns.contains(where: { !$0.isPrimaryKey }) else {
                var error = SQLiteError(
                    .misuse, message: "\(Model.self) has only primary-key columns: nothing to update")
                error.table = Model.tableName
                throw error
            }
            return update(table, columns: columns)
        case .delete:
            return delete(table, columns: try checkedColumns(of: type, requiringKey: true))
        case .deleteByKey:
            _ = try singleKey(of: type)
            return delete(table, columns: Model.columns)
        }
    }

    /// `UPDATE ... WHERE key`: column `n` binds parameter `?n`, so the model encodes in its own order.
    static func update(_ table: String, columns: [Column]) -> String {
        let numbered = columns.enumerated().map { (parameter: $0.offset + 1, column: $0.element) }
        let assignments = numbered.filter { !$0.column.isPrimaryKey }
            .map { "\(quote($0.column.name)) = ?\($0.parameter)" }.joined(separator: ", ")
        let keys = numbered.filter(\.column.isPrimaryKey)
            .map { "\(quote($0.column.name)) = ?\($0.parameter)" }.joined(separator: " AND ")
        return "UPDATE \(quote(table)) SET \(assignments) WHERE \(keys)"
    }

    /// `DELETE ... WHERE key`, with the key columns bound in column order.
    static func delete(_ table: String, columns: [Column]) -> String {
        let keys = columns.filter(\.isPrimaryKey).map { "\(quote($0.name)) = ?" }.joined(separator: " AND ")
        return "DELETE FROM \(quote(table)) WHERE \(keys)"
    }

    /// An SQL literal for a DEFAULT clause.
    static func literal(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let integer): return String(integer)
        case .real(let real):
            if real.isInfinite { return real < 0 ? "-9e999" : "9e999" }
            return "\(real)"
        case .text(let text):
            return text.quoted(by: UInt8(ascii: "'"))
        case .blob(let bytes):
            let digits = Array("0123456789ABCDEF")
            return "X'" + String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }) + "'"
        }
    }
}

// MARK: - How identifiers are quoted and compared

extension String {
    /// The string with ASCII letters lowercased and every other character kept: how SQLite folds the case of
    /// identifiers (table and column names), so that `"Name"` and `"name"` are one column but `"Ä"` and `"ä"`
    /// are two. Compare identifiers with this, not with `lowercased()`, which folds every script.
    var sqlIdentifierKey: String {
        guard utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return self }
        return String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}

extension String {
    /// The string as a quoted SQL identifier: `my "table"` becomes `"my ""table"""`.
    ///
    /// Every `"` byte is doubled, as SQLite reads bytes: comparing `Character`s would miss a `"` that a combining
    /// mark after it joins into one grapheme (`"` + U+0301), and that quote would end the name early.
    var quotedSQLIdentifier: String { quoted(by: UInt8(ascii: "\"")) }

    /// The string between two `quote` bytes, each `quote` byte inside doubled: an SQL identifier (`"`) or string
    /// literal (`'`). Bytes, not `Character`s, since SQLite reads bytes.
    func quoted(by quote: UInt8) -> String {
        var quoted: [UInt8] = [quote]
        quoted.reserveCapacity(utf8.count + 2)
        for byte in utf8 {
            quoted.append(byte)
            if byte == quote { quoted.append(byte) }
        }
        quoted.append(quote)
        return String(decoding: quoted, as: UTF8.self)
    }
}
