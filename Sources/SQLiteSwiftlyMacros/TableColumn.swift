/// Sets the column name and constraints of a stored property of a ``Table()`` struct.
///
/// ```swift
/// @Table("users")
/// struct User {
///     @TableColumn("user_id", primaryKey: true, autoIncrement: true) var id: Int64
///     @TableColumn(unique: true) var email: String
///     @TableColumn(default: 0) var logins: Int
///     @TableColumn(references: ForeignKey("teams", "id", onDelete: .cascade)) var team: Int64?
///     @TableColumn(storage: .json) var roles: [String]
/// }
/// ```
///
/// The arguments are those of ``SQLiteSwiftly/Column``'s initializer, plus `storage`; the column's type and
/// nullability come from the property's Swift type. With `storage: .json`, the property is stored as JSON text
/// through its `Codable` conformance (``ColumnStorage/json``, ``JSONText``): use it for arrays, dictionaries, sets
/// and structs that are not column types. The attribute generates nothing itself: ``Table()`` reads it.
///
/// - Parameters:
///   - name: The column name; the property name (without backticks) by default.
///   - primaryKey: Whether the column is (part of) the primary key.
///   - autoIncrement: Whether a single INTEGER primary key uses `AUTOINCREMENT`.
///   - unique: Whether the column is `UNIQUE`.
///   - default: The column's `DEFAULT` value.
///   - references: A foreign-key reference.
///   - storage: How the value is stored: itself (``ColumnStorage/value``, the default) or as JSON text
///     (``ColumnStorage/json``). Write it as `.value` or `.json`: the macro reads it.
@attached(peer)
public macro TableColumn(
    _ name: String, primaryKey: Bool = false, autoIncrement: Bool = false, unique: Bool = false,
    default: SQLiteValue? = nil, references: ForeignKey? = nil, storage: ColumnStorage = .value
) = #externalMacro(module: "SQLiteSwiftlyMacrosPlugin", type: "TableColumnMacro")

/// Sets the constraints of a stored property of a ``Table()`` struct; the column is named after the property.
///
/// See ``TableColumn(_:primaryKey:autoIncrement:unique:default:references:storage:)``.
///
/// - Parameters:
///   - primaryKey: Whether the column is (part of) the primary key.
///   - autoIncrement: Whether a single INTEGER primary key uses `AUTOINCREMENT`.
///   - unique: Whether the column is `UNIQUE`.
///   - default: The column's `DEFAULT` value.
///   - references: A foreign-key reference.
///   - storage: How the value is stored: itself (``ColumnStorage/value``, the default) or as JSON text
///     (``ColumnStorage/json``). Write it as `.value` or `.json`: the macro reads it.
@attached(peer)
public macro TableColumn(
    primaryKey: Bool = false, autoIncrement: Bool = false, unique: Bool = false, default: SQLiteValue? = nil,
    references: ForeignKey? = nil, storage: ColumnStorage = .value
) = #externalMacro(module: "SQLiteSwiftlyMacrosPlugin", type: "TableColumnMacro")
