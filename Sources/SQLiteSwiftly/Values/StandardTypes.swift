#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Conformances of the standard library's value types. Each reads and binds directly (no SQLiteValue in
// between) and is @inlinable, so that a model's decoder compiles down to the SQLite calls.

extension SQLiteValueConvertible where Self: FixedWidthInteger {
    /// Integers are declared `INTEGER`.
    @inlinable public static var declaredType: DeclaredType { .integer }

    /// Reads an INTEGER, refusing values outside the type's range.
    ///
    /// - Parameter stored: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for other storage classes or out-of-range values.
    @inlinable public init(stored: borrowing StoredValue) throws(SQLiteError) {
        let integer = try stored.int64()
        guard let value = Self(exactly: integer) else { throw .conversion("INTEGER out of range for \(Self.self)") }
        self = value
    }

    /// Converts an INTEGER, refusing values outside the type's range.
    ///
    /// - Parameter sqliteValue: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for other storage classes or out-of-range values.
    @inlinable public init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        guard case .integer(let stored) = sqliteValue else {
            throw .conversion("expected INTEGER, found \(sqliteValue.storageClass)")
        }
        guard let value = Self(exactly: stored) else { throw .conversion("INTEGER out of range for \(Self.self)") }
        self = value
    }

    /// The integer, refusing unsigned values above `Int64.max`.
    @inlinable public var sqliteValue: SQLiteValue {
        get throws(SQLiteError) {
            guard let stored = Int64(exactly: self) else {
                throw .conversion("\(Self.self) value above Int64.max cannot be stored")
            }
            return .integer(stored)
        }
    }

    /// Binds the integer, refusing unsigned values above `Int64.max`.
    ///
    /// - Parameter slot: The parameter to bind.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for values SQLite cannot hold.
    @inlinable public func bind(to slot: borrowing ParameterSlot) throws(SQLiteError) {
        guard let stored = Int64(exactly: self) else {
            throw slot.failure("\(Self.self) value above Int64.max cannot be stored")
        }
        try slot.bind(stored)
    }
}

extension Int: SQLiteValueConvertible {}
extension Int8: SQLiteValueConvertible {}
extension Int16: SQLiteValueConvertible {}
extension Int32: SQLiteValueConvertible {}
extension Int64: SQLiteValueConvertible {}
extension UInt: SQLiteValueConvertible {}
extension UInt8: SQLiteValueConvertible {}
extension UInt16: SQLiteValueConvertible {}
extension UInt32: SQLiteValueConvertible {}
extension UInt64: SQLiteValueConvertible {}

extension Bool: SQLiteValueConvertible {
    /// Booleans are declared `INTEGER` and stored as 0 or 1.
    public static var declaredType: DeclaredType { .integer }

    /// Reads INTEGER 0 or 1; any other value is refused rather than guessed.
    ///
    /// - Parameter stored: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for other values.
    @inlinable public init(stored: borrowing StoredValue) throws(SQLiteError) {
        try self.init(sqliteValue: .integer(try stored.int64()))
    }

    /// Converts INTEGER 0 or 1.
    ///
    /// - Parameter sqliteValue: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for other values.
    @inlinable public init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        switch sqliteValue {
        case .integer(0): self = false
        case .integer(1): self = true
        case .integer: throw .conversion("expected INTEGER 0 or 1 for Bool, found another integer")
        default: throw .conversion("expected INTEGER, found \(sqliteValue.storageClass)")
        }
    }

    /// 1 for `true`, 0 for `false`.
    @inlinable public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }

    /// Binds 1 or 0.
    ///
    /// - Parameter slot: The parameter to bind.
    /// - Throws: ``SQLiteError/Kind/parameterMismatch`` for a missing parameter.
    @inlinable public func bind(to slot: borrowing ParameterSlot) throws(SQLiteError) {
        try slot.bind(self ? 1 : 0 as Int64)
    }
}

extension Double: SQLiteValueConvertible {
    /// Doubles are declared `REAL`.
    public static var declaredType: DeclaredType { .real }

    /// Reads a REAL, or an INTEGER that a double holds exactly.
    ///
    /// - Parameter stored: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for TEXT, BLOB and NULL, and for an INTEGER a double would
    ///   round (above 2^53 in magnitude, unless it has enough trailing zero bits).
    @inlinable public init(stored: borrowing StoredValue) throws(SQLiteError) {
        self = try stored.double()
    }

    /// Converts a REAL, or an INTEGER that a double holds exactly.
    ///
    /// - Parameter sqliteValue: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for other storage classes, and for an INTEGER a double
    ///   would round.
    @inlinable public init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        switch sqliteValue {
        case .real(let value): self = value
        case .integer(let value): self = try Double(exactInteger: value)
        default: throw .conversion("expected REAL, found \(sqliteValue.storageClass)")
        }
    }

    /// The integer as a double, refusing one the double would round (reading it is never silently lossy).
    @inlinable init(exactInteger integer: Int64) throws(SQLiteError) {
        guard let exact = Double(exactly: integer) else {
            throw SQLiteError.conversion("the stored INTEGER \(integer) has no exact Double; read it as Int64")
        }
        self = exact
    }

    /// The double; NaN is refused.
    @inlinable public var sqliteValue: SQLiteValue {
        get throws(SQLiteError) {
            guard !isNaN else { throw .conversion("NaN cannot be stored: SQLite would turn it into NULL") }
            return .real(self)
        }
    }

    /// Binds the double; NaN is refused.
    ///
    /// - Parameter slot: The parameter to bind.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for NaN.
    @inlinable public func bind(to slot: borrowing ParameterSlot) throws(SQLiteError) {
        try slot.bind(self)
    }
}

extension Float: SQLiteValueConvertible {
    /// Floats are declared `REAL` and stored as doubles.
    public static var declaredType: DeclaredType { .real }

    /// Reads a REAL or INTEGER, rounded to the nearest float.
    ///
    /// - Parameter stored: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for TEXT, BLOB and NULL, for a finite value too large
    ///   for a float (it would read as infinity), a value too small (it would read as zero), and an INTEGER a
    ///   double would round.
    @inlinable public init(stored: borrowing StoredValue) throws(SQLiteError) {
        self = try Float(checking: stored.double())
    }

    /// Converts a REAL or INTEGER.
    ///
    /// - Parameter sqliteValue: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for other storage classes, and for a finite value too
    ///   large or too small (other than zero) for a float.
    @inlinable public init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        self = try Float(checking: Double(sqliteValue: sqliteValue))
    }

    /// Rounds a double to the nearest float, refusing a finite double that would become infinite and a nonzero
    /// one that would become zero.
    @inlinable init(checking double: Double) throws(SQLiteError) {
        let float = Float(double)
        guard float.isFinite || !double.isFinite, float != 0 || double == 0 else {
            throw SQLiteError.conversion("the stored REAL \(double) is out of range for Float")
        }
        self = float
    }

    /// The float as a double; NaN is refused.
    @inlinable public var sqliteValue: SQLiteValue {
        get throws(SQLiteError) { try Double(self).sqliteValue }
    }

    /// Binds the float as a double; NaN is refused.
    ///
    /// - Parameter slot: The parameter to bind.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for NaN.
    @inlinable public func bind(to slot: borrowing ParameterSlot) throws(SQLiteError) {
        try slot.bind(Double(self))
    }
}

extension String: SQLiteValueConvertible {
    /// Strings are declared `TEXT`.
    public static var declaredType: DeclaredType { .text }

    /// Reads TEXT that is valid UTF-8.
    ///
    /// - Parameter stored: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for other storage classes or invalid UTF-8.
    @inlinable public init(stored: borrowing StoredValue) throws(SQLiteError) {
        self = try stored.string()
    }

    /// Converts TEXT.
    ///
    /// - Parameter sqliteValue: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for other storage classes.
    @inlinable public init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        guard case .text(let value) = sqliteValue else {
            throw .conversion("expected TEXT, found \(sqliteValue.storageClass)")
        }
        self = value
    }

    /// The string as TEXT.
    @inlinable public var sqliteValue: SQLiteValue { .text(self) }

    /// Binds the string with its exact UTF-8 length.
    ///
    /// - Parameter slot: The parameter to bind.
    /// - Throws: ``SQLiteError`` with code ``ResultCode/tooBig`` past SQLite's limit.
    @inlinable public func bind(to slot: borrowing ParameterSlot) throws(SQLiteError) {
        try slot.bind(self)
    }
}

extension Array: SQLiteValueConvertible where Element == UInt8 {
    /// Byte arrays are declared `BLOB`.
    public static var declaredType: DeclaredType { .blob }

    /// Reads a BLOB (or the bytes of TEXT); an empty blob gives an empty array.
    ///
    /// - Parameter stored: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for INTEGER, REAL and NULL.
    @inlinable public init(stored: borrowing StoredValue) throws(SQLiteError) {
        self = try stored.bytes()
    }

    /// Converts a BLOB or TEXT.
    ///
    /// - Parameter sqliteValue: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for other storage classes.
    @inlinable public init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        switch sqliteValue {
        case .blob(let bytes): self = bytes
        case .text(let text): self = Array(text.utf8)
        default: throw .conversion("expected BLOB, found \(sqliteValue.storageClass)")
        }
    }

    /// The bytes as a BLOB.
    @inlinable public var sqliteValue: SQLiteValue { .blob(self) }

    /// Binds the bytes as a blob; an empty array binds an empty blob, not NULL.
    ///
    /// - Parameter slot: The parameter to bind.
    /// - Throws: ``SQLiteError`` with code ``ResultCode/tooBig`` past SQLite's limit.
    @inlinable public func bind(to slot: borrowing ParameterSlot) throws(SQLiteError) {
        // withUnsafeBufferPointer passes a typed error through; withUnsafeBytes would need a Result around it.
        try withUnsafeBufferPointer { (bytes) throws(SQLiteError) in
            try slot.bind(bytes: UnsafeRawBufferPointer(bytes))
        }
    }
}

extension Data: SQLiteValueConvertible {
    /// Data is declared `BLOB`.
    public static var declaredType: DeclaredType { .blob }

    /// Reads a BLOB (or the bytes of TEXT); an empty blob gives empty data.
    ///
    /// - Parameter stored: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for INTEGER, REAL and NULL.
    @inlinable public init(stored: borrowing StoredValue) throws(SQLiteError) {
        self = try stored.data()
    }

    /// Converts a BLOB or TEXT.
    ///
    /// - Parameter sqliteValue: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for other storage classes.
    @inlinable public init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        self = Data(try [UInt8](sqliteValue: sqliteValue))
    }

    /// The bytes as a BLOB.
    @inlinable public var sqliteValue: SQLiteValue { .blob([UInt8](self)) }

    /// Binds the bytes as a blob; empty data binds an empty blob, not NULL.
    ///
    /// - Parameter slot: The parameter to bind.
    /// - Throws: ``SQLiteError`` with code ``ResultCode/tooBig`` past SQLite's limit.
    @inlinable public func bind(to slot: borrowing ParameterSlot) throws(SQLiteError) {
        let result = withUnsafeBytes { bytes in Result { () throws(SQLiteError) in try slot.bind(bytes: bytes) } }
        try result.get()
    }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
    /// The wrapped type's declared type.
    @inlinable public static var declaredType: DeclaredType { Wrapped.declaredType }

    /// Optionals accept NULL.
    @inlinable public static var isNullable: Bool { true }

    /// Reads NULL as `nil`, anything else as the wrapped type.
    ///
    /// - Parameter stored: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when a non-NULL value cannot represent `Wrapped`.
    @inlinable public init(stored: borrowing StoredValue) throws(SQLiteError) {
        self = stored.isNull ? nil : try Wrapped(stored: stored)
    }

    /// Converts NULL to `nil`, anything else to the wrapped type.
    ///
    /// - Parameter sqliteValue: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when a non-NULL value cannot represent `Wrapped`.
    @inlinable public init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        self = sqliteValue == .null ? nil : try Wrapped(sqliteValue: sqliteValue)
    }

    /// NULL for `nil`, the wrapped value otherwise.
    ///
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for a wrapped value that is itself NULL (a double
    ///   optional such as `Int??` holding `.some(nil)`): SQL has one NULL, which reads back as `nil`.
    @inlinable public var sqliteValue: SQLiteValue {
        get throws(SQLiteError) {
            guard let self else { return .null }
            let value = try self.sqliteValue
            if Wrapped.isNullable && value == .null { throw .conversion(Self.nestedNullProblem) }
            return value
        }
    }

    /// Binds NULL for `nil`, the wrapped value otherwise.
    ///
    /// - Parameter slot: The parameter to bind.
    /// - Throws: As the wrapped type's ``SQLiteValueConvertible/bind(to:)``; for a wrapped value that is itself
    ///   NULL (`Int??` holding `.some(nil)`), ``SQLiteError/Kind/conversionFailed``: it would read back as `nil`.
    @inlinable public func bind(to slot: borrowing ParameterSlot) throws(SQLiteError) {
        guard let self else { return try slot.bindNull() }
        // Known at compile time for a concrete `Wrapped`: only nested optionals (and `SQLiteValue?`) check.
        if Wrapped.isNullable, try self.sqliteValue == .null { throw slot.failure(Self.nestedNullProblem) }
        try self.bind(to: slot)
    }

    /// Why a wrapped NULL is refused.
    @usableFromInline static var nestedNullProblem: String {
        "\(Self.self) holding a wrapped NULL (such as .some(nil)) cannot be stored: SQL has one NULL, which reads "
            + "back as nil; use a single optional"
    }
}

extension SQLiteValue: SQLiteValueConvertible {
    /// No declared type: the column stores every value as given, so any value reads back as it was written.
    public static var declaredType: DeclaredType { .any }

    /// ``SQLiteValue/null`` is a value like any other.
    public static var isNullable: Bool { true }

    /// Reads the stored value as it is; TEXT must be valid UTF-8.
    ///
    /// - Parameter stored: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for TEXT that is not valid UTF-8.
    @inlinable public init(stored: borrowing StoredValue) throws(SQLiteError) {
        self = try stored.sqliteValue()
    }

    /// The value itself.
    ///
    /// - Parameter sqliteValue: The stored value.
    public init(sqliteValue: SQLiteValue) {
        self = sqliteValue
    }

    /// The value itself.
    public var sqliteValue: SQLiteValue { self }

    /// Binds the value as it is.
    ///
    /// - Parameter slot: The parameter to bind.
    /// - Throws: ``SQLiteError`` for NaN, and as the typed `bind` methods of ``ParameterSlot`` do.
    public func bind(to slot: borrowing ParameterSlot) throws(SQLiteError) {
        try slot.bind(self)
    }
}
