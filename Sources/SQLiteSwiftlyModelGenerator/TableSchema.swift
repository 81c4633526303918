import SQLiteSwiftly

/// What the generator knows about one table, as read from `PRAGMA table_xinfo` and its sibling pragmas.
struct TableSchema: Hashable, Sendable {
    /// The table's SQL name, exactly.
    var name: String
    /// The ordinary columns, in declaration order. Generated columns are left out: they cannot be written.
    var columns: [ColumnSchema]
    /// The names of generated columns that were left out.
    var generatedColumns: [String]
    /// Whether the single INTEGER primary key is declared `AUTOINCREMENT`.
    var isAutoIncrement: Bool
    /// Indexes created with `CREATE INDEX` on plain columns (not expressions, not partial).
    var indexes: [TableIndex]
}

/// One column of a ``TableSchema``.
struct ColumnSchema: Hashable, Sendable {
    /// The column's SQL name, exactly.
    var name: String
    /// The declared type as written in `CREATE TABLE` (may be empty or something like `VARCHAR(20)`).
    var declaredType: String
    /// Whether the column is declared `NOT NULL`.
    var isNotNull: Bool
    /// The 1-based position in the primary key, 0 when the column is not part of it.
    var primaryKeyPosition: Int
    /// The `DEFAULT` expression as SQLite stores it, or `nil`.
    var defaultExpression: String?
    /// Whether a single-column `UNIQUE` constraint covers the column.
    var isUnique: Bool
    /// A single-column foreign key from this column, if any.
    var references: ForeignKey?

    /// Whether the column is part of the primary key.
    var isPrimaryKey: Bool { primaryKeyPosition > 0 }
}
