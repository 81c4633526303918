/// Binds a model's values to a prepared statement's parameters, one column after the other.
///
/// A ``TableModel``'s ``TableModel/encode(to:)`` calls ``encode(_:)`` once per column, in the order of
/// ``TableModel/columns``; the statement checks afterwards that exactly one value per column was encoded. An
/// encoder is noncopyable and lent `inout` to that one call, so it cannot be kept past it.
public struct RowEncoder: ~Copyable {
    @usableFromInline unowned(unsafe) let raw: RawStatement
    /// Whether the statement uses only some columns (a DELETE by primary key), through its parameter map.
    @usableFromInline let isMapped: Bool
    @usableFromInline var encodedCount = 0

    /// How many values have been encoded.
    public var count: Int { encodedCount }

    @inlinable init(raw: RawStatement) {
        self.raw = raw
        isMapped = raw.parameterMap != nil
    }

    /// Binds the next column's value.
    ///
    /// - Parameter value: The value of the next column.
    /// - Throws: ``SQLiteError`` when the value cannot be stored (NaN, an unsigned integer above `Int64.max`,
    ///   text past SQLite's size limit) or the model encodes more values than it has columns.
    @inlinable @inline(__always)
    public mutating func encode<Value: SQLiteValueConvertible>(_ value: Value) throws(SQLiteError) {
        encodedCount += 1
        if isMapped {
            guard let index = try mappedParameter(ofColumn: encodedCount - 1) else { return }
            if index < 0 { return try raw.capture(value) }  // a related-rows query reading a parent's key
            return try ParameterSlot(raw: raw, index: index).bindValue(value)
        }
        // Column n binds parameter n; a value past the last parameter is refused by SQLite (SQLITE_RANGE).
        try ParameterSlot(raw: raw, index: Int32(truncatingIfNeeded: encodedCount)).bindValue(value)
    }

    /// The 1-based parameter of a 0-based column, `nil` when the statement does not use the column, negative when
    /// the value is kept in Swift instead (``RawStatement/capturedValue``).
    @usableFromInline func mappedParameter(ofColumn column: Int) throws(SQLiteError) -> Int32? {
        guard let parameterMap = raw.parameterMap else { return Int32(truncatingIfNeeded: column + 1) }
        guard column < parameterMap.count else { throw tooMany() }
        let index = parameterMap[column]
        return index == 0 ? nil : index
    }

    @usableFromInline func tooMany() -> SQLiteError {
        SQLiteError(
            .parameterMismatch,
            message: "the model encodes more values than its \(raw.parameterMap?.count ?? 0) columns",
            sql: raw.sql)
    }
}
