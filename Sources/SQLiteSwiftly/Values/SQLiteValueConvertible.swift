/// A Swift type that can be stored in an SQLite column and read back.
///
/// The library conforms the standard value types (see DESIGN.md for the full type table). To store a type of
/// your own, conform it by converting through ``SQLiteValue``:
///
/// ```swift
/// struct Celsius: SQLiteValueConvertible {
///     var degrees: Double
///     static let columnType = ColumnType.real
///     init(sqliteValue: SQLiteValue) throws(SQLiteError) {
///         guard case .real(let value) = sqliteValue else { throw .conversion("expected REAL") }
///         degrees = value
///     }
///     var sqliteValue: SQLiteValue { .real(degrees) }
/// }
/// ```
///
/// The two fast-path requirements, ``init(column:)`` and ``bind(to:)``, have default implementations that go
/// through ``SQLiteValue``; the built-in types implement them directly to read and bind without copies.
public protocol SQLiteValueConvertible: SQLiteArgument {
    /// The declared type of a column holding this type, used by `CREATE TABLE`.
    static var columnType: ColumnType { get }
    /// Whether NULL is a valid value: `true` only for `Optional`.
    static var isNullable: Bool { get }
    /// Creates a value from what SQLite stored.
    ///
    /// - Parameter sqliteValue: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when the value cannot represent `Self`.
    init(sqliteValue: SQLiteValue) throws(SQLiteError)
    /// The value to store.
    ///
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when the value cannot be stored.
    var sqliteValue: SQLiteValue { get throws(SQLiteError) }
    /// Creates a value by reading a result column in place.
    ///
    /// - Parameter column: The column of the current row.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when the stored value cannot represent `Self`.
    init(column: ColumnValue) throws(SQLiteError)
    /// Binds the value to a statement parameter.
    ///
    /// - Parameter slot: The parameter to bind.
    /// - Throws: ``SQLiteError`` when the value cannot be stored or bound.
    func bind(to slot: ParameterSlot) throws(SQLiteError)
}

extension SQLiteValueConvertible {
    /// Non-optional types reject NULL.
    @inlinable public static var isNullable: Bool { false }

    /// Reads the column through ``SQLiteValue``, rejecting NULL for non-optional types.
    ///
    /// - Parameter column: The column of the current row.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for NULL or an unconvertible value.
    @inlinable public init(column: ColumnValue) throws(SQLiteError) {
        let value = try column.checkedSQLiteValue()
        if value == .null && !Self.isNullable { throw .conversion("expected \(Self.columnType), found NULL") }
        try self.init(sqliteValue: value)
    }

    /// Binds ``sqliteValue``.
    ///
    /// - Parameter slot: The parameter to bind.
    /// - Throws: ``SQLiteError`` when the value cannot be stored or bound.
    @inlinable public func bind(to slot: ParameterSlot) throws(SQLiteError) {
        try slot.bind(try sqliteValue)
    }

    /// The value as a single statement argument.
    public var statementArgument: StatementArguments.Argument {
        do {
            return .value(try sqliteValue)
        } catch {
            return .invalid(error)
        }
    }
}
