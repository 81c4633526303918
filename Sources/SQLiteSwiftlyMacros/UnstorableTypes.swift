// Overloads that exist only to be refused. `@Table` checks property types it can see (`[String]`, a tuple...) and
// reports them itself; a type it cannot see through (a typealias, a type from another module) reaches the code the
// macro generates. Without these overloads the compiler would then report a generic mismatch such as "requires the
// types 'String' and 'UInt8' be equivalent". With them, a type that does not conform to `SQLiteValueConvertible`
// picks the unconstrained overload below, and the compiler reports its message instead. A type that conforms always
// picks the library's own, constrained overload, so these never run. They are visible only where
// `SQLiteSwiftlyMacros` is imported.

/// The message of each refused overload.
private let unstorableMessage = """
    @Table cannot store this property's type in a column: conform the type to SQLiteValueConvertible, \
    or store the property as JSON text with @TableColumn(storage: .json)
    """

extension Column {
    /// Refuses, at compile time, a property type that does not conform to ``SQLiteSwiftly/SQLiteValueConvertible``.
    ///
    /// - Parameters:
    ///   - name: The column name.
    ///   - swiftType: The property's type, which cannot be stored.
    ///   - primaryKey: Whether the column is (part of) the primary key.
    ///   - autoIncrement: Whether a single INTEGER primary key uses `AUTOINCREMENT`.
    ///   - unique: Whether the column is `UNIQUE`.
    ///   - default: The `DEFAULT` value.
    ///   - references: A foreign-key reference.
    ///   - collation: The name of the collation for the column's text.
    @available(
        *, unavailable,
        message: """
            @Table cannot store this property's type in a column: conform the type to SQLiteValueConvertible, \
            or store the property as JSON text with @TableColumn(storage: .json)
            """
    )
    public init<Value>(
        _ name: String, _ swiftType: Value.Type, primaryKey: Bool = false, autoIncrement: Bool = false,
        unique: Bool = false, default: SQLiteValue? = nil, references: ForeignKey? = nil, collation: String? = nil
    ) {
        self.init(name, .any)
    }
}

extension Row {
    /// Refuses, at compile time, reading a type that does not conform to
    /// ``SQLiteSwiftly/SQLiteValueConvertible``.
    ///
    /// - Parameter index: The column index.
    /// - Returns: Nothing: the overload cannot be called.
    /// - Throws: ``SQLiteSwiftly/SQLiteError``, were it ever called.
    @available(
        *, unavailable,
        message: """
            @Table cannot store this property's type in a column: conform the type to SQLiteValueConvertible, \
            or store the property as JSON text with @TableColumn(storage: .json)
            """
    )
    public subscript<Value>(_ index: Int) -> Value {
        get throws(SQLiteError) { throw SQLiteError(.misuse, message: unstorableMessage) }
    }
}

extension RowEncoder {
    /// Refuses, at compile time, encoding a type that does not conform to
    /// ``SQLiteSwiftly/SQLiteValueConvertible``.
    ///
    /// - Parameter value: The value, which cannot be stored.
    /// - Throws: ``SQLiteSwiftly/SQLiteError``, were it ever called.
    @available(
        *, unavailable,
        message: """
            @Table cannot store this property's type in a column: conform the type to SQLiteValueConvertible, \
            or store the property as JSON text with @TableColumn(storage: .json)
            """
    )
    public mutating func encode<Value>(_ value: Value) throws(SQLiteError) {
        throw SQLiteError(.misuse, message: unstorableMessage)
    }
}
