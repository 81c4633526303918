#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The per-row state of a ``CodableTableModel`` decoding: the row and the key-to-column lookup.
final class RowDecodingState {
    let row: Row
    @exclusivity(unchecked) var lookup: CodingKeyLookup

    init(row: Row, columns: [Column]) {
        self.row = row
        lookup = CodingKeyLookup(columns: columns)
    }

    func index(of key: some CodingKey) throws -> Int {
        guard let index = lookup.index(of: key) else {
            var error = SQLiteError(
                .modelMismatch, message: "the model decodes key \"\(key.stringValue)\", which is not one of its columns"
            )
            error.column = key.stringValue
            error.row = row.number
            throw error
        }
        return index
    }

    /// Reads any `Decodable` at a column: directly for storable types, else as a single value or JSON.
    func decode<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
        if let convertible = T.self as? any SQLiteValueConvertible.Type {
            return try read(convertible, at: index, as: type)
        }
        do {
            return try T(from: ColumnDecoder(state: self, index: index))
        } catch is NeedsJSON {
            let bytes: [UInt8] = try row.value(at: index)
            do {
                return try JSONDecoder().decode(T.self, from: Data(bytes))
            } catch {
                var failure = SQLiteError.conversion("stored JSON does not decode as \(T.self): \(error)")
                failure.column = row.columnName(at: index)
                failure.row = row.number
                throw failure
            }
        }
    }

    private func read<V: SQLiteValueConvertible, T>(_ type: V.Type, at index: Int, as: T.Type) throws -> T {
        let value: V = try row.value(at: index)
        guard let typed = value as? T else { throw SQLiteError(.misuse, message: "\(V.self) is not \(T.self)") }
        return typed
    }
}

/// The `Decoder` handed to a ``CodableTableModel``'s `init(from:)`: one keyed container over the row.
struct ModelDecoder: Decoder {
    let state: RowDecodingState
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedRowDecodingContainer<Key>(state: state))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw SQLiteError(.misuse, message: "a CodableTableModel must decode with a keyed container")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw SQLiteError(.misuse, message: "a CodableTableModel must decode with a keyed container")
    }
}

/// The keyed container of a row: each key reads the column of the same name.
struct KeyedRowDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let state: RowDecodingState
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { state.lookup.columns.compactMap { Key(stringValue: $0.name) } }

    func contains(_ key: Key) -> Bool { state.lookup.peek(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let index = state.lookup.peek(key) else { return true }
        return state.row.isNull(at: index)
    }

    @inline(__always) private func value<V: SQLiteValueConvertible>(_ key: Key) throws -> V {
        try state.row.value(at: state.index(of: key))
    }

    @inline(__always) private func optional<V: SQLiteValueConvertible>(_ key: Key) throws -> V? {
        guard let index = state.lookup.index(of: key) else { return nil }
        return try state.row.value(at: index)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try state.decode(type, at: state.index(of: key))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optional(key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optional(key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optional(key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optional(key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optional(key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optional(key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optional(key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optional(key) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = state.lookup.index(of: key), !state.row.isNull(at: index) else { return nil }
        return try state.decode(type, at: index)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw SQLiteError(.misuse, message: "nested containers are not supported: store the value as a property")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw SQLiteError(.misuse, message: "nested containers are not supported: store the value as a property")
    }

    func superDecoder() throws -> any Decoder {
        throw SQLiteError(.misuse, message: "class inheritance is not supported by CodableTableModel")
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw SQLiteError(.misuse, message: "class inheritance is not supported by CodableTableModel")
    }
}
