/// A Swift type that can be stored in an SQLite column and read back.
///
/// The library conforms the standard value types (<doc:TableModels> has the full type table), and any enum
/// whose raw value is one of them. To store a type of your own, conform it by converting through ``SQLiteValue``:
///
/// ```swift
/// struct Celsius: SQLiteValueConvertible {
///     var degrees: Double
///     static let declaredType = DeclaredType.real
///     init(sqliteValue: SQLiteValue) throws(SQLiteError) {
///         guard case .real(let value) = sqliteValue else { throw .conversion("expected REAL") }
///         degrees = value
///     }
///     var sqliteValue: SQLiteValue { .real(degrees) }
/// }
/// ```
///
/// The two fast-path requirements, ``init(stored:)`` and ``bind(to:)``, have default implementations that go
/// through ``SQLiteValue``; the built-in types implement them directly to read and bind without copies.
public protocol SQLiteValueConvertible {
    /// The declared type of a column holding this type, used by `CREATE TABLE`.
    static var declaredType: DeclaredType { get }
    /// Whether NULL is a valid value: `true` only for `Optional` and ``SQLiteValue``.
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
    /// Creates a value by reading a stored value in place.
    ///
    /// - Parameter stored: The stored value, borrowed for the duration of the call.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when the stored value cannot represent `Self`.
    init(stored: borrowing StoredValue) throws(SQLiteError)
    /// Binds the value to a statement parameter.
    ///
    /// An implementation must bind a value through `slot` before it returns (``ParameterSlot/bindNull()`` for
    /// NULL): one that returns without binding is refused with ``SQLiteError/Kind/misuse``, since the parameter
    /// would otherwise keep the previous run's value.
    ///
    /// - Parameter slot: The parameter to bind, borrowed for the duration of the call.
    /// - Throws: ``SQLiteError`` when the value cannot be stored or bound.
    func bind(to slot: borrowing ParameterSlot) throws(SQLiteError)
}

extension SQLiteValueConvertible {
    /// Non-optional types reject NULL.
    @inlinable public static var isNullable: Bool { false }

    /// Reads the value through ``SQLiteValue``, rejecting NULL for non-optional types.
    ///
    /// - Parameter stored: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for NULL or an unconvertible value.
    @inlinable public init(stored: borrowing StoredValue) throws(SQLiteError) {
        let value = try stored.sqliteValue()
        if value == .null && !Self.isNullable {
            throw .conversion("expected \(Self.declaredType.affinity), found NULL")
        }
        try self.init(sqliteValue: value)
    }

    /// Binds ``sqliteValue``.
    ///
    /// - Parameter slot: The parameter to bind.
    /// - Throws: ``SQLiteError`` when the value cannot be stored or bound.
    @inlinable public func bind(to slot: borrowing ParameterSlot) throws(SQLiteError) {
        try slot.bind(try sqliteValue)
    }
}

// Enums (and other `RawRepresentable` types) whose raw value is storable get a complete conformance for free:
//
//     enum Status: String, SQLiteValueConvertible { case active, archived }
//
// The raw value is stored (here as TEXT); reading a raw value that matches no case throws instead of guessing.
extension SQLiteValueConvertible where Self: RawRepresentable, Self.RawValue: SQLiteValueConvertible {
    /// The raw value's declared type.
    @inlinable public static var declaredType: DeclaredType { RawValue.declaredType }

    /// Reads the raw value and finds the matching case.
    ///
    /// - Parameter stored: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when the raw value does not convert or matches no case.
    @inlinable public init(stored: borrowing StoredValue) throws(SQLiteError) {
        try self.init(validRawValue: try stored.decode(RawValue.self))
    }

    /// Converts the raw value and finds the matching case.
    ///
    /// - Parameter sqliteValue: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when the raw value does not convert or matches no case.
    @inlinable public init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        try self.init(validRawValue: try RawValue(sqliteValue: sqliteValue))
    }

    @inlinable init(validRawValue raw: RawValue) throws(SQLiteError) {
        guard let value = Self(rawValue: raw) else {
            throw .conversion("the stored raw value matches no value of \(Self.self)")
        }
        self = value
    }

    /// The raw value.
    @inlinable public var sqliteValue: SQLiteValue {
        get throws(SQLiteError) { try rawValue.sqliteValue }
    }

    /// Binds the raw value.
    ///
    /// - Parameter slot: The parameter to bind.
    /// - Throws: As the raw value's ``SQLiteValueConvertible/bind(to:)``.
    @inlinable public func bind(to slot: borrowing ParameterSlot) throws(SQLiteError) {
        try slot.bindValue(rawValue)
    }
}
