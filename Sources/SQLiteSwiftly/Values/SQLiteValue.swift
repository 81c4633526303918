import CSQLiteSwiftly

/// One value as SQLite stores it: NULL, a 64-bit integer, a double, UTF-8 text or a blob.
///
/// Untyped rows (``UntypedRow``) hold these, and custom ``SQLiteValueConvertible`` types convert through them.
/// Literals work directly: `[1, "Mars", 1.52, nil]` is an array of values.
public enum SQLiteValue: Hashable, Sendable, CustomStringConvertible {
    /// SQL NULL.
    case null
    /// A signed 64-bit integer (storage class INTEGER).
    case integer(Int64)
    /// An IEEE 754 double (storage class REAL). NaN cannot be stored.
    case real(Double)
    /// UTF-8 text (storage class TEXT), possibly with embedded NUL characters.
    case text(String)
    /// Bytes (storage class BLOB); an empty blob is not NULL.
    case blob([UInt8])

    /// The storage class of the value.
    public var storageClass: StorageClass {
        switch self {
        case .null: .null
        case .integer: .integer
        case .real: .real
        case .text: .text
        case .blob: .blob
        }
    }

    /// A short description, such as `INTEGER 3` or `TEXT "Mars"`; blobs show their size only.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): "INTEGER \(value)"
        case .real(let value): "REAL \(value)"
        case .text(let value): "TEXT \(String(reflecting: value))"
        case .blob(let bytes): "BLOB (\(bytes.count) bytes)"
        }
    }
}

extension SQLiteValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
    /// Creates NULL.
    ///
    /// - Parameter nilLiteral: The `nil` literal.
    public init(nilLiteral: ()) { self = .null }
    /// Creates an integer value.
    ///
    /// - Parameter value: The integer literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// Creates a real value.
    ///
    /// - Parameter value: The floating-point literal.
    public init(floatLiteral value: Double) { self = .real(value) }
    /// Creates a text value.
    ///
    /// - Parameter value: The string literal.
    public init(stringLiteral value: String) { self = .text(value) }
    /// Creates an integer value, 1 for `true` and 0 for `false`.
    ///
    /// - Parameter value: The Boolean literal.
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

/// SQLite's storage classes: the type a stored value actually has.
///
/// See <https://www.sqlite.org/datatype3.html>.
public enum StorageClass: String, Hashable, Sendable, CustomStringConvertible {
    /// NULL. The corresponding C constant is `SQLITE_NULL`.
    case null = "NULL"
    /// A signed integer. The corresponding C constant is `SQLITE_INTEGER`.
    case integer = "INTEGER"
    /// A floating-point value. The corresponding C constant is `SQLITE_FLOAT`.
    case real = "REAL"
    /// Text. The corresponding C constant is `SQLITE_TEXT`.
    case text = "TEXT"
    /// A blob. The corresponding C constant is `SQLITE_BLOB`.
    case blob = "BLOB"

    /// The storage class's SQL name.
    public var description: String { rawValue }

    /// The storage class of an `SQLITE_INTEGER`, `SQLITE_FLOAT`, ... type code.
    @inlinable init(code: Int32) {
        switch code {
        case SQLITE_INTEGER: self = .integer
        case SQLITE_FLOAT: self = .real
        case SQLITE_TEXT: self = .text
        case SQLITE_BLOB: self = .blob
        default: self = .null
        }
    }
}

/// The declared type of a column, as written in `CREATE TABLE`, which decides the column's type affinity.
///
/// SQLite accepts any text as a declared type (`VARCHAR(20)`, `DATETIME`, none at all) and derives one of five
/// affinities from it: see <https://www.sqlite.org/datatype3.html#determination_of_column_affinity>. The
/// constants are the five canonical names and ``any`` (no declared type); any other text is kept as written.
/// A declared type is a value, not an enum case, so that a table of an existing database can be described as
/// it was declared.
public struct DeclaredType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The type as written in `CREATE TABLE`; empty for a column declared without a type.
    public let rawValue: String

    /// Creates a declared type from its SQL text.
    ///
    /// - Parameter rawValue: The type as written in `CREATE TABLE`, such as `"VARCHAR(20)"`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `INTEGER` affinity: integers, Booleans. An `INTEGER PRIMARY KEY` is the table's row id.
    public static let integer = DeclaredType(rawValue: "INTEGER")
    /// `REAL` affinity: floating-point numbers.
    public static let real = DeclaredType(rawValue: "REAL")
    /// `TEXT` affinity: strings.
    public static let text = DeclaredType(rawValue: "TEXT")
    /// `BLOB` (no affinity): bytes, stored as given.
    public static let blob = DeclaredType(rawValue: "BLOB")
    /// `NUMERIC` affinity: numbers stored in the most compact exact form.
    public static let numeric = DeclaredType(rawValue: "NUMERIC")
    /// No declared type: every value is stored as given, whatever its storage class (BLOB affinity).
    public static let any = DeclaredType(rawValue: "")

    /// The canonical type with the same affinity: one of ``integer``, ``text``, ``blob``, ``real`` and
    /// ``numeric``, found by SQLite's rules, in their order. ``any`` has ``blob``'s affinity.
    public var affinity: DeclaredType {
        let type = rawValue.uppercased()
        if type.contains("INT") { return .integer }
        if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return .text }
        if type.contains("BLOB") || type.isEmpty { return .blob }
        if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { return .real }
        return .numeric
    }

    /// The type's SQL text, or `(none)` for a column without a declared type.
    public var description: String { rawValue.isEmpty ? "(none)" : rawValue }

    /// Whether the text is a type name as SQLite's grammar has it, so that it can be written into `CREATE TABLE`
    /// as it is: words of letters, digits and `_` (not starting with a digit), then optionally one or two signed
    /// numbers in parentheses (`VARCHAR(20)`, `DECIMAL(10, 2)`, `UNSIGNED BIG INT`). Empty is ``any``.
    var isTypeName: Bool {
        var rest = Substring(rawValue)
        func skipSpaces() { rest = rest.drop { $0 == " " } }
        func isWordStart(_ character: Character) -> Bool {
            character == "_" || (character.isASCII && character.isLetter)
        }
        func isWordPart(_ character: Character) -> Bool {
            isWordStart(character) || (character.isASCII && character.isNumber)
        }
        func number() -> Bool {
            skipSpaces()
            if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
            let digits = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            rest = rest.dropFirst(digits.count)
            skipSpaces()
            return digits.contains { $0.isNumber } && digits.filter { $0 == "." }.count <= 1
        }
        skipSpaces()
        while let first = rest.first, isWordStart(first) {
            rest = rest.drop(while: isWordPart)
            skipSpaces()
        }
        if rest.first == "(" {
            rest = rest.dropFirst()
            guard number() else { return false }
            if rest.first == "," {
                rest = rest.dropFirst()
                guard number() else { return false }
            }
            guard rest.first == ")" else { return false }
            rest = rest.dropFirst()
            skipSpaces()
        }
        return rest.isEmpty && (rawValue.contains { isWordStart($0) } || rawValue.allSatisfy { $0 == " " })
    }
}
