/// A type that can be created from a result row, reading its columns by index.
///
/// ``TableModel`` refines it; ``UntypedRow`` adopts it for queries that do not map to a model. Adopt it
/// directly for the result of a query that is not a whole table (a join, an aggregate).
public protocol RowDecodable {
    /// The column names this type expects, in order, or `nil` to accept any columns.
    ///
    /// When not `nil`, a statement checks its result columns against these names (count and names, ignoring
    /// ASCII case) once, before the first row is read, and throws ``SQLiteError/Kind/modelMismatch`` when
    /// they differ.
    static var expectedColumnNames: [String]? { get }

    /// Creates a value from the current row, reading columns by their 0-based index.
    ///
    /// - Parameter row: The current result row.
    /// - Throws: Any error; the ``SQLiteError`` thrown by ``Row``'s accessors names the column and row.
    init(row: Row) throws
}

extension RowDecodable {
    /// Any columns are accepted by default.
    public static var expectedColumnNames: [String]? { nil }
}

/// A Swift type that describes one table: its name, its ordered columns, and how to read and write a row.
///
/// ```swift
/// struct Planet: TableModel {
///     var id: Int
///     var name: String
///     static let tableName = "planets"
///     static let columns = [Column("id", Int.self, primaryKey: true), Column("name", String.self)]
///     init(row: Row) throws {
///         id = try row[0]
///         name = try row[1]
///     }
///     func encode(to encoder: inout RowEncoder) throws {
///         try encoder.encode(id)
///         try encoder.encode(name)
///     }
/// }
/// ```
///
/// ``RowDecodable/init(row:)`` reads the columns by index in the order of ``columns``; ``encode(to:)`` writes one
/// value per column in the same order.
public protocol TableModel: RowDecodable {
    /// The table name, used as given (always quoted in generated SQL).
    static var tableName: String { get }
    /// The table's columns, in order. Decoding and encoding use this order.
    static var columns: [Column] { get }
    /// Indexes created with the table. None by default.
    static var indexes: [TableIndex] { get }
    /// Writes one value per column, in the order of ``columns``.
    ///
    /// - Parameter encoder: The encoder that binds the values to a statement.
    /// - Throws: Any error; the ``SQLiteError`` thrown by ``RowEncoder`` names the parameter.
    func encode(to encoder: inout RowEncoder) throws
}

extension TableModel {
    /// The names of ``columns``, in order.
    public static var expectedColumnNames: [String]? { columns.map(\.name) }

    /// No indexes by default.
    public static var indexes: [TableIndex] { [] }
}
