/// Sets the column name and constraints of a stored property of a ``Table()`` struct.
///
/// ```swift
/// @Table("users")
/// struct User {
///     @TableColumn("user_id", primaryKey: true, autoIncrement: true) var id: Int64
///     @TableColumn(unique: true) var email: String
///     @TableColumn(default: 0) var logins: Int
///     @TableColumn(references: ForeignKey("teams", "id", onDelete: .cascade)) var team: Int64?
/// }
/// ```
///
/// The arguments are those of ``SQLiteSwiftly/Column``'s initializer; the column's type and nullability come
/// from the property's Swift type. The attribute generates nothing itself: ``Table()`` reads it.
///
/// - Parameters:
///   - name: The column name; the property name (without backticks) by default.
///   - primaryKey: Whether the column is (part of) the primary key.
///   - autoIncrement: Whether a single INTEGER primary key uses `AUTOINCREMENT`.
///   - unique: Whether the column is `UNIQUE`.
///   - default: The column's `DEFAULT` value.
///   - references: A foreign-key reference.
@attached(peer)
public macro TableColumn(
    _ name: String, primaryKey: Bool = false, autoIncrement: Bool = false, unique: Bool = false,
    default: SQLiteValue? = nil, references: ForeignKey? = nil
) = #externalMacro(module: "SQLiteSwiftlyMacrosPlugin", type: "TableColumnMacro")

/// Sets the constraints of a stored property of a ``Table()`` struct; the column is named after the property.
///
/// See ``TableColumn(_:primaryKey:autoIncrement:unique:default:references:)``.
///
/// - Parameters:
///   - primaryKey: Whether the column is (part of) the primary key.
///   - autoIncrement: Whether a single INTEGER primary key uses `AUTOINCREMENT`.
///   - unique: Whether the column is `UNIQUE`.
///   - default: The column's `DEFAULT` value.
///   - references: A foreign-key reference.
@attached(peer)
public macro TableColumn(
    primaryKey: Bool = false, autoIncrement: Bool = false, unique: Bool = false, default: SQLiteValue? = nil,
    references: ForeignKey? = nil
) = #externalMacro(module: "SQLiteSwiftlyMacrosPlugin", type: "TableColumnMacro")
