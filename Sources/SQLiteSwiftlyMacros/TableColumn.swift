/// Sets the column name and constraints of a stored property of a ``Table()`` struct.
///
/// ```swift
/// @Table("users")
/// struct User {
///     @TableColumn("user_id", primaryKey: true, autoIncrement: true) var id: Int64
///     @TableColumn(unique: true) var email: String
///     @TableColumn(default: 0) var logins: Int
///     @TableColumn(references: ForeignKey("teams", "id", onDelete: .setNull)) var team: Int64?
///     @TableColumn(collation: "NOCASE") var nickname: String
///     @TableColumn(storage: .json) var roles: [String]
/// }
/// ```
///
/// The arguments are those of ``SQLiteSwiftly/Column``'s initializer that takes a Swift type (primary key,
/// `AUTOINCREMENT`, `UNIQUE`, `DEFAULT`, foreign-key reference with its `ON DELETE` and `ON UPDATE` actions,
/// collation), plus `storage`; the column's declared type and nullability come from the property's Swift type.
/// With `storage: .json`, the property is stored as JSON text
/// through its `Codable` conformance (``ColumnStorage/json``, ``JSONText``): use it for arrays, dictionaries, sets
/// and structs that are not column types. The attribute generates nothing itself: ``Table()`` reads it.
///
/// ``Table()`` reports an error, instead of generating code, for arguments it can see are wrong: `autoIncrement`
/// without `primaryKey`, on a type that is not an integer, or in a composite primary key; an empty collation,
/// table or column name; an `ON DELETE` or `ON UPDATE` action of `.setNull` on a non-optional property (its column
/// is `NOT NULL`), or `.setDefault` on one without a `default`; a `NULL` default on a non-optional property; a
/// text default for a number, or a number with a fraction for an integer.
///
/// - Parameters:
///   - name: The column name; the property name (without backticks) by default.
///   - primaryKey: Whether the column is (part of) the primary key.
///   - autoIncrement: Whether a single INTEGER primary key uses `AUTOINCREMENT`.
///   - unique: Whether the column is `UNIQUE`.
///   - default: The column's `DEFAULT` value.
///   - references: A foreign-key reference, with its `ON DELETE` and `ON UPDATE` actions.
///   - collation: The name of the collation for the column's text (`COLLATE`), such as `"NOCASE"`; a collation
///     other than SQLite's own must be added to every connection that uses the table
///     (``SQLiteSwiftly/Connection/add(collation:)``).
///   - storage: How the value is stored: itself (``ColumnStorage/value``, the default) or as JSON text
///     (``ColumnStorage/json``). Write it as `.value` or `.json`: the macro reads it.
@attached(peer)
public macro TableColumn(
    _ name: String, primaryKey: Bool = false, autoIncrement: Bool = false, unique: Bool = false,
    default: SQLiteValue? = nil, references: ForeignKey? = nil, collation: String? = nil,
    storage: ColumnStorage = .value
) = #externalMacro(module: "SQLiteSwiftlyMacrosPlugin", type: "TableColumnMacro")

/// Sets the constraints of a stored property of a ``Table()`` struct; the column is named after the property.
///
/// See ``TableColumn(_:primaryKey:autoIncrement:unique:default:references:collation:storage:)``.
///
/// - Parameters:
///   - primaryKey: Whether the column is (part of) the primary key.
///   - autoIncrement: Whether a single INTEGER primary key uses `AUTOINCREMENT`.
///   - unique: Whether the column is `UNIQUE`.
///   - default: The column's `DEFAULT` value.
///   - references: A foreign-key reference, with its `ON DELETE` and `ON UPDATE` actions.
///   - collation: The name of the collation for the column's text (`COLLATE`), such as `"NOCASE"`.
///   - storage: How the value is stored: itself (``ColumnStorage/value``, the default) or as JSON text
///     (``ColumnStorage/json``). Write it as `.value` or `.json`: the macro reads it.
@attached(peer)
public macro TableColumn(
    primaryKey: Bool = false, autoIncrement: Bool = false, unique: Bool = false, default: SQLiteValue? = nil,
    references: ForeignKey? = nil, collation: String? = nil, storage: ColumnStorage = .value
) = #externalMacro(module: "SQLiteSwiftlyMacrosPlugin", type: "TableColumnMacro")
