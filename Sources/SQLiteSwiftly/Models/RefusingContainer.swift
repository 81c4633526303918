/// An encoder and container that throws a fixed error at the first value, for shapes a row cannot hold.
///
/// `Encoder`'s container methods cannot throw, so the error comes when the first value is encoded.
struct RefusingContainer<Key: CodingKey>: Encoder, KeyedEncodingContainerProtocol, UnkeyedEncodingContainer,
    SingleValueEncodingContainer
{
    let error: any Error
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var count: Int { 0 }

    func container<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(RefusingContainer<NestedKey>(error: error))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { self }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    mutating func encodeNil(forKey key: Key) throws { throw error }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw error }
    mutating func encodeNil() throws { throw error }
    mutating func encode<T: Encodable>(_ value: T) throws { throw error }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        container(keyedBy: keyType)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { self }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { self }
    mutating func superEncoder(forKey key: Key) -> any Encoder { self }
}

/// A coding key built from a string or an integer.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
