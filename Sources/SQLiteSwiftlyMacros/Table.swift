/// Derives a complete ``SQLiteSwiftly/TableModel`` conformance for a struct; the table is named after the type.
///
/// ```swift
/// import SQLiteSwiftlyMacros
///
/// @Table
/// struct Planet {
///     @TableColumn(primaryKey: true) var id: Int64
///     var name: String
///     var moons: Int?
/// }
/// ```
///
/// The macro adds an extension with `static let tableName`, `static let columns` (one column per stored
/// property, in declaration order, its type and nullability following the Swift type), `init(row:)`, which
/// reads each column by its index, and `encode(to:)`, which encodes the properties in the same order. The
/// generated code is what you would write by hand, so a derived model is as fast as a hand-written one.
///
/// Use ``TableColumn(_:primaryKey:autoIncrement:unique:default:references:)`` for a column's name and
/// constraints, and ``Transient()`` to leave a stored property out. Computed and static properties are
/// ignored. Members the struct declares itself (say, `static let tableName`) are left alone. The macro
/// reports an error, instead of generating code, for a type that is not a struct, a generic struct, a stored
/// property without a type annotation, a `let` property with an initial value, and a `lazy` property.
@attached(
    extension, conformances: TableModel,
    names: named(tableName), named(columns), named(indexes), named(init(row:)), named(encode(to:)))
public macro Table() = #externalMacro(module: "SQLiteSwiftlyMacrosPlugin", type: "TableMacro")

/// Derives a complete ``SQLiteSwiftly/TableModel`` conformance for a struct stored in the table `name`.
///
/// See ``Table()`` for what is generated.
///
/// - Parameter name: The table name, used as given (generated SQL always quotes it).
@attached(
    extension, conformances: TableModel,
    names: named(tableName), named(columns), named(indexes), named(init(row:)), named(encode(to:)))
public macro Table(_ name: String) = #externalMacro(module: "SQLiteSwiftlyMacrosPlugin", type: "TableMacro")

/// Derives a complete ``SQLiteSwiftly/TableModel`` conformance, with indexes, for a struct stored in the
/// table `name`.
///
/// See ``Table()`` for what is generated; `indexes` becomes the model's `static let indexes`, created with the
/// table.
///
/// - Parameters:
///   - name: The table name, used as given (generated SQL always quotes it).
///   - indexes: The indexes created with the table.
@attached(
    extension, conformances: TableModel,
    names: named(tableName), named(columns), named(indexes), named(init(row:)), named(encode(to:)))
public macro Table(_ name: String, indexes: [TableIndex]) =
    #externalMacro(module: "SQLiteSwiftlyMacrosPlugin", type: "TableMacro")

/// Derives a complete ``SQLiteSwiftly/TableModel`` conformance, with indexes, for a struct; the table is named
/// after the type.
///
/// See ``Table()`` for what is generated; `indexes` becomes the model's `static let indexes`, created with the
/// table.
///
/// - Parameter indexes: The indexes created with the table.
@attached(
    extension, conformances: TableModel,
    names: named(tableName), named(columns), named(indexes), named(init(row:)), named(encode(to:)))
public macro Table(indexes: [TableIndex]) = #externalMacro(module: "SQLiteSwiftlyMacrosPlugin", type: "TableMacro")
