import SQLiteSwiftly

/// Chooses a column's ``DeclaredType`` and Swift type from its declared type, by SQLite's type affinity rules
/// (<https://www.sqlite.org/datatype3.html#determination_of_column_affinity>), checked in this order:
///
/// | declared type contains | affinity | Swift type |
/// | --- | --- | --- |
/// | `INT` | INTEGER | `Int` |
/// | `CHAR`, `CLOB`, `TEXT` | TEXT | `String` |
/// | `BLOB` | BLOB | `Data` |
/// | nothing (no declared type) | BLOB | ``SQLiteValue`` |
/// | `REAL`, `FLOA`, `DOUB` | REAL | `Double` |
/// | anything else | NUMERIC | see below |
///
/// A column with no declared type stores every value as given, so only ``SQLiteValue`` reads whatever it holds.
/// NUMERIC affinity stores number-looking text as INTEGER or REAL and keeps anything else as TEXT, so the type
/// comes from the name: `BOOL`/`BOOLEAN` → `Bool` (SQLite stores 0 and 1), `DATE`/`TIME`/`DATETIME`/`TIMESTAMP`
/// → `String` (such columns usually hold ISO 8601 text, which NUMERIC keeps as TEXT), `NUMERIC`, `DECIMAL`,
/// `NUMBER` and `MONEY` → `Double` (which reads INTEGER and REAL values), and any other name (`JSON`, `UUID`,
/// `ANY`, `STRING`...) → ``SQLiteValue``, since the name does not say what is stored. The ``DeclaredType`` keeps
/// the column's affinity, so the model matches the table.
struct TypeMapping: Hashable, Sendable {
    /// The column type for the model's ``Column``.
    var declaredType: DeclaredType
    /// The Swift type of the property, without `?`.
    var swiftType: String

    /// NUMERIC-affinity type names that hold numbers.
    static let numberNames: Set<String> = ["NUMERIC", "DECIMAL", "NUMBER", "MONEY"]

    /// The mapping for a declared type.
    ///
    /// - Parameter declaredType: The type as written in `CREATE TABLE`, possibly empty.
    init(declaredType: String) {
        let type = declaredType.uppercased()
        if type.contains("INT") {
            self.init(declaredType: .integer, swiftType: "Int")
        } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
            self.init(declaredType: .text, swiftType: "String")
        } else if type.contains("BLOB") {
            self.init(declaredType: .blob, swiftType: "Data")
        } else if type.isEmpty {
            // No declared type at all. Spaces alone are a declared type to SQLite, with NUMERIC affinity: below.
            self.init(declaredType: .any, swiftType: "SQLiteValue")
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self.init(declaredType: .real, swiftType: "Double")
        } else {
            let name = type.prefix { $0.isLetter || $0 == " " }.trimmingSpaces
            switch name {
            case "BOOL", "BOOLEAN": self.init(declaredType: .numeric, swiftType: "Bool")
            case "DATE", "TIME", "DATETIME", "TIMESTAMP": self.init(declaredType: .numeric, swiftType: "String")
            case _ where Self.numberNames.contains(name): self.init(declaredType: .numeric, swiftType: "Double")
            default: self.init(declaredType: .numeric, swiftType: "SQLiteValue")
            }
        }
    }

    init(declaredType: DeclaredType, swiftType: String) {
        self.declaredType = declaredType
        self.swiftType = swiftType
    }

    /// The same column type, read as ``SQLiteValue``.
    var widened: TypeMapping { TypeMapping(declaredType: declaredType, swiftType: "SQLiteValue") }

    /// The storage class the Swift type reads, for messages: `INTEGER`, `TEXT`...
    var expectedStorage: String {
        switch swiftType {
        case "Int": "INTEGER"
        case "Bool": "INTEGER 0 or 1"
        case "Double": "INTEGER or REAL"
        case "String": "TEXT"
        case "Data": "BLOB or TEXT"
        default: "any value"
        }
    }

    /// An SQL condition, true for a non-NULL stored value that the Swift type cannot read, or `nil` when it reads
    /// every value (``SQLiteValue``).
    ///
    /// - Parameter column: The column, quoted for SQL.
    /// - Returns: The condition.
    func unreadableCondition(column: String) -> String? {
        switch swiftType {
        case "Int": "typeof(\(column)) NOT IN ('integer', 'null')"
        case "Bool": "typeof(\(column)) NOT IN ('integer', 'null') OR \(column) NOT IN (0, 1)"
        case "Double": "typeof(\(column)) NOT IN ('integer', 'real', 'null')"
        case "String": "typeof(\(column)) NOT IN ('text', 'null')"
        case "Data": "typeof(\(column)) NOT IN ('blob', 'text', 'null')"
        default: nil
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line breaks.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
