import SQLiteSwiftly

/// What the generator knows about one table or view, as read from the pragmas and the `CREATE` statement.
struct TableSchema: Hashable, Sendable {
    /// Whether the schema is a table, which gets a ``TableModel``, or a view, which gets a read-only
    /// ``RowDecodable`` type.
    enum Kind: String, Hashable, Sendable {
        case table
        case view
    }

    var kind: Kind
    /// The table's SQL name, exactly.
    var name: String
    /// The ordinary columns, in declaration order. Generated columns are left out (they cannot be written) and
    /// listed in ``notes``.
    var columns: [ColumnSchema]
    /// Whether the single INTEGER primary key is declared `AUTOINCREMENT`.
    var isAutoIncrement: Bool = false
    /// Indexes created with `CREATE INDEX` on plain columns, in ascending order and the binary collation: the
    /// ones a ``TableIndex`` declares exactly.
    var indexes: [TableIndex] = []
    /// What the table has and a model cannot declare, in the order the generator found it.
    var notes: [SchemaNote] = []
    /// The FTS5 index kept in step with the table by the triggers the library writes, which the model declares
    /// (`FullTextSearchable`); `nil` when there is none.
    var fullTextIndex: FullTextIndex?
}

/// A feature of a table that the generated model does not declare, written as a comment above the type and
/// named in the run's summary.
struct SchemaNote: Hashable, Sendable {
    /// A short name for the summary line: `CHECK on "Quantity"`, `partial index "active products"`.
    var summary: String
    /// The full text for the comment: the clause or statement as written, on one line.
    var detail: String

    init(_ summary: String, detail: String? = nil) {
        self.summary = summary
        self.detail = detail ?? summary
    }
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
    var isUnique: Bool = false
    /// A single-column foreign key from this column, if any.
    var references: ForeignKey?
    /// The column's collation (`COLLATE NOCASE`), or `nil` for `BINARY`.
    var collation: String?
    /// The column type and Swift type, from the declared type, or ``SQLiteValue`` when stored values do not fit.
    var mapping: TypeMapping
    /// Why ``mapping`` was widened to ``SQLiteValue`` after reading the rows, or `nil` when it was not.
    var widening: String?
    /// Whether a row holds NULL in the column (checked only where it matters: a non-optional property).
    var holdsNull = false

    init(
        name: String, declaredType: String, isNotNull: Bool, primaryKeyPosition: Int, defaultExpression: String?,
        isUnique: Bool = false, references: ForeignKey? = nil
    ) {
        self.name = name
        self.declaredType = declaredType
        self.isNotNull = isNotNull
        self.primaryKeyPosition = primaryKeyPosition
        self.defaultExpression = defaultExpression
        self.isUnique = isUnique
        self.references = references
        self.mapping = TypeMapping(declaredType: declaredType)
    }

    /// Whether the column is part of the primary key.
    var isPrimaryKey: Bool { primaryKeyPosition > 0 }
}
