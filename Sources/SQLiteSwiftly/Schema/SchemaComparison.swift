/// One column of a live table, as `PRAGMA table_xinfo` reports it.
struct LiveColumn {
    var name: String
    var declaredType: String
    var isNotNull: Bool
    var defaultValue: String?
    /// The 1-based position in the primary key, 0 when not part of it.
    var primaryKeyPosition: Int
    /// 0 for ordinary columns, 1 for hidden virtual-table columns, 2 or 3 for generated columns.
    var hidden: Int
    /// The declared collation (`BINARY` by default), or `nil` when it could not be read.
    var collation: String?

    init(row: borrowing Row) throws(SQLiteError) {
        name = try row[0]
        declaredType = try row[1]
        isNotNull = try row[2] as Int != 0
        defaultValue = try row[3]
        primaryKeyPosition = try row[4]
        hidden = try row[5]
    }

    init(
        name: String, declaredType: String, isNotNull: Bool, defaultValue: String? = nil,
        primaryKeyPosition: Int = 0, hidden: Int = 0, collation: String? = nil
    ) {
        self.name = name
        self.declaredType = declaredType
        self.isNotNull = isNotNull
        self.defaultValue = defaultValue
        self.primaryKeyPosition = primaryKeyPosition
        self.hidden = hidden
        self.collation = collation
    }
}

/// Compares a model's columns with a live table's columns. Pure: no SQLite calls.
enum SchemaComparison {
    static func differences(table: String, model: [Column], live: [LiveColumn]) -> [SchemaDifference] {
        guard !live.isEmpty else {
            let expected = "a table with \(model.count) column" + (model.count == 1 ? "" : "s")
            return [SchemaDifference(.missingTable, table: table, expected: expected, actual: "no table")]
        }
        var differences: [SchemaDifference] = []
        let modelKeys = model.filter(\.isPrimaryKey)
        let liveKeyCount = live.filter { $0.primaryKeyPosition > 0 }.count
        let liveByName = Dictionary(
            live.map { ($0.name.sqlIdentifierKey, $0) }, uniquingKeysWith: { first, _ in first })
        for column in model {
            guard let found = liveByName[column.name.sqlIdentifierKey] else {
                differences.append(
                    SchemaDifference(
                        .missingColumn, table: table, column: column.name, expected: describe(column),
                        actual: "no column"))
                continue
            }
            let isRowID = isRowIDAlias(found, liveKeyCount: liveKeyCount)
            differences += compare(column, found, table: table, modelKeys: modelKeys, liveKeyCount: liveKeyCount)
            if !isRowID && column.isNullable == found.isNotNull {
                differences.append(
                    SchemaDifference(
                        .nullability, table: table, column: column.name, expected: nullability(column.isNullable),
                        actual: nullability(!found.isNotNull)))
            }
        }
        let modelNames = Set(model.map { $0.name.sqlIdentifierKey })
        for extra in live where !modelNames.contains(extra.name.sqlIdentifierKey) && extra.hidden == 0 {
            let isRowID = isRowIDAlias(extra, liveKeyCount: liveKeyCount)
            if extra.isNotNull && extra.defaultValue == nil && !isRowID {
                differences.append(
                    SchemaDifference(
                        .extraRequiredColumn, table: table, column: extra.name, expected: "no column",
                        actual: "\(typeName(extra.declaredType)) NOT NULL without default"))
            } else if extra.primaryKeyPosition > 0 && !isRowID {
                differences.append(
                    SchemaDifference(
                        .primaryKey, table: table, column: extra.name, expected: "no column",
                        actual: keyPosition(extra.primaryKeyPosition, of: liveKeyCount)))
            }
        }
        return differences
    }

    /// Declared type and primary-key position of one column present on both sides.
    private static func compare(
        _ column: Column, _ found: LiveColumn, table: String, modelKeys: [Column], liveKeyCount: Int
    ) -> [SchemaDifference] {
        var differences: [SchemaDifference] = []
        let expectedAffinity = column.type.affinity
        let actualAffinity = DeclaredType(rawValue: found.declaredType).affinity
        if expectedAffinity != actualAffinity {
            differences.append(
                SchemaDifference(
                    .declaredType, table: table, column: column.name,
                    expected: "\(typeName(column.type.rawValue)) (\(expectedAffinity.rawValue) affinity)",
                    actual: "\(typeName(found.declaredType)) (\(actualAffinity.rawValue) affinity)"))
        } else if modelKeys.count == 1 && column.isPrimaryKey && column.type == .integer
            && found.primaryKeyPosition == 1 && liveKeyCount == 1 && !isRowIDAlias(found, liveKeyCount: 1)
        {
            // Same affinity, but only the exact name INTEGER makes the key an alias of the row id.
            differences.append(
                SchemaDifference(
                    .declaredType, table: table, column: column.name,
                    expected: "INTEGER PRIMARY KEY (an alias of the row id)",
                    actual: "\(typeName(found.declaredType)) PRIMARY KEY (not an alias of the row id)"))
        }
        let expectedCollation = column.collation ?? "BINARY"
        if let actual = found.collation, actual.sqlIdentifierKey != expectedCollation.sqlIdentifierKey {
            differences.append(
                SchemaDifference(
                    .collation, table: table, column: column.name, expected: "COLLATE \(expectedCollation)",
                    actual: "COLLATE \(actual)"))
        }
        let expectedKey =
            modelKeys.firstIndex { $0.name.sqlIdentifierKey == column.name.sqlIdentifierKey }.map { $0 + 1 } ?? 0
        if expectedKey != found.primaryKeyPosition {
            differences.append(
                SchemaDifference(
                    .primaryKey, table: table, column: column.name,
                    expected: keyPosition(expectedKey, of: modelKeys.count),
                    actual: keyPosition(found.primaryKeyPosition, of: liveKeyCount)))
        }
        return differences
    }

    /// Whether a live column is an `INTEGER PRIMARY KEY`, the alias of the row id: never NULL when read, and
    /// assigned automatically when NULL is inserted.
    static func isRowIDAlias(_ column: LiveColumn, liveKeyCount: Int) -> Bool {
        liveKeyCount == 1 && column.primaryKeyPosition == 1 && column.declaredType.uppercased() == "INTEGER"
    }

    private static func describe(_ column: Column) -> String {
        var text = typeName(column.type.rawValue) + (column.isNullable ? "" : " NOT NULL")
        if column.isPrimaryKey { text += " PRIMARY KEY" }
        return text
    }

    private static func typeName(_ declared: String) -> String {
        declared.isEmpty ? "no declared type" : declared
    }

    private static func nullability(_ nullable: Bool) -> String {
        nullable ? "NULL allowed" : "NOT NULL"
    }

    private static func keyPosition(_ position: Int, of count: Int) -> String {
        position == 0 ? "not in the primary key" : "primary key column \(position) of \(count)"
    }
}

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
        /// The column's collation differs (SQLite's default is `BINARY`).
        public static let collation = Kind(rawValue: "collation")
        /// A ``FullTextSearchable`` model's full-text index is missing, or declares other columns, tokenizer,
        /// prefix lengths or content than the model; ``SchemaDifference/table`` names the index.
        public static let fullTextIndex = Kind(rawValue: "full-text index")
        /// A trigger that keeps a full-text index in step is missing, or is not the one the library writes;
        /// ``SchemaDifference/column`` names the trigger.
        public static let fullTextTrigger = Kind(rawValue: "full-text trigger")
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
