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
}

/// The declared type of a column in `CREATE TABLE`, which sets the column's type affinity.
public enum ColumnType: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// `INTEGER` affinity: integers, Booleans.
    case integer = "INTEGER"
    /// `REAL` affinity: floating-point numbers.
    case real = "REAL"
    /// `TEXT` affinity: strings.
    case text = "TEXT"
    /// `BLOB` (no affinity): bytes, stored as given.
    case blob = "BLOB"
    /// `NUMERIC` affinity: numbers stored in the most compact exact form.
    case numeric = "NUMERIC"

    /// The type's SQL name, as written in `CREATE TABLE`.
    public var description: String { rawValue }
}
