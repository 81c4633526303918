import SQLiteSwiftly

/// How one column becomes a stored property.
struct PropertyPlan {
    var column: ColumnSchema
    /// The unique property name, unescaped.
    var name: String

    /// Whether the column is an `INTEGER PRIMARY KEY`, the alias of the row id, which never reads as NULL.
    var isRowIDAlias: Bool

    /// The column's nullability exactly as the schema declares it, so that the model passes
    /// ``Connection/verify(_:)`` and ``Connection/createTable(for:ifNotExists:)`` recreates the constraint. The
    /// row-id alias is not nullable: SQLite assigns it when NULL is inserted.
    var isColumnNullable: Bool { !column.isNotNull && !isRowIDAlias }

    /// Whether the property is optional: primary-key and `NOT NULL` columns are not, unless a primary key that
    /// is not declared `NOT NULL` (which a rowid table allows) holds NULL in some row. The row-id alias is
    /// optional, with or without `AUTOINCREMENT`: `nil` in a new row, which SQLite numbers when it is inserted.
    var isOptional: Bool { isRowIDAlias || (!column.isNotNull && (!column.isPrimaryKey || column.holdsNull)) }

    var mapping: TypeMapping { column.mapping }

    var escapedName: String { SwiftIdentifier.escaped(name) }

    var swiftType: String { mapping.swiftType + (isOptional ? "?" : "") }

    /// `"unit price" NUMERIC NOT NULL, default 0.` — the column as declared, and why its type was widened.
    var documentation: String {
        var parts = [SwiftLiteral.string(column.name)]
        let declared = column.declaredType.trimmingSpaces
        parts.append(declared.isEmpty ? "(no declared type)" : declared)
        if column.isNotNull { parts.append("NOT NULL") }
        var text = parts.joined(separator: " ")
        if column.isPrimaryKey { text += ", primary key" }
        if column.isPrimaryKey && column.holdsNull {
            text += " (NULL allowed by the schema, and a row holds NULL, so it is optional)"
        } else if isColumnNullable && !isOptional && column.isPrimaryKey {
            text += " (NULL allowed by the schema: a NULL key fails to read)"
        }
        if isRowIDAlias { text += " (nil in a new row: SQLite numbers the row when it is inserted)" }
        if let expression = column.defaultExpression {
            text += ", default \(expression)"
            if SwiftLiteral.defaultValue(expression) == nil { text += " (an expression: not declared in the model)" }
        }
        if let widening = column.widening { text += "; \(widening), so it is a SQLiteValue" }
        // A doc comment is one line: line breaks inside an expression become spaces.
        return String(text.map { $0.isNewline ? " " : $0 }) + "."
    }

    /// The plans for the columns of a table or view, with unique property names.
    static func plans(for table: TableSchema) -> [PropertyPlan] {
        var propertyNames: Set<String> = []
        let keyCount = table.columns.filter(\.isPrimaryKey).count
        return table.columns.map { column in
            PropertyPlan(
                column: column,
                name: SwiftIdentifier.unique(SwiftIdentifier.propertyName(for: column.name), in: &propertyNames),
                isRowIDAlias: keyCount == 1 && column.isPrimaryKey && column.declaredType.uppercased() == "INTEGER")
        }
    }
}
