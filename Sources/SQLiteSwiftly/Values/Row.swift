import CSQLiteSwiftly

/// The current row of a running statement, read by 0-based column index.
///
/// A row is only valid inside the ``RowDecodable/init(row:)`` call that receives it. Reading never converts
/// silently: NULL into a non-optional, TEXT or REAL into an integer, or an integer out of the Swift type's range
/// all throw ``SQLiteError/Kind/conversionFailed``, naming the column and the row.
public struct Row {
    @usableFromInline let statement: OpaquePointer
    @usableFromInline let columnCount: Int32
    /// The 1-based number of this row within the statement's results.
    public let number: Int

    @inlinable init(statement: OpaquePointer, columnCount: Int32, number: Int) {
        self.statement = statement
        self.columnCount = columnCount
        self.number = number
    }

    /// The number of columns.
    public var count: Int { Int(columnCount) }

    /// Reads the column at `index` as `Value`.
    ///
    /// - Parameter index: The 0-based column index.
    /// - Returns: The converted value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` naming the column and row when the stored value does
    ///   not convert, or when `index` is out of range.
    @inlinable @inline(__always) public subscript<Value: SQLiteValueConvertible>(_ index: Int) -> Value {
        get throws(SQLiteError) {
            try self.value(at: index)
        }
    }

    /// Reads the column named `name` (ASCII case-insensitive) as `Value`.
    ///
    /// Looking up a name scans the columns; reading by index is faster.
    ///
    /// - Parameter name: The column name.
    /// - Returns: The converted value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when no column has that name or the value does not convert.
    public subscript<Value: SQLiteValueConvertible>(_ name: String) -> Value {
        get throws(SQLiteError) {
            guard let index = index(of: name) else {
                var error = SQLiteError.conversion("the result has no column named \"\(name)\"")
                error.column = name
                error.row = number
                throw error
            }
            return try value(at: index)
        }
    }

    /// Reads the column at `index` as `Value`; the same as the subscript.
    ///
    /// - Parameters:
    ///   - index: The 0-based column index.
    ///   - type: The type to read, when inference cannot tell.
    /// - Returns: The converted value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` naming the column and row.
    @inlinable @inline(__always)
    public func value<Value: SQLiteValueConvertible>(at index: Int, as type: Value.Type = Value.self)
        throws(SQLiteError) -> Value
    {
        guard index >= 0 && index < Int(columnCount) else { throw outOfRange(index) }
        let position = Int32(truncatingIfNeeded: index)
        do {
            return try ColumnValue(sqlite3_column_value(statement, position)).decode(Value.self)
        } catch {
            throw located(error, index: position)
        }
    }

    /// The stored value of the column at `index`, whatever its type.
    ///
    /// - Parameter index: The 0-based column index.
    /// - Returns: The value, or ``SQLiteValue/null`` when `index` is out of range.
    public func sqliteValue(at index: Int) -> SQLiteValue {
        guard index >= 0 && index < Int(columnCount) else { return .null }
        return ColumnValue(sqlite3_column_value(statement, Int32(index))).sqliteValue
    }

    /// The name of the column at `index`, as SQLite reports it.
    ///
    /// - Parameter index: The 0-based column index.
    /// - Returns: The name, or an empty string when `index` is out of range.
    public func columnName(at index: Int) -> String {
        guard index >= 0 && index < Int(columnCount), let name = sqlite3_column_name(statement, Int32(index)) else {
            return ""
        }
        return String(cString: name)
    }

    /// The 0-based index of the column named `name`, ignoring ASCII case.
    ///
    /// - Parameter name: The column name.
    /// - Returns: The index, or `nil` if no column has that name.
    public func index(of name: String) -> Int? {
        (0..<count).first { columnName(at: $0).sqlIdentifierKey == name.sqlIdentifierKey }
    }

    @usableFromInline func outOfRange(_ index: Int) -> SQLiteError {
        var error = SQLiteError.conversion("column index \(index) is out of range: the row has \(columnCount) columns")
        error.row = number
        error.sql = String(cString: sqlite3_sql(statement))
        return error
    }

    @usableFromInline func located(_ error: SQLiteError, index: Int32) -> SQLiteError {
        // The table is filled in by the run loop, which knows it for model reads; sqlite3_column_table_name would
        // need SQLITE_ENABLE_COLUMN_METADATA, which not every SQLite build has.
        error.with(column: columnName(at: Int(index)), row: number)
    }
}
