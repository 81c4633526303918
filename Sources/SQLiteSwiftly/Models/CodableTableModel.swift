#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A `Codable` struct used as a table model: ``RowDecodable/init(row:)`` and ``TableModel/encode(to:)`` come
/// from its `Decodable` and `Encodable` conformances.
///
/// Declare the table name and the columns; the synthesized `Codable` code does the rest:
///
/// ```swift
/// struct Moon: CodableTableModel {
///     var id: Int64?
///     var name: String
///     var discovered: Date?
///     var tags: [String]            // not a column type: stored as JSON text
///
///     static let tableName = "moons"
///     static let columns = [
///         Column("id", Int64?.self, primaryKey: true),
///         Column("name", String.self),
///         Column("discovered", Date?.self),
///         Column("tags", .text),
///     ]
/// }
/// ```
///
/// Each coding key is matched with the column of the same name (exactly, else ignoring ASCII case); rename
/// with `CodingKeys` as usual. Declare ``TableModel/columns`` with `static let`: it is read once per row.
///
/// - Values of ``SQLiteValueConvertible`` types are read and bound directly, as in a hand-written model
///   (`Date` as TEXT, `UUID` as a BLOB, `Data` as a BLOB, not as `Codable` would encode them).
/// - Other values that encode as a single value (an enum with a `String` raw value that does not conform to
///   ``SQLiteValueConvertible``) are stored as that value.
/// - Values that encode as several values (arrays, dictionaries, nested structs) are stored as JSON TEXT
///   (sorted keys), and read back from JSON.
/// - A column that the model does not encode (a `nil` optional, which synthesized code skips) is bound to
///   NULL; a missing non-nullable column is an error.
///
/// Speed: the column of each key is found by expecting keys in column order (one string comparison per
/// value) and searching only when that guess fails, so rows decode without hashing or per-row tables.
public protocol CodableTableModel: TableModel, Codable {}

extension CodableTableModel {
    /// Decodes the model from the current row through its `Decodable` conformance.
    ///
    /// - Parameter row: The current result row, whose columns are the model's ``TableModel/columns``.
    /// - Throws: ``SQLiteError`` naming the column and row when a value does not convert; errors thrown by a
    ///   custom `init(from:)`.
    public init(row: borrowing Row) throws {
        let state = RowDecodingState(raw: row.raw, number: row.number, columns: Self.columns)
        defer { state.isValid = false }
        try self.init(from: ModelDecoder(state: state))
    }

    /// Binds the model's values through its `Encodable` conformance, each to its column's parameter.
    ///
    /// - Parameter encoder: The encoder of the statement being run.
    /// - Throws: ``SQLiteError`` when a value cannot be stored, when the model encodes a key that is not a
    ///   column, or leaves a non-nullable column unencoded; errors thrown by a custom `encode(to:)`.
    public func encode(to encoder: inout RowEncoder) throws {
        try encoder.encodeByName(self, columns: Self.columns)
    }
}

// MARK: - Decoding

/// The per-row state of a ``CodableTableModel`` decoding: the statement's row and the key-to-column lookup.
///
/// A `Decoder` is a reference a model's `init(from:)` could keep; the state is therefore marked invalid once
/// `init(from:)` returns, and a decoder used later throws instead of reading whatever row the statement is on.
final class RowDecodingState {
    let raw: RawStatement
    let number: Int
    @exclusivity(unchecked) var lookup: CodingKeyLookup
    @exclusivity(unchecked) var isValid = true

    init(raw: RawStatement, number: Int, columns: [Column]) {
        self.raw = raw
        self.number = number
        lookup = CodingKeyLookup(columns: columns)
    }

    /// Reads column `index` of the current row.
    @inline(__always) func value<V: SQLiteValueConvertible>(at index: Int) throws -> V {
        try checkValid()
        return try Row(raw: raw, number: number).value(at: index)
    }

    /// Whether column `index` holds NULL.
    func isNull(at index: Int) throws -> Bool {
        try checkValid()
        return try Row(raw: raw, number: number).isNull(at: index)
    }

    @inline(__always) func checkValid() throws {
        guard isValid else {
            throw SQLiteError(
                .misuse, message: "a Decoder was used after the init(from:) it was given returned; the row is gone",
                sql: raw.sql)
        }
    }

    func index(of key: some CodingKey) throws -> Int {
        guard let index = lookup.index(of: key) else {
            var error = SQLiteError(
                .modelMismatch, message: "the model decodes key \"\(key.stringValue)\", which is not one of its columns"
            )
            error.column = key.stringValue
            error.row = number
            throw error.with(sql: raw.sql, table: raw.table)
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
            let bytes: [UInt8] = try value(at: index)
            do {
                return try JSONDecoder().decode(T.self, from: Data(bytes))
            } catch {
                var failure = SQLiteError.conversion("stored JSON does not decode as \(T.self): \(error)")
                failure.column = lookup.columns[index].name
                failure.row = number
                throw failure.with(sql: raw.sql, table: raw.table)
            }
        }
    }

    private func read<V: SQLiteValueConvertible, T>(_ type: V.Type, at index: Int, as: T.Type) throws -> T {
        let value: V = try self.value(at: index)
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
        return try state.isNull(at: index)
    }

    @inline(__always) private func value<V: SQLiteValueConvertible>(_ key: Key) throws -> V {
        try state.value(at: state.index(of: key))
    }

    @inline(__always) private func optional<V: SQLiteValueConvertible>(_ key: Key) throws -> V? {
        guard let index = state.lookup.index(of: key) else { return nil }
        return try state.value(at: index)
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
        guard let index = state.lookup.index(of: key), try !state.isNull(at: index) else { return nil }
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

    func decodeNil() -> Bool { (try? state.isNull(at: index)) ?? true }

    @inline(__always) private func value<V: SQLiteValueConvertible>() throws -> V {
        try state.value(at: index)
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

/// Finds the column of a coding key for ``CodableTableModel``, expecting keys in column order.
///
/// Synthesized `Codable` code visits the properties in declaration order, which is usually the column order:
/// the lookup first checks the column after the last one found (one comparison of two short strings), and
/// only searches all columns, exactly and then ignoring ASCII case, when that guess fails.
struct CodingKeyLookup {
    let columns: [Column]
    /// The column expected for the next key.
    var next = 0

    init(columns: [Column]) {
        self.columns = columns
    }

    /// The index of the column named like `key`, or `nil`.
    mutating func index(of key: some CodingKey) -> Int? {
        let name = key.stringValue
        if next < columns.count && columns[next].name == name {
            next += 1
            return next - 1
        }
        guard let found = search(name) else { return nil }
        next = found + 1
        return found
    }

    /// The index of the column named like `key`, without moving the guess.
    func peek(_ key: some CodingKey) -> Int? {
        let name = key.stringValue
        if next < columns.count && columns[next].name == name { return next }
        return search(name)
    }

    private func search(_ name: String) -> Int? {
        if let exact = columns.firstIndex(where: { $0.name == name }) { return exact }
        let lowered = name.sqlIdentifierKey
        return columns.firstIndex { $0.name.sqlIdentifierKey == lowered }
    }
}

/// Thrown inside the library when a value needs keyed or unkeyed containers, so is stored as JSON.
struct NeedsJSON: Error {}
