/// The per-row state of a ``CodableTableModel`` encoding: where each column binds, and which were bound.
final class RowEncodingState {
    let statement: OpaquePointer
    let parameterMap: [Int32]?
    @exclusivity(unchecked) var lookup: CodingKeyLookup
    let model: Any.Type
    @exclusivity(unchecked) private var encodedLow: UInt64 = 0
    private var encodedHigh: Set<Int> = []

    var columns: [Column] { lookup.columns }

    init(encoder: RowEncoder, columns: [Column], model: Any.Type) {
        statement = encoder.statement
        parameterMap = encoder.parameterMap
        lookup = CodingKeyLookup(columns: columns)
        self.model = model
    }

    func index(of key: some CodingKey) throws -> Int {
        guard let index = lookup.index(of: key) else {
            var error = SQLiteError(
                .modelMismatch, message: "\(model) encodes key \"\(key.stringValue)\", which is not one of its columns")
            error.column = key.stringValue
            throw error
        }
        return index
    }

    /// The 1-based parameter of a column, 0 when the statement does not use it.
    private func parameter(of column: Int) -> Int32 {
        guard let parameterMap else { return Int32(truncatingIfNeeded: column + 1) }
        return column < parameterMap.count ? parameterMap[column] : 0
    }

    private func isEncoded(_ column: Int) -> Bool {
        column < 64 ? encodedLow & (1 << UInt64(column)) != 0 : encodedHigh.contains(column)
    }

    /// Records the column as encoded and returns its parameter, or `nil` when the statement does not use it.
    @inline(__always) private func slot(for column: Int) -> ParameterSlot? {
        if column < 64 { encodedLow |= 1 << UInt64(column) } else { encodedHigh.insert(column) }
        let index = parameter(of: column)
        return index == 0 ? nil : ParameterSlot(statement: statement, index: index)
    }

    @inline(__always) func bind<V: SQLiteValueConvertible>(_ value: V, column: Int) throws(SQLiteError) {
        if let slot = slot(for: column) { try value.bind(to: slot) }
    }

    func bind(value: SQLiteValue, column: Int) throws(SQLiteError) {
        if let slot = slot(for: column) { try slot.bind(value) }
    }

    /// Binds any `Encodable`: directly for storable types, else as a single value or JSON text.
    func encode<T: Encodable>(_ value: T, column: Int) throws {
        if let convertible = T.self as? any SQLiteValueConvertible.Type {
            try bind(convertible, value, column: column)
            return
        }
        let probe = ColumnEncoder()
        do {
            try value.encode(to: probe)
        } catch is NeedsJSON {
            probe.needsJSON = true
        }
        if probe.needsJSON {
            try bind(try JSONText.encode(value, column: columns[column].name), column: column)
        } else {
            try bind(value: probe.value ?? .null, column: column)
        }
    }

    private func bind<V: SQLiteValueConvertible, T>(_ type: V.Type, _ value: T, column: Int) throws {
        guard let typed = value as? V else { throw SQLiteError(.misuse, message: "\(T.self) is not \(V.self)") }
        try bind(typed, column: column)
    }

    /// Binds NULL to the nullable columns the model skipped (a `nil` optional); fails for the others.
    func finish() throws(SQLiteError) {
        for (column, definition) in columns.enumerated() where !isEncoded(column) {
            let index = parameter(of: column)
            guard index != 0 else { continue }
            guard definition.isNullable else {
                var error = SQLiteError(
                    .parameterMismatch,
                    message: "\(model) encoded no value for non-nullable column \"\(definition.name)\"")
                error.column = definition.name
                throw error
            }
            try ParameterSlot(statement: statement, index: index).bindNull()
        }
    }
}

/// The `Encoder` handed to a ``CodableTableModel``'s `encode(to:)`: one keyed container over the columns.
struct ModelEncoder: Encoder {
    let state: RowEncodingState
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedRowEncodingContainer<Key>(state: state))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        RefusingContainer<AnyCodingKey>(error: Self.keyedOnly)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        RefusingContainer<AnyCodingKey>(error: Self.keyedOnly)
    }

    static let keyedOnly = SQLiteError(.misuse, message: "a CodableTableModel must encode with a keyed container")
}
