import CSQLiteSwiftly

/// The arguments of one call of a Swift function, lent to it for the call.
///
/// Arguments are read by 0-based index, typed the way ``Row`` reads columns. The view is noncopyable and only
/// ever borrowed, so neither it nor an argument can outlive the call.
public struct FunctionArguments: ~Copyable {
    @usableFromInline let values: UnsafeMutablePointer<OpaquePointer?>?
    @usableFromInline let argumentCount: Int32

    @inlinable init(count: Int32, values: UnsafeMutablePointer<OpaquePointer?>?) {
        self.values = values
        self.argumentCount = values == nil ? 0 : count
    }

    /// The number of arguments of this call.
    public var count: Int { Int(argumentCount) }

    /// Reads the argument at `index` as `Value`.
    ///
    /// - Parameter index: The 0-based argument index.
    /// - Returns: The converted value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when the argument does not convert or `index` is out of
    ///   range.
    @inlinable @inline(__always) public subscript<Value: SQLiteValueConvertible>(_ index: Int) -> Value {
        get throws(SQLiteError) { try value(at: index) }
    }

    /// Reads the argument at `index` as `Value`; the same as the subscript.
    ///
    /// - Parameters:
    ///   - index: The 0-based argument index.
    ///   - type: The type to read, when inference cannot tell.
    /// - Returns: The converted value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` naming the argument.
    @inlinable @inline(__always)
    public func value<Value: SQLiteValueConvertible>(at index: Int, as type: Value.Type = Value.self)
        throws(SQLiteError) -> Value
    {
        let value = try pointer(at: index)
        do {
            return try StoredValue(value).decode(Value.self)
        } catch {
            throw Self.located(error, index: index)
        }
    }

    /// The storage class of the argument at `index`.
    ///
    /// - Parameter index: The 0-based argument index.
    /// - Returns: The storage class, such as ``StorageClass/text``.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when `index` is out of range.
    public func storageClass(at index: Int) throws(SQLiteError) -> StorageClass {
        StorageClass(code: sqlite3_value_type(try pointer(at: index)))
    }

    /// The argument at `index`, whatever its storage class.
    ///
    /// - Parameter index: The 0-based argument index.
    /// - Returns: The value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when `index` is out of range or the text is not valid
    ///   UTF-8.
    public func sqliteValue(at index: Int) throws(SQLiteError) -> SQLiteValue {
        try value(at: index, as: SQLiteValue.self)
    }

    /// Calls `body` with the argument at `index` as a ``StoredValue``, to read it in place.
    ///
    /// - Parameters:
    ///   - index: The 0-based argument index.
    ///   - body: Reads the value; the value cannot leave the closure.
    /// - Returns: What `body` returns.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when `index` is out of range; what `body` throws.
    public func withStoredValue<Result>(at index: Int, _ body: (borrowing StoredValue) throws -> Result) throws
        -> Result
    {
        try body(StoredValue(try pointer(at: index)))
    }

    @inlinable @inline(__always) func pointer(at index: Int) throws(SQLiteError) -> OpaquePointer {
        guard index >= 0 && index < Int(argumentCount), let values, let value = values[index] else {
            throw .conversion("argument index \(index) is out of range: the call has \(argumentCount) arguments")
        }
        return value
    }

    @usableFromInline static func located(_ error: SQLiteError, index: Int) -> SQLiteError {
        var error = error
        error.message = "argument \(index + 1): " + error.message
        return error
    }
}
