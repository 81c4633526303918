/// The `Decoder` for one column's value that is not ``SQLiteValueConvertible``, such as a `String`-backed
/// enum that only conforms to `Codable`: it offers a single-value container over the column.
///
/// Asking it for a keyed or unkeyed container throws ``NeedsJSON``, and the caller reads the column as JSON.
struct ColumnDecoder: Decoder, SingleValueDecodingContainer {
    let state: RowDecodingState
    let index: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw NeedsJSON()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw NeedsJSON()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    func decodeNil() -> Bool { state.row.isNull(at: index) }

    @inline(__always) private func value<V: SQLiteValueConvertible>() throws -> V {
        try state.row.value(at: index)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try value() }
    func decode(_ type: String.Type) throws -> String { try value() }
    func decode(_ type: Double.Type) throws -> Double { try value() }
    func decode(_ type: Float.Type) throws -> Float { try value() }
    func decode(_ type: Int.Type) throws -> Int { try value() }
    func decode(_ type: Int8.Type) throws -> Int8 { try value() }
    func decode(_ type: Int16.Type) throws -> Int16 { try value() }
    func decode(_ type: Int32.Type) throws -> Int32 { try value() }
    func decode(_ type: Int64.Type) throws -> Int64 { try value() }
    func decode(_ type: UInt.Type) throws -> UInt { try value() }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try value() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try value() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try value() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try value() }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try state.decode(type, at: index)
    }
}
