import SQLiteSwiftly

/// Chooses a column's ``DeclaredType`` and Swift type from its declared type, by SQLite's type affinity rules
/// (<https://www.sqlite.org/datatype3.html#determination_of_column_affinity>), checked in this order:
///
/// | declared type contains | affinity | Swift type |
/// | --- | --- | --- |
/// | `INT` | INTEGER | `Int` |
/// | `CHAR`, `CLOB`, `TEXT` | TEXT | `String` |
/// | `BLOB`, or no type at all | BLOB | `Data` |
/// | `REAL`, `FLOA`, `DOUB` | REAL | `Double` |
/// | anything else (`NUMERIC`, `DECIMAL(10,2)`, `BOOLEAN`, `DATE`...) | NUMERIC | see below |
///
/// NUMERIC affinity stores numbers-looking text as INTEGER or REAL and keeps anything else as TEXT, so no single
/// Swift type fits every NUMERIC column. The generator picks by name: `BOOL`/`BOOLEAN` → `Bool` (SQLite stores
/// 0 and 1), `DATE`/`TIME`/`DATETIME`/`TIMESTAMP` → `String` (such columns usually hold ISO-8601 text, which
/// NUMERIC keeps as TEXT), anything else → `Double` (which reads INTEGER and REAL values). The ``DeclaredType`` is
/// ``DeclaredType/numeric`` in all three cases, so the model matches the table.
struct TypeMapping: Hashable, Sendable {
    /// The column type for the model's ``Column``.
    var declaredType: DeclaredType
    /// The Swift type of the property, without `?`.
    var swiftType: String

    /// The mapping for a declared type.
    ///
    /// - Parameter declaredType: The type as written in `CREATE TABLE`, possibly empty.
    init(declaredType: String) {
        let type = declaredType.uppercased()
        if type.contains("INT") {
            self.init(declaredType: .integer, swiftType: "Int")
        } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
            self.init(declaredType: .text, swiftType: "String")
        } else if type.contains("BLOB") || type.trimmingSpaces.isEmpty {
            self.init(declaredType: .blob, swiftType: "Data")
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self.init(declaredType: .real, swiftType: "Double")
        } else {
            let name = type.prefix { $0.isLetter || $0 == " " }.trimmingSpaces
            switch name {
            case "BOOL", "BOOLEAN": self.init(declaredType: .numeric, swiftType: "Bool")
            case "DATE", "TIME", "DATETIME", "TIMESTAMP": self.init(declaredType: .numeric, swiftType: "String")
            default: self.init(declaredType: .numeric, swiftType: "Double")
            }
        }
    }

    init(declaredType: DeclaredType, swiftType: String) {
        self.declaredType = declaredType
        self.swiftType = swiftType
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
