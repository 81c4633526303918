import CSQLiteSwiftly

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One parameter of a prepared statement, ready to receive a value.
///
/// ``SQLiteValueConvertible/bind(to:)`` borrows a slot and binds through it. A slot is noncopyable and only
/// ever borrowed, so it cannot be kept past that call. Text and blobs are bound with their exact byte length
/// (an embedded NUL is kept); an empty blob is bound as a zero-length blob, not as NULL. Values up to 16 KiB are
/// copied once into memory the statement keeps until its next run, and bound there without SQLite's own copy.
public struct ParameterSlot: ~Copyable {
    @usableFromInline let statement: OpaquePointer
    /// The statement's owner, not retained: a slot never outlives the run that lends it. A bind reaches the
    /// statement's arena through `_withUnsafeGuaranteedRef`, which lends the reference without the retain and
    /// release that reading an `unowned(unsafe)` property for a mutation costs.
    @usableFromInline let owner: Unmanaged<RawStatement>
    /// The 1-based parameter index.
    public let index: Int32
    /// Whether each bind records its parameter in ``RawStatement/lastBoundParameter``: only for the slot lent to
    /// a type's own `bind(to:)`, so that the library's own binds (where the flag is a constant `false`) pay
    /// nothing for the check.
    @usableFromInline let marksBinds: Bool

    @inlinable init(raw: RawStatement, index: Int32) {
        statement = raw.handle
        owner = Unmanaged.passUnretained(raw)
        self.index = index
        marksBinds = false
    }

    @inlinable init(marking slot: borrowing ParameterSlot) {
        statement = slot.statement
        owner = slot.owner
        index = slot.index
        marksBinds = true
    }

    /// Binds SQL NULL.
    ///
    /// - Throws: ``SQLiteError/Kind/parameterMismatch`` if the statement has no parameter at this index.
    @inlinable public func bindNull() throws(SQLiteError) {
        try check(sqlite3_bind_null(statement, index))
    }

    /// Binds an integer.
    ///
    /// - Parameter value: The integer.
    /// - Throws: ``SQLiteError/Kind/parameterMismatch`` if the statement has no parameter at this index.
    @inlinable public func bind(_ value: Int64) throws(SQLiteError) {
        try check(sqlite3_bind_int64(statement, index, value))
    }

    /// Binds a double. NaN is refused, since SQLite would store it as NULL.
    ///
    /// - Parameter value: The double.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for NaN, ``SQLiteError/Kind/parameterMismatch`` for a
    ///   missing parameter.
    @inlinable public func bind(_ value: Double) throws(SQLiteError) {
        guard !value.isNaN else { throw failure("NaN cannot be stored: SQLite would turn it into NULL") }
        try check(sqlite3_bind_double(statement, index, value))
    }

    /// Binds text with its exact UTF-8 length.
    ///
    /// - Parameter value: The string.
    /// - Throws: An SQLite error with code ``ResultCode/tooBig`` past SQLite's length limit, or
    ///   ``SQLiteError/Kind/parameterMismatch`` for a missing parameter.
    @inlinable public func bind(_ value: String) throws(SQLiteError) {
        // Native and small strings lend their UTF-8 without a copy of the String value; others (a bridged
        // string) are made contiguous first.
        if let code = value.utf8.withContiguousStorageIfAvailable({ bindText($0) }) { return try check(code) }
        var text = value
        try check(text.withUTF8 { bindText($0) })
    }

    /// Binds UTF-8 bytes as text, and returns SQLite's result code.
    @inlinable func bindText(_ utf8: UnsafeBufferPointer<UInt8>) -> Int32 {
        guard let base = utf8.baseAddress, !utf8.isEmpty else {
            // SQLite needs a non-NULL pointer for empty text: NULL would bind SQL NULL.
            return sqlite3_bind_text64(statement, index, "", 0, RawStatement.transient, UInt8(SQLITE_UTF8))
        }
        let count = sqlite3_uint64(utf8.count)
        if utf8.count <= BindingArena.largestCopy {
            // Lives in the statement's arena until its next run: bound in place (SQLITE_STATIC).
            let copy = owner._withUnsafeGuaranteedRef { $0.arena.copy(UnsafeRawPointer(base), count: utf8.count) }
            return sqlite3_bind_text64(
                statement, index, copy.assumingMemoryBound(to: CChar.self), count, nil, UInt8(SQLITE_UTF8))
        }
        return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) { chars in
            sqlite3_bind_text64(statement, index, chars, count, RawStatement.transient, UInt8(SQLITE_UTF8))
        }
    }

    /// Binds bytes as a blob; an empty buffer binds an empty blob.
    ///
    /// - Parameter bytes: The bytes.
    /// - Throws: An SQLite error with code ``ResultCode/tooBig`` past SQLite's length limit, or
    ///   ``SQLiteError/Kind/parameterMismatch`` for a missing parameter.
    @inlinable public func bind(bytes: UnsafeRawBufferPointer) throws(SQLiteError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            try check(sqlite3_bind_zeroblob(statement, index, 0))
            return
        }
        if bytes.count <= BindingArena.largestCopy {
            let copy = owner._withUnsafeGuaranteedRef { $0.arena.copy(base, count: bytes.count) }
            try check(sqlite3_bind_blob64(statement, index, copy, sqlite3_uint64(bytes.count), nil))
            return
        }
        try check(sqlite3_bind_blob64(statement, index, base, sqlite3_uint64(bytes.count), RawStatement.transient))
    }

    /// Binds any ``SQLiteValue``.
    ///
    /// - Parameter value: The value.
    /// - Throws: As the typed `bind` methods do.
    public func bind(_ value: SQLiteValue) throws(SQLiteError) {
        switch value {
        case .null: try bindNull()
        case .integer(let integer): try bind(integer)
        case .real(let real): try bind(real)
        case .text(let text): try bind(text)
        case .blob(let blob):
            let result = blob.withUnsafeBytes { bytes in Result { () throws(SQLiteError) in try bind(bytes: bytes) } }
            try result.get()
        }
    }

    /// Binds `value`, the way `value.bind(to:)` does.
    ///
    /// As in ``StoredValue``'s decoding, Swift 6.3 leaves a call to a protocol requirement with typed throws
    /// indirect across modules, so for the standard types this calls their `bind(to:)` directly; each type test
    /// folds away when the caller is specialized. Where it is not (the elements of a parameter pack stay opened
    /// types even in specialized code), the type is compared by metadata and the value reinterpreted, which is
    /// exact once the types are equal, instead of an `as?` cast through the runtime (about 90 instructions).
    @inlinable @inline(__always)
    func bindValue<Value: SQLiteValueConvertible>(_ value: Value) throws(SQLiteError) {
        if Value.self == Int.self { return try unsafeBitCast(value, to: Int.self).bind(to: self) }
        if Value.self == Int64.self { return try unsafeBitCast(value, to: Int64.self).bind(to: self) }
        if Value.self == Int32.self { return try unsafeBitCast(value, to: Int32.self).bind(to: self) }
        if Value.self == Double.self { return try unsafeBitCast(value, to: Double.self).bind(to: self) }
        if Value.self == String.self { return try unsafeBitCast(value, to: String.self).bind(to: self) }
        if Value.self == Bool.self { return try unsafeBitCast(value, to: Bool.self).bind(to: self) }
        if Value.self == Data.self { return try unsafeBitCast(value, to: Data.self).bind(to: self) }
        if Value.self == [UInt8].self { return try unsafeBitCast(value, to: [UInt8].self).bind(to: self) }
        // An optional's metadata comparison does not fold away even in specialized code (each costs a cached
        // metadata look-up), so the most common optional comes first.
        if Value.self == String?.self { return try bindOptional(unsafeBitCast(value, to: String?.self)) }
        if Value.self == Int?.self { return try bindOptional(unsafeBitCast(value, to: Int?.self)) }
        if Value.self == Int64?.self { return try bindOptional(unsafeBitCast(value, to: Int64?.self)) }
        if Value.self == Double?.self { return try bindOptional(unsafeBitCast(value, to: Double?.self)) }
        if Value.self == Bool?.self { return try bindOptional(unsafeBitCast(value, to: Bool?.self)) }
        if Value.self == Data?.self { return try bindOptional(unsafeBitCast(value, to: Data?.self)) }
        // Any other type binds through its own `bind(to:)`, which must bind something: a parameter it skipped
        // would keep the last run's binding, whose text or blob may point into reused arena memory.
        owner._withUnsafeGuaranteedRef { $0.lastBoundParameter = 0 }
        do {
            try value.bind(to: ParameterSlot(marking: self))
        } catch {
            // A type's own conversion (its `sqliteValue`, or a `bind(to:)` that throws before binding) knows
            // nothing of where it is bound: the error gets the parameter and SQL here, and the model's table and
            // column from the write that binds it.
            throw located(error)
        }
        guard owner._withUnsafeGuaranteedRef({ $0.lastBoundParameter }) == index else {
            throw boundNothing(Value.self)
        }
    }

    @usableFromInline func boundNothing<Value>(_ type: Value.Type) -> SQLiteError {
        var error = SQLiteError(
            .misuse,
            message: "\(Value.self).bind(to:) returned without binding a value to parameter \(parameterName); "
                + "it must bind one (bindNull() for NULL)")
        error.parameter = parameterName
        error.sql = owner.takeUnretainedValue().sql
        return error
    }

    /// `error`, naming this parameter and the statement's SQL where it names none.
    @usableFromInline func located(_ error: SQLiteError) -> SQLiteError {
        var error = error
        if error.parameter == nil { error.parameter = parameterName }
        if error.sql == nil { error.sql = owner.takeUnretainedValue().sql }
        return error
    }

    @inlinable @inline(__always)
    func bindOptional<Wrapped: SQLiteValueConvertible>(_ value: Wrapped?) throws(SQLiteError) {
        if let value { try bindValue(value) } else { try bindNull() }
    }

    @inlinable func check(_ code: Int32) throws(SQLiteError) {
        if code != SQLITE_OK { throw bindError(code) }
        // Every bind ends here: the mark tells a type's own bind(to:) that bound nothing from one that bound.
        if marksBinds { owner._withUnsafeGuaranteedRef { $0.lastBoundParameter = index } }
    }

    @usableFromInline func bindError(_ code: Int32) -> SQLiteError {
        var error = SQLiteError(code: code, statement: statement)
        if code == SQLITE_RANGE {
            error.kind = .parameterMismatch
            error.message =
                "the statement has \(sqlite3_bind_parameter_count(statement)) parameters, "
                + "so there is no parameter \(index)"
        }
        error.parameter = parameterName
        return error
    }

    @usableFromInline func failure(_ message: String) -> SQLiteError {
        var error = SQLiteError.conversion(message)
        error.parameter = parameterName
        error.sql = owner.takeUnretainedValue().sql
        return error
    }

    /// The parameter's name as written in the SQL (`:id`), or its position (`?2`) for anonymous parameters.
    public var parameterName: String {
        if let name = sqlite3_bind_parameter_name(statement, index) { return String(cString: name) }
        return "?\(index)"
    }
}
