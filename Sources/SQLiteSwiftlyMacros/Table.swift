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
/// Use ``TableColumn(_:primaryKey:autoIncrement:unique:default:references:collation:storage:)`` for a column's name,
/// constraints and storage, and ``Transient()`` to leave a stored property out. Computed and static properties
/// are ignored. Members the struct declares itself (say, `static let tableName`) are left alone; a struct that
/// declares its own `columns` must declare `init(row:)` and `encode(to:)` too, since the generated ones follow
/// the properties' order (the macro reports an error otherwise).
///
/// Each property's type must conform to ``SQLiteSwiftly/SQLiteValueConvertible``, or the property must be
/// declared `@TableColumn(storage: .json)` to be stored as JSON text. The macro reports an error, instead of
/// generating code, for a type that is not a struct, a generic struct, a stored property without a type
/// annotation, a `let` property with an initial value, a `lazy` property, and a property whose type it can see
/// cannot be stored: an array (other than `[UInt8]`), a dictionary or a set (with a fix-it that adds
/// `@TableColumn(storage: .json)`), a tuple, a function or an existential (`any P`). A type the macro cannot
/// see through, such as a typealias or a type from another module, is checked by the compiler instead: if it
/// does not conform, the generated code fails to compile with the message "@Table cannot store this property's
/// type in a column: conform the type to SQLiteValueConvertible, or store the property as JSON text with
/// @TableColumn(storage: .json)", shown in the macro's expansion at the lines that declare, read and write the
/// property's column.
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

/// Derives a complete ``SQLiteSwiftly/TableModel`` conformance for a struct stored in the table `name`, and makes
/// it ``SQLiteSwiftly/FullTextSearchable`` with a full-text index over some of its columns.
///
/// ```swift
/// @Table("notes", fullTextIndex: FullTextIndex(columns: ["title", "body"], tokenizer: .porter()))
/// struct Note {
///     @TableColumn(primaryKey: true) var id: Int
///     var title: String
///     var body: String
/// }
/// ```
///
/// See ``Table()`` for what is generated; `fullTextIndex` becomes the model's `static let fullTextIndex`, created
/// with the table. A column the index names as a string literal must be a column of the struct, or the macro
/// reports an error.
///
/// - Parameters:
///   - name: The table name, used as given (generated SQL always quotes it).
///   - indexes: The indexes created with the table.
///   - fullTextIndex: The full-text index created with the table.
@attached(
    extension, conformances: TableModel, FullTextSearchable,
    names: named(tableName), named(columns), named(indexes), named(fullTextIndex), named(init(row:)),
    named(encode(to:)))
public macro Table(_ name: String, indexes: [TableIndex] = [], fullTextIndex: FullTextIndex) =
    #externalMacro(module: "SQLiteSwiftlyMacrosPlugin", type: "TableMacro")

/// Derives a complete ``SQLiteSwiftly/TableModel`` conformance for a struct, and makes it
/// ``SQLiteSwiftly/FullTextSearchable``; the table is named after the type.
///
/// See ``Table(_:indexes:fullTextIndex:)``.
///
/// - Parameters:
///   - indexes: The indexes created with the table.
///   - fullTextIndex: The full-text index created with the table.
@attached(
    extension, conformances: TableModel, FullTextSearchable,
    names: named(tableName), named(columns), named(indexes), named(fullTextIndex), named(init(row:)),
    named(encode(to:)))
public macro Table(indexes: [TableIndex] = [], fullTextIndex: FullTextIndex) =
    #externalMacro(module: "SQLiteSwiftlyMacrosPlugin", type: "TableMacro")
