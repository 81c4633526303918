import CSQLiteSwiftly

/// Binds a model's values to a prepared statement's parameters, one column after the other.
///
/// A ``TableModel``'s ``TableModel/encode(to:)`` calls ``encode(_:)`` once per column, in the order of
/// ``TableModel/columns``. The statement checks afterwards that exactly one value per column was encoded.
public struct RowEncoder {
    @usableFromInline let statement: OpaquePointer
    /// For statements that use only some columns (a DELETE by primary key), the parameter index of each
    /// column, 0 for columns the statement does not use; `nil` when column `n` binds parameter `n`.
    @usableFromInline let parameterMap: [Int32]?
    @usableFromInline var encodedCount = 0

    /// How many values have been encoded.
    public var count: Int { encodedCount }

    @inlinable init(statement: OpaquePointer, parameterMap: [Int32]?) {
        self.statement = statement
        self.parameterMap = parameterMap
    }

    /// Binds the next column's value.
    ///
    /// - Parameter value: The value of the next column.
    /// - Throws: ``SQLiteError`` when the value cannot be stored (NaN, an unsigned integer above `Int64.max`,
    ///   text past SQLite's size limit) or the model encodes more values than it has columns.
    @inlinable public mutating func encode<Value: SQLiteValueConvertible>(_ value: Value) throws(SQLiteError) {
        encodedCount += 1
        var index = Int32(truncatingIfNeeded: encodedCount)
        if let parameterMap {
            guard encodedCount <= parameterMap.count else { throw tooMany() }
            index = parameterMap[encodedCount - 1]
            if index == 0 { return }
        }
        try ParameterSlot(statement: statement, index: index).bindValue(value)
    }

    @usableFromInline func tooMany() -> SQLiteError {
        SQLiteError(
            .parameterMismatch, message: "the model encodes more values than its \(count - 1) columns",
            sql: String(cString: sqlite3_sql(statement)))
    }
}
