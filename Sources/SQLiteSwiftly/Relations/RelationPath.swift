/// How a relation goes from a parent's table to a child's, as its models declare it: which foreign key, from which
/// side, and through which table. Resolved against the models' columns at each fetch, so that a relation the
/// schema does not support is an error at the call.
@usableFromInline
struct RelationPath: Hashable, Sendable {
    /// Which side holds the foreign key.
    enum Kind: Hashable, Sendable {
        /// The parent's column references the child's table (a book's author).
        case parentReferences(column: String?)
        /// The child's column references the parent's table (an author's books, a user's profile).
        case childReferences(column: String?)
        /// A link table references both (a note's tags through `note_tags`).
        case link(table: String, columns: [Column], parentColumn: String?, childColumn: String?)
    }

    var kind: Kind

    /// A path resolved against two models: the parent column whose value each parent is matched by, and the
    /// tables the child rows are read from, with the column that holds the matching key.
    struct Resolved: Equatable {
        /// The index, in the parent's columns, of the column whose value the children are matched with.
        var parentKeyIndex: Int
        /// The `FROM` clause: the child's table, or the link table joined to the child's.
        var from: String
        /// The qualified column of the rows read whose value equals the parent's key.
        var key: String
    }

    /// The name of a link table in the generated SQL when it is the child's table too.
    static let link = "sqliteswiftly_link"

    /// Resolves the path for `Parent` and `Child`.
    ///
    /// - Throws: ``SQLiteError/Kind/unsupportedRelation`` when no declared foreign key links the tables as the
    ///   path says, when several do and none was chosen, or when a key references a column its model lacks.
    func resolve<Parent: TableModel, Child: TableModel>(_ parent: Parent.Type, _ child: Child.Type) throws(SQLiteError)
        -> Resolved
    {
        let childTable = Child.tableName.quotedSQLIdentifier
        switch kind {
        case .parentReferences(let chosen):
            let key = try Self.foreignKey(
                in: Parent.tableName, Parent.columns, to: Child.tableName, chosen: chosen, describing: "\(Parent.self)")
            let parentIndex = try Self.index(
                of: key.name, in: Parent.columns, model: "\(Parent.self)", Parent.tableName)
            let childColumn = try Self.referenced(key, in: Child.columns, model: "\(Child.self)", Child.tableName)
            return Resolved(
                parentKeyIndex: parentIndex, from: childTable,
                key: "\(childTable).\(childColumn.quotedSQLIdentifier)")
        case .childReferences(let chosen):
            let key = try Self.foreignKey(
                in: Child.tableName, Child.columns, to: Parent.tableName, chosen: chosen, describing: "\(Child.self)")
            let parentColumn = try Self.referenced(key, in: Parent.columns, model: "\(Parent.self)", Parent.tableName)
            let parentIndex = try Self.index(
                of: parentColumn, in: Parent.columns, model: "\(Parent.self)", Parent.tableName)
            return Resolved(
                parentKeyIndex: parentIndex, from: childTable, key: "\(childTable).\(key.name.quotedSQLIdentifier)")
        case .link(let table, let columns, let parentChoice, let childChoice):
            let (toParent, toChild) = try Self.linkKeys(
                in: table, columns, parent: Parent.tableName, child: Child.tableName, parentChoice, childChoice)
            let parentColumn = try Self.referenced(
                toParent, in: Parent.columns, model: "\(Parent.self)", Parent.tableName)
            let parentIndex = try Self.index(
                of: parentColumn, in: Parent.columns, model: "\(Parent.self)", Parent.tableName)
            let childColumn = try Self.referenced(toChild, in: Child.columns, model: "\(Child.self)", Child.tableName)
            // The link keeps its own name, so that a condition can name it, unless it is the child's table.
            let isChild = table.sqlIdentifierKey == Child.tableName.sqlIdentifierKey
            let link = (isChild ? Self.link : table).quotedSQLIdentifier
            let from =
                "\(table.quotedSQLIdentifier)\(isChild ? " AS \(link)" : "") JOIN \(childTable) ON "
                + "\(childTable).\(childColumn.quotedSQLIdentifier) = \(link).\(toChild.name.quotedSQLIdentifier)"
            return Resolved(
                parentKeyIndex: parentIndex, from: from, key: "\(link).\(toParent.name.quotedSQLIdentifier)")
        }
    }

    /// The one foreign key of `columns` (of `table`) that references `target`, or the chosen one.
    static func foreignKey(
        in table: String, _ columns: [Column], to target: String, chosen: String?, describing model: String
    ) throws(SQLiteError) -> Column {
        let keys = columns.filter { $0.references?.table.sqlIdentifierKey == target.sqlIdentifierKey }
        if let chosen {
            guard let key = keys.first(where: { $0.name.sqlIdentifierKey == chosen.sqlIdentifierKey }) else {
                let message =
                    columns.contains { $0.name.sqlIdentifierKey == chosen.sqlIdentifierKey }
                    ? "\(model)'s column \"\(chosen)\" declares no foreign key to \"\(target)\""
                    : "\(model) has no column \"\(chosen)\""
                throw unsupported(message + Self.declared(keys), table: table, column: chosen)
            }
            return key
        }
        guard keys.count == 1 else {
            throw unsupported(
                keys.isEmpty
                    ? "\(model) declares no foreign key to \"\(target)\": declare one with Column(..., references: "
                        + "ForeignKey(\"\(target)\", ...))"
                    : "\(model) has \(keys.count) foreign keys to \"\(target)\"" + declared(keys)
                        + ": choose one with via:",
                table: table, column: nil)
        }
        return keys[0]
    }

    /// The link table's keys to the parent's and the child's tables. When both are the same table (a link between
    /// rows of one table), each choice takes the key the other leaves.
    static func linkKeys(
        in table: String, _ columns: [Column], parent: String, child: String, _ parentChoice: String?,
        _ childChoice: String?
    ) throws(SQLiteError) -> (Column, Column) {
        let model = "the link table \"\(table)\""
        guard parent.sqlIdentifierKey == child.sqlIdentifierKey else {
            return (
                try foreignKey(in: table, columns, to: parent, chosen: parentChoice, describing: model),
                try foreignKey(in: table, columns, to: child, chosen: childChoice, describing: model)
            )
        }
        let keys = columns.filter { $0.references?.table.sqlIdentifierKey == parent.sqlIdentifierKey }
        func other(than chosen: String) -> String? {
            let rest = keys.filter { $0.name.sqlIdentifierKey != chosen.sqlIdentifierKey }
            return rest.count == 1 ? rest[0].name : nil
        }
        guard let parentName = parentChoice ?? childChoice.flatMap(other),
            let childName = childChoice ?? other(than: parentName)
        else {
            throw unsupported(
                "\(model) links \"\(parent)\" to itself" + declared(keys)
                    + ": say which key leads from the parent with from: (and to the child with to:)",
                table: table, column: nil)
        }
        return (
            try foreignKey(in: table, columns, to: parent, chosen: parentName, describing: model),
            try foreignKey(in: table, columns, to: child, chosen: childName, describing: model)
        )
    }

    /// The column of `columns` that `key` references.
    static func referenced(_ key: Column, in columns: [Column], model: String, _ table: String) throws(SQLiteError)
        -> String
    {
        let name = key.references?.column ?? ""
        guard columns.contains(where: { $0.name.sqlIdentifierKey == name.sqlIdentifierKey }) else {
            throw unsupported(
                "the foreign key \"\(key.name)\" references \"\(table)\".\"\(name)\", which \(model) does not declare",
                table: table, column: name)
        }
        return name
    }

    static func index(of name: String, in columns: [Column], model: String, _ table: String) throws(SQLiteError) -> Int
    {
        guard let index = columns.firstIndex(where: { $0.name.sqlIdentifierKey == name.sqlIdentifierKey }) else {
            throw unsupported("\(model) does not declare the column \"\(name)\"", table: table, column: name)
        }
        return index
    }

    /// ` (its foreign keys: "a", "b")`, or nothing when there are none.
    static func declared(_ keys: [Column]) -> String {
        keys.isEmpty ? "" : " (\(keys.map { "\"\($0.name)\"" }.joined(separator: ", ")))"
    }

    static func unsupported(_ message: String, table: String, column: String?) -> SQLiteError {
        var error = SQLiteError(.unsupportedRelation, message: message)
        error.table = table
        error.column = column
        return error
    }
}
