/// One way in which a table model differs from the table that exists in the database.
///
/// ``Connection/verify(_:)`` collects every difference into one ``SQLiteError`` of kind
/// ``SQLiteError/Kind/schemaMismatch``.
public struct SchemaDifference: Hashable, Sendable, CustomStringConvertible {
    /// What differs.
    public enum Kind: String, Hashable, Sendable {
        /// The table does not exist.
        case missingTable = "missing table"
        /// The model declares a column that the table lacks.
        case missingColumn = "missing column"
        /// The table has a NOT NULL column without default that the model does not know, so inserts fail.
        case extraRequiredColumn = "extra required column"
        /// The declared column type differs.
        case declaredType = "declared type"
        /// The column allows NULL in one and not in the other.
        case nullability = "nullability"
        /// The column's place in the primary key differs.
        case primaryKey = "primary key"
    }

    /// What differs.
    public var kind: Kind
    /// The table compared.
    public var table: String
    /// The column that differs, or `nil` for table-level differences.
    public var column: String?
    /// What the model declares.
    public var expected: String
    /// What the database has.
    public var actual: String

    /// Creates a difference.
    ///
    /// - Parameters:
    ///   - kind: What differs.
    ///   - table: The table compared.
    ///   - column: The column that differs, if any.
    ///   - expected: What the model declares.
    ///   - actual: What the database has.
    public init(_ kind: Kind, table: String, column: String? = nil, expected: String, actual: String) {
        self.kind = kind
        self.table = table
        self.column = column
        self.expected = expected
        self.actual = actual
    }

    /// A one-line description naming table, column, expected and actual.
    public var description: String {
        let place = column.map { "\"\(table)\".\"\($0)\"" } ?? "\"\(table)\""
        return "\(kind.rawValue) at \(place): expected \(expected), found \(actual)"
    }
}
