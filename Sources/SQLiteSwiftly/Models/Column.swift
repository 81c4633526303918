/// One column of a ``TableModel``: name, declared type and constraints.
///
/// ```swift
/// static let columns = [
///     Column("id", Int.self, primaryKey: true),        // INTEGER NOT NULL, from the Swift type
///     Column("name", String.self, unique: true),       // TEXT NOT NULL UNIQUE
///     Column("moons", .integer, nullable: true, default: 0),
/// ]
/// ```
public struct Column: Hashable, Sendable {
    /// The column name, used as given (it is always quoted in generated SQL).
    public var name: String
    /// The declared type.
    public var type: DeclaredType
    /// Whether the column accepts NULL. Non-nullable columns are declared `NOT NULL`.
    public var isNullable: Bool
    /// Whether the column is (part of) the primary key. Several primary-key columns make a composite key.
    public var isPrimaryKey: Bool
    /// Whether a single INTEGER primary key uses `AUTOINCREMENT` (row ids are never reused).
    public var isAutoIncrement: Bool
    /// Whether the column is declared `UNIQUE`.
    public var isUnique: Bool
    /// The column's `DEFAULT` value, if any.
    public var defaultValue: SQLiteValue?
    /// The column's foreign-key reference, if any.
    public var references: ForeignKey?
    /// The collation that orders and compares the column's text (`COLLATE name`), or `nil` for SQLite's
    /// default, `BINARY`. A collation other than SQLite's own (`BINARY`, `NOCASE`, `RTRIM`) must be added to
    /// every connection that uses the table, with ``Connection/add(collation:)``.
    public var collation: String?

    /// Creates a column.
    ///
    /// - Parameters:
    ///   - name: The column name.
    ///   - type: The declared type.
    ///   - nullable: Whether NULL is allowed.
    ///   - primaryKey: Whether the column is (part of) the primary key.
    ///   - autoIncrement: Whether a single INTEGER primary key uses `AUTOINCREMENT`.
    ///   - unique: Whether the column is `UNIQUE`.
    ///   - default: The `DEFAULT` value.
    ///   - references: A foreign-key reference.
    ///   - collation: The name of the collation for the column's text, such as `"UNICODE_NOCASE"`.
    public init(
        _ name: String, _ type: DeclaredType, nullable: Bool = false, primaryKey: Bool = false,
        autoIncrement: Bool = false, unique: Bool = false, default: SQLiteValue? = nil, references: ForeignKey? = nil,
        collation: String? = nil
    ) {
        self.name = name
        self.type = type
        self.isNullable = nullable
        self.isPrimaryKey = primaryKey
        self.isAutoIncrement = autoIncrement
        self.isUnique = unique
        self.defaultValue = `default`
        self.references = references
        self.collation = collation
    }

    /// Creates a column whose type and nullability follow a Swift type: `Int?` gives a nullable INTEGER.
    ///
    /// - Parameters:
    ///   - name: The column name.
    ///   - swiftType: The Swift type of the property the column stores.
    ///   - primaryKey: Whether the column is (part of) the primary key.
    ///   - autoIncrement: Whether a single INTEGER primary key uses `AUTOINCREMENT`.
    ///   - unique: Whether the column is `UNIQUE`.
    ///   - default: The `DEFAULT` value.
    ///   - references: A foreign-key reference.
    ///   - collation: The name of the collation for the column's text, such as `"UNICODE_NOCASE"`.
    public init<Value: SQLiteValueConvertible>(
        _ name: String, _ swiftType: Value.Type, primaryKey: Bool = false, autoIncrement: Bool = false,
        unique: Bool = false, default: SQLiteValue? = nil, references: ForeignKey? = nil, collation: String? = nil
    ) {
        self.init(
            name, Value.declaredType, nullable: Value.isNullable, primaryKey: primaryKey, autoIncrement: autoIncrement,
            unique: unique, default: `default`, references: references, collation: collation)
    }
}

/// A foreign-key reference from a column to a column of another table.
public struct ForeignKey: Hashable, Sendable {
    /// What happens to referencing rows when the referenced row is deleted or updated.
    public enum Action: String, Hashable, Sendable {
        /// `NO ACTION`: the statement fails if the constraint is violated at the end of it.
        case noAction = "NO ACTION"
        /// `RESTRICT`: the change fails at once.
        case restrict = "RESTRICT"
        /// `SET NULL`: the referencing column becomes NULL.
        case setNull = "SET NULL"
        /// `SET DEFAULT`: the referencing column takes its default.
        case setDefault = "SET DEFAULT"
        /// `CASCADE`: the referencing rows are deleted or updated too.
        case cascade = "CASCADE"
    }

    /// The referenced table.
    public var table: String
    /// The referenced column.
    public var column: String
    /// The action on delete.
    public var onDelete: Action
    /// The action on update.
    public var onUpdate: Action

    /// Creates a reference, enforced unless the connection was opened without foreign-key enforcement
    /// (``ConnectionOptions/enforcesForeignKeys``).
    ///
    /// - Parameters:
    ///   - table: The referenced table.
    ///   - column: The referenced column.
    ///   - onDelete: The action on delete.
    ///   - onUpdate: The action on update.
    public init(_ table: String, _ column: String, onDelete: Action = .noAction, onUpdate: Action = .noAction) {
        self.table = table
        self.column = column
        self.onDelete = onDelete
        self.onUpdate = onUpdate
    }
}

/// An index declared by a ``TableModel``, created with the table.
public struct TableIndex: Hashable, Sendable {
    /// The index name.
    public var name: String
    /// The indexed columns, in order.
    public var columns: [String]
    /// Whether the index is `UNIQUE`.
    public var isUnique: Bool

    /// Creates an index declaration.
    ///
    /// - Parameters:
    ///   - name: The index name.
    ///   - columns: The indexed columns, in order.
    ///   - unique: Whether the index is `UNIQUE`.
    public init(_ name: String, on columns: [String], unique: Bool = false) {
        self.name = name
        self.columns = columns
        self.isUnique = unique
    }
}

extension Column: CustomStringConvertible {
    /// The column as `CREATE TABLE` declares it, with its constraints: `"id" INTEGER PRIMARY KEY NOT NULL`.
    ///
    /// A primary-key column shows `PRIMARY KEY` even when it is part of a key of several columns, which the table
    /// declares apart.
    public var description: String { TableSQL.definition(of: self, inlineKey: isPrimaryKey) }
}

extension ForeignKey: CustomStringConvertible {
    /// The `REFERENCES` clause: `REFERENCES "planets" ("id") ON DELETE CASCADE`.
    public var description: String { TableSQL.references(self) }
}

extension TableIndex: CustomStringConvertible {
    /// The index's name and columns: `UNIQUE INDEX "moons_by_name" ("planet", "name")`.
    public var description: String {
        "\(isUnique ? "UNIQUE " : "")INDEX \(TableSQL.quote(name)) (\(columns.map(TableSQL.quote).joined(separator: ", ")))"
    }
}
