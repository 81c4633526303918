import CSQLiteSwiftly

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One value as SQLite holds it, read in place without copying until asked.
///
/// A stored value is lent to ``SQLiteValueConvertible/init(stored:)``: it is a column of the current result
/// row, valid only during that call. It is noncopyable and only ever borrowed, so it cannot be kept past the
/// call that received it (storing it or capturing it in an escaping closure does not compile).
///
/// Each accessor checks the value's storage class and throws ``SQLiteError/Kind/conversionFailed`` instead of
/// converting silently: reading TEXT as an integer, or NULL as anything, is an error.
public struct StoredValue: ~Copyable {
    /// The `sqlite3_value*`: valid until the statement steps or resets.
    @usableFromInline let value: OpaquePointer

    @inlinable init(_ value: OpaquePointer) {
        self.value = value
    }

    /// The storage class of the value.
    @inlinable public var storageClass: StorageClass {
        StorageClass(code: sqlite3_value_type(value))
    }

    /// Whether the value is NULL.
    @inlinable public var isNull: Bool {
        sqlite3_value_type(value) == SQLITE_NULL
    }

    /// The integer.
    ///
    /// - Returns: The value, when its storage class is INTEGER.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for any other storage class.
    @inlinable public func int64() throws(SQLiteError) -> Int64 {
        let type = sqlite3_value_type(value)
        guard type == SQLITE_INTEGER else { throw Self.mismatch(expected: .integer, found: type) }
        return sqlite3_value_int64(value)
    }

    /// The number as a double.
    ///
    /// - Returns: The value, when its storage class is REAL, or INTEGER that a double holds exactly (every
    ///   integer up to 2^53 in magnitude, and larger ones with enough trailing zero bits).
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for TEXT, BLOB and NULL, and for an INTEGER a double
    ///   would round.
    @inlinable public func double() throws(SQLiteError) -> Double {
        let type = sqlite3_value_type(value)
        if type == SQLITE_FLOAT { return sqlite3_value_double(value) }
        guard type == SQLITE_INTEGER else { throw Self.mismatch(expected: .real, found: type) }
        return try Double(exactInteger: sqlite3_value_int64(value))
    }

    /// The text, with embedded NUL characters kept.
    ///
    /// - Returns: The value, when its storage class is TEXT and its bytes are valid UTF-8.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for other storage classes or invalid UTF-8; an SQLite
    ///   error with code ``ResultCode/noMemory`` when SQLite could not provide the text.
    @inlinable public func string() throws(SQLiteError) -> String {
        let type = sqlite3_value_type(value)
        guard type == SQLITE_TEXT else { throw Self.mismatch(expected: .text, found: type) }
        // sqlite3_value_text before sqlite3_value_bytes: the documented order that avoids a conversion.
        let text = sqlite3_value_text(value)
        let count = Int(sqlite3_value_bytes(value))
        // SQLite returns even an empty text as a pointer to a NUL: a NULL pointer is a failed allocation (a
        // conversion from UTF-16, an overflow page), after which sqlite3_value_bytes says 0 and cannot tell.
        guard let text else { throw .outOfMemory("reading TEXT") }
        // SQLite's text ends with a NUL: the C-string initializer validates and copies in one pass, returning nil
        // for invalid UTF-8. It stops at the first NUL, so text holding one (a shorter string) takes the general
        // path, as does invalid text (which that path refuses with its error).
        let terminated = text.withMemoryRebound(to: CChar.self, capacity: count + 1) {
            String(validatingCString: $0)
        }
        if let terminated, terminated.utf8.count == count { return terminated }
        return try Self.validString(UnsafeBufferPointer(start: text, count: count))
    }

    /// A `String` of UTF-8 bytes, refusing invalid UTF-8 instead of repairing it.
    @inlinable static func validString(_ bytes: UnsafeBufferPointer<UInt8>) throws(SQLiteError) -> String {
        // String(decoding:) takes the standard library's fast UTF-8 path, but repairs invalid bytes with U+FFFD;
        // the text was valid exactly when the decoded bytes are the stored ones. (String(validating:as:) gives
        // the same answer through unspecialized generic code, several times slower.)
        var string = String(decoding: bytes, as: UTF8.self)
        guard string.withUTF8({ same($0, bytes) }) else {
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

    /// The bytes of a blob, or the UTF-8 bytes of a text.
    ///
    /// Text is accepted so that text that is not valid UTF-8 can still be read.
    ///
    /// - Returns: The bytes, when the storage class is BLOB or TEXT. An empty blob gives an empty array.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for INTEGER, REAL and NULL; an SQLite error with code
    ///   ``ResultCode/noMemory`` when SQLite could not provide the bytes.
    @inlinable public func bytes() throws(SQLiteError) -> [UInt8] {
        try withBytes { Array($0) }
    }

    /// The bytes of a blob, or the UTF-8 bytes of a text, as `Data`.
    ///
    /// - Returns: The bytes, when the storage class is BLOB or TEXT.
    /// - Throws: As ``bytes()``.
    @inlinable public func data() throws(SQLiteError) -> Data {
        try withBytes { Data($0) }
    }

    /// Calls `body` with the bytes of a blob or text, valid only during the call.
    @inlinable func withBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) throws(SQLiteError) -> T {
        let type = sqlite3_value_type(value)
        let start: UnsafeRawPointer?
        let count: Int
        switch type {
        case SQLITE_BLOB:
            // A blob's size needs no conversion; a zero-length blob has a NULL pointer, so a NULL pointer with
            // bytes is a failed allocation (expanding a zeroblob, reading an overflow page).
            count = Int(sqlite3_value_bytes(value))
            start = sqlite3_value_blob(value)
            if start == nil && count > 0 { throw .outOfMemory("reading a BLOB") }
        case SQLITE_TEXT:
            // Text first (the documented order); even an empty text is a pointer to a NUL, so NULL is a failed
            // allocation, after which sqlite3_value_bytes would say 0.
            guard let text = sqlite3_value_text(value) else { throw .outOfMemory("reading TEXT") }
            start = UnsafeRawPointer(text)
            count = Int(sqlite3_value_bytes(value))
        default: throw Self.mismatch(expected: .blob, found: type)
        }
        return body(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// The value, whatever its storage class, as an owned ``SQLiteValue``.
    ///
    /// - Returns: The value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for TEXT that is not valid UTF-8 (read it with
    ///   ``bytes()`` instead); an SQLite error with code ``ResultCode/noMemory`` when SQLite could not
    ///   provide text or bytes.
    @inlinable public func sqliteValue() throws(SQLiteError) -> SQLiteValue {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: .real(sqlite3_value_double(value))
        case SQLITE_TEXT: .text(try string())
        case SQLITE_BLOB: .blob(try bytes())
        default: .null
        }
    }

    /// Reads the value as `Value`, the way `Value(stored:)` does.
    ///
    /// Swift 6.3 does not devirtualize a call to a protocol requirement that has typed throws across modules,
    /// so in a model's decoder `Value(stored:)` stays an indirect call through the witness table even once
    /// `Value` is known. For the standard types this calls their conversion directly instead: each type test
    /// folds away when the caller is specialized. The conversions are the same ones the conformances use. Where
    /// the caller is not specialized, the type is compared by metadata and the result reinterpreted, exact once the
    /// types are equal, instead of an `as?` cast through the runtime.
    @inlinable @inline(__always)
    func decode<Value: SQLiteValueConvertible>(_ type: Value.Type) throws(SQLiteError) -> Value {
        if Value.self == Int.self { return unsafeBitCast(try Int(stored: self), to: Value.self) }
        if Value.self == Int64.self { return unsafeBitCast(try Int64(stored: self), to: Value.self) }
        if Value.self == Int32.self { return unsafeBitCast(try Int32(stored: self), to: Value.self) }
        if Value.self == Double.self { return unsafeBitCast(try Double(stored: self), to: Value.self) }
        if Value.self == String.self { return unsafeBitCast(try String(stored: self), to: Value.self) }
        if Value.self == Bool.self { return unsafeBitCast(try Bool(stored: self), to: Value.self) }
        if Value.self == Data.self { return unsafeBitCast(try Data(stored: self), to: Value.self) }
        if Value.self == [UInt8].self { return unsafeBitCast(try [UInt8](stored: self), to: Value.self) }
        // An optional's metadata comparison does not fold away even in specialized code (each costs a cached
        // metadata look-up), so the most common optional comes first.
        if Value.self == String?.self {
            return unsafeBitCast(try (isNull ? nil : String(stored: self)), to: Value.self)
        }
        if Value.self == Int?.self { return unsafeBitCast(try (isNull ? nil : Int(stored: self)), to: Value.self) }
        if Value.self == Int64?.self { return unsafeBitCast(try (isNull ? nil : Int64(stored: self)), to: Value.self) }
        if Value.self == Double?.self {
            return unsafeBitCast(try (isNull ? nil : Double(stored: self)), to: Value.self)
        }
        if Value.self == Bool?.self { return unsafeBitCast(try (isNull ? nil : Bool(stored: self)), to: Value.self) }
        if Value.self == Data?.self { return unsafeBitCast(try (isNull ? nil : Data(stored: self)), to: Value.self) }
        return try Value(stored: self)
    }

    @usableFromInline static func mismatch(expected: StorageClass, found type: Int32) -> SQLiteError {
        .conversion("expected \(expected), found \(StorageClass(code: type))")
    }
}
