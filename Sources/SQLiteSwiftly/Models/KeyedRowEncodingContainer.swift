/// The keyed container of a model being encoded: each key binds the parameter of the column of that name.
struct KeyedRowEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let state: RowEncodingState
    var codingPath: [any CodingKey] { [] }

    @inline(__always) private func bind<V: SQLiteValueConvertible>(_ value: V, _ key: Key) throws {
        try state.bind(value, column: state.index(of: key))
    }

    mutating func encodeNil(forKey key: Key) throws {
        try state.bind(value: .null, column: state.index(of: key))
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws { try bind(value, key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try bind(value, key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try bind(value, key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try bind(value, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try bind(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try bind(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try bind(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try bind(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try bind(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try bind(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try bind(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try bind(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try bind(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try bind(value, key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try state.encode(value, column: state.index(of: key))
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try bind(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try bind(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try bind(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try bind(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try bind(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try bind(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try bind(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try bind(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try bind(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try bind(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try bind(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try bind(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try bind(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try bind(value, key) }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        let column = try state.index(of: key)
        if let value { try state.encode(value, column: column) } else { try state.bind(value: .null, column: column) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(RefusingContainer<NestedKey>(error: Self.nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        RefusingContainer<AnyCodingKey>(error: Self.nested)
    }

    mutating func superEncoder() -> any Encoder {
        RefusingContainer<AnyCodingKey>(error: Self.nested)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        RefusingContainer<AnyCodingKey>(error: Self.nested)
    }

    static var nested: SQLiteError {
        SQLiteError(.misuse, message: "nested containers and class inheritance are not supported by CodableTableModel")
    }
}
