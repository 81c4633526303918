import CSQLiteSwiftly

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One value of the current result row, read in place without copying until asked.
///
/// A `ColumnValue` is only valid while its ``Row`` is: inside a model's ``RowDecodable/init(row:)`` or a
/// ``SQLiteValueConvertible/init(column:)`` call. Each accessor checks the stored value's storage class and
/// throws a ``SQLiteError/Kind/conversionFailed`` error instead of converting silently: reading TEXT as an
/// integer, or NULL as anything, is an error.
public struct ColumnValue {
    /// The `sqlite3_value*` of the column: valid until the statement steps or resets.
    @usableFromInline let value: OpaquePointer

    @inlinable init(_ value: OpaquePointer) {
        self.value = value
    }

    /// The storage class of the stored value.
    @inlinable public var storageClass: StorageClass {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: .integer
        case SQLITE_FLOAT: .real
        case SQLITE_TEXT: .text
        case SQLITE_BLOB: .blob
        default: .null
        }
    }

    /// Whether the stored value is NULL.
    @inlinable public var isNull: Bool {
        sqlite3_value_type(value) == SQLITE_NULL
    }

    /// The stored integer.
    ///
    /// - Returns: The value, when its storage class is INTEGER.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for any other storage class.
    @inlinable public func int64() throws(SQLiteError) -> Int64 {
        let type = sqlite3_value_type(value)
        guard type == SQLITE_INTEGER else { throw Self.mismatch(expected: "INTEGER", found: type) }
        return sqlite3_value_int64(value)
    }

    /// The stored number as a double.
    ///
    /// - Returns: The value, when its storage class is REAL or INTEGER.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for TEXT, BLOB and NULL.
    @inlinable public func double() throws(SQLiteError) -> Double {
        let type = sqlite3_value_type(value)
        guard type == SQLITE_FLOAT || type == SQLITE_INTEGER else {
            throw Self.mismatch(expected: "REAL", found: type)
        }
        return sqlite3_value_double(value)
    }

    /// The stored text, with embedded NUL characters kept.
    ///
    /// - Returns: The value, when its storage class is TEXT and its bytes are valid UTF-8.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for other storage classes or invalid UTF-8.
    @inlinable public func string() throws(SQLiteError) -> String {
        let type = sqlite3_value_type(value)
        guard type == SQLITE_TEXT else { throw Self.mismatch(expected: "TEXT", found: type) }
        // sqlite3_value_text before sqlite3_value_bytes: the documented order that avoids a conversion.
        guard let text = sqlite3_value_text(value) else { return "" }
        let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
        // String(decoding:) takes the standard library's fast UTF-8 path, but repairs invalid bytes with U+FFFD;
        // the text was valid exactly when the decoded bytes are the stored ones. (String(validating:as:) gives
        // the same answer through unspecialized generic code, several times slower.)
        var string = String(decoding: bytes, as: UTF8.self)
        guard string.withUTF8({ Self.same($0, bytes) }) else {
            throw SQLiteError.conversion("stored TEXT is not valid UTF-8; read it as Data or [UInt8] instead")
        }
        return string
    }

    @inlinable static func same(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> Bool {
        guard first.count == second.count else { return false }
        guard let left = first.baseAddress, let right = second.baseAddress else { return true }
        let (lhs, rhs) = (UnsafeRawPointer(left), UnsafeRawPointer(right))
        var offset = 0
        while offset + 8 <= first.count {
            let words = (
                lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
                rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            )
            if words.0 != words.1 { return false }
            offset += 8
        }
        while offset < first.count {
            if left[offset] != right[offset] { return false }
            offset += 1
        }
        return true
    }

    /// The stored bytes of a blob, or the UTF-8 bytes of a text.
    ///
    /// Text is accepted so that text that is not valid UTF-8 can still be read.
    ///
    /// - Returns: The bytes, when the storage class is BLOB or TEXT. An empty blob gives an empty array.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for INTEGER, REAL and NULL.
    @inlinable public func bytes() throws(SQLiteError) -> [UInt8] {
        try withBytes { Array($0) }
    }

    /// The stored bytes of a blob, or the UTF-8 bytes of a text, as `Data`.
    ///
    /// - Returns: The bytes, when the storage class is BLOB or TEXT.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for INTEGER, REAL and NULL.
    @inlinable public func data() throws(SQLiteError) -> Data {
        try withBytes { Data($0) }
    }

    @inlinable func withBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) throws(SQLiteError) -> T {
        let type = sqlite3_value_type(value)
        let start: UnsafeRawPointer?
        switch type {
        case SQLITE_BLOB: start = sqlite3_value_blob(value)
        case SQLITE_TEXT: start = sqlite3_value_text(value).map { UnsafeRawPointer($0) }
        default: throw Self.mismatch(expected: "BLOB", found: type)
        }
        return body(UnsafeRawBufferPointer(start: start, count: Int(sqlite3_value_bytes(value))))
    }

    /// The stored value, whatever its storage class, with TEXT checked to be valid UTF-8.
    ///
    /// - Returns: The value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for TEXT that is not valid UTF-8.
    @inlinable public func checkedSQLiteValue() throws(SQLiteError) -> SQLiteValue {
        sqlite3_value_type(value) == SQLITE_TEXT ? .text(try string()) : sqliteValue
    }

    /// The stored value, whatever its storage class.
    ///
    /// TEXT that is not valid UTF-8 is read with U+FFFD replacement characters; ``checkedSQLiteValue()`` refuses
    /// it instead, and ``bytes()`` reads the exact bytes.
    public var sqliteValue: SQLiteValue {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: return .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            guard let text = sqlite3_value_text(value) else { return .text("") }
            let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
            return .text(String(decoding: bytes, as: UTF8.self))
        case SQLITE_BLOB:
            return .blob((try? bytes()) ?? [])
        default: return .null
        }
    }

    /// Reads the value as `Value`, the way `Value(column:)` does.
    ///
    /// Swift 6.3 does not devirtualize a call to a protocol requirement that has typed throws across modules,
    /// so in a model's decoder `Value(column:)` stays an indirect call through the witness table even once
    /// `Value` is known. For the standard types this calls their conversion directly instead: each type test
    /// folds away when the caller is specialized. The conversions are the same ones the conformances use.
    @inlinable @inline(__always)
    func decode<Value: SQLiteValueConvertible>(_ type: Value.Type) throws(SQLiteError) -> Value {
        if Value.self == Int.self, let value = try Int(column: self) as? Value { return value }
        if Value.self == Int64.self, let value = try Int64(column: self) as? Value { return value }
        if Value.self == Int32.self, let value = try Int32(column: self) as? Value { return value }
        if Value.self == Double.self, let value = try Double(column: self) as? Value { return value }
        if Value.self == String.self, let value = try String(column: self) as? Value { return value }
        if Value.self == Bool.self, let value = try Bool(column: self) as? Value { return value }
        if Value.self == Data.self, let value = try Data(column: self) as? Value { return value }
        if Value.self == [UInt8].self, let value = try [UInt8](column: self) as? Value { return value }
        if Value.self == Int?.self, let value = try (isNull ? nil : Int(column: self)) as? Value { return value }
        if Value.self == Int64?.self, let value = try (isNull ? nil : Int64(column: self)) as? Value { return value }
        if Value.self == Double?.self, let value = try (isNull ? nil : Double(column: self)) as? Value {
            return value
        }
        if Value.self == String?.self, let value = try (isNull ? nil : String(column: self)) as? Value {
            return value
        }
        if Value.self == Bool?.self, let value = try (isNull ? nil : Bool(column: self)) as? Value { return value }
        if Value.self == Data?.self, let value = try (isNull ? nil : Data(column: self)) as? Value { return value }
        return try Value(column: self)
    }

    @usableFromInline static func mismatch(expected: String, found type: Int32) -> SQLiteError {
        let found: StorageClass =
            switch type {
            case SQLITE_INTEGER: .integer
            case SQLITE_FLOAT: .real
            case SQLITE_TEXT: .text
            case SQLITE_BLOB: .blob
            default: .null
            }
        return .conversion("expected \(expected), found \(found)")
    }
}
