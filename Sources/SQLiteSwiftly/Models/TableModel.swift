/// A type that can be created from a result row, reading its columns by index.
///
/// ``TableModel`` refines it; ``UntypedRow`` adopts it for queries that do not map to a model. Adopt it
/// directly for the result of a query that is not a whole table (an aggregate). Every row type is also a
/// ``JoinedRowMember``: a query that joins tables reads into a tuple of row types, one per table.
public protocol RowDecodable: JoinedRowMember {
    /// The column names this type reads, in the order of its indexes, or `nil` to read the statement's columns
    /// as they come.
    ///
    /// When not `nil`, a statement finds each name among its result columns (ignoring ASCII case) once, before
    /// the first row is read: the row's index 0 is then the first name's column wherever the statement returns
    /// it, and other columns are ignored. A name the statement does not return, or returns twice, is a
    /// ``SQLiteError/Kind/modelMismatch`` error naming the column.
    static var expectedColumnNames: [String]? { get }

    /// Creates a value from the current row, reading columns by their 0-based index.
    ///
    /// The row is borrowed for the duration of the call and cannot be kept.
    ///
    /// - Parameter row: The current result row.
    /// - Throws: Any error; the ``SQLiteError`` thrown by ``Row``'s accessors names the column, row and SQL.
    init(row: borrowing Row) throws
}

extension RowDecodable {
    /// The statement's columns are read as they come by default.
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
///     init(row: borrowing Row) throws {
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
/// value per column in the same order. A query may return the columns in another order, or more columns
/// (`SELECT *` after a migration added one): they are matched by name, once per statement.
///
/// To validate or normalize a value before it is written, implement ``willSave()``.
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
    /// Checks or adjusts the value just before it is inserted or updated.
    ///
    /// ``InsertStatement/insert(_:)``, ``InsertStatement/insertIfNew(_:)`` and ``Connection/update(_:)`` call it
    /// on a copy of the value, then write that copy. Throw to refuse the write: the error reaches the caller
    /// unchanged, and nothing is written. The default does nothing, and costs nothing.
    ///
    /// ```swift
    /// mutating func willSave() throws {
    ///     title = title.trimmingCharacters(in: .whitespaces)
    ///     guard !title.isEmpty else { throw ValidationError.emptyTitle }
    /// }
    /// ```
    ///
    /// - Throws: Any error, to refuse the write.
    mutating func willSave() throws
}

extension TableModel {
    /// The names of ``columns``, in order.
    public static var expectedColumnNames: [String]? { columns.map(\.name) }

    /// No indexes by default.
    public static var indexes: [TableIndex] { [] }

    /// Does nothing by default.
    @inlinable public mutating func willSave() throws {}
}
