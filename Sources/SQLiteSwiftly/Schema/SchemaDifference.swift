/// One way in which a table model differs from the table that exists in the database.
///
/// ``Connection/verify(_:)`` collects every difference into one ``SQLiteError`` of kind
/// ``SQLiteError/Kind/schemaMismatch``.
public struct SchemaDifference: Hashable, Sendable, CustomStringConvertible {
    /// What differs.
    ///
    /// Kinds are values, not enum cases, so that new comparisons can be added without breaking a `switch`.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, as printed in descriptions.
        public let rawValue: String

        /// Creates a kind from its name.
        ///
        /// - Parameter rawValue: The name printed in descriptions.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The kind's name.
        public var description: String { rawValue }

        /// The table does not exist.
        public static let missingTable = Kind(rawValue: "missing table")
        /// The model declares a column that the table lacks.
        public static let missingColumn = Kind(rawValue: "missing column")
        /// The table has a NOT NULL column without default that the model does not know, so inserts fail.
        public static let extraRequiredColumn = Kind(rawValue: "extra required column")
        /// The declared column type has another affinity.
        public static let declaredType = Kind(rawValue: "declared type")
        /// The column allows NULL in one and not in the other.
        public static let nullability = Kind(rawValue: "nullability")
        /// The column's place in the primary key differs.
        public static let primaryKey = Kind(rawValue: "primary key")
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
