/// Enums (and other `RawRepresentable` types) whose raw value is storable get a complete conformance for free.
///
/// ```swift
/// enum Status: String, SQLiteValueConvertible {
///     case active, archived
/// }
/// ```
///
/// The raw value is stored (here as TEXT); reading a raw value that matches no case throws
/// ``SQLiteError/Kind/conversionFailed`` instead of guessing.
extension SQLiteValueConvertible where Self: RawRepresentable, Self.RawValue: SQLiteValueConvertible {
    /// The raw value's column type.
    @inlinable public static var columnType: ColumnType { RawValue.columnType }

    /// Reads the raw value and finds the matching case.
    ///
    /// - Parameter column: The column of the current row.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when the raw value does not convert or matches no case.
    @inlinable public init(column: ColumnValue) throws(SQLiteError) {
        try self.init(validRawValue: try RawValue(column: column))
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
    @inlinable public func bind(to slot: ParameterSlot) throws(SQLiteError) {
        try rawValue.bind(to: slot)
    }
}
