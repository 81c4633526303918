/// How a property of a ``Table()`` struct is stored in its column, chosen with
/// ``TableColumn(_:primaryKey:autoIncrement:unique:default:references:collation:storage:)``.
///
/// ```swift
/// @Table
/// struct Recipe {
///     var id: Int64
///     @TableColumn(storage: .json) var steps: [String]
/// }
/// ```
public enum ColumnStorage: Hashable, Sendable {
    /// The property's type stores itself: it conforms to ``SQLiteSwiftly/SQLiteValueConvertible``. The default.
    case value
    /// The property is stored as JSON text in a `TEXT` column, through its `Codable` conformance, as
    /// ``SQLiteSwiftly/CodableTableModel`` stores arrays and nested values: for arrays, dictionaries, sets and
    /// structs that are not column types (see ``JSONText``).
    case json
}
