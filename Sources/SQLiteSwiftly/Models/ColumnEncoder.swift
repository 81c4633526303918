#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Captures the single value an `Encodable` that is not ``SQLiteValueConvertible`` encodes, such as a
/// `String`-backed enum that only conforms to `Codable`.
///
/// A value that asks for a keyed or unkeyed container sets ``needsJSON`` (its containers throw ``NeedsJSON``),
/// and the caller stores it as JSON text instead.
final class ColumnEncoder: Encoder, SingleValueEncodingContainer {
    var value: SQLiteValue?
    var needsJSON = false
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        needsJSON = true
        return KeyedEncodingContainer(RefusingContainer<Key>(error: NeedsJSON()))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        needsJSON = true
        return RefusingContainer<AnyCodingKey>(error: NeedsJSON())
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { value = .null }

    func encode<T: Encodable>(_ value: T) throws {
        if let convertible = value as? any SQLiteValueConvertible {
            self.value = try convertible.sqliteValue
        } else {
            try value.encode(to: self)
        }
    }
}

/// JSON text for values stored as JSON (arrays, dictionaries, nested structs).
enum JSONText {
    static func encode<T: Encodable>(_ value: T, column: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            var failure = SQLiteError.conversion("\(T.self) does not encode as JSON: \(error)")
            failure.column = column
            throw failure
        }
    }
}
