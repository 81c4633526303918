#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension RowEncoder {
    /// Binds a `Codable` model's values through its `Encodable` conformance, each to its column's parameter by
    /// coding key, then binds NULL to the nullable columns it skipped (a `nil` optional). Counts every column as
    /// encoded once all are bound.
    mutating func encodeByName<Model: TableModel & Encodable>(_ model: Model) throws {
        let state = RowEncodingState.begin(Model.self, raw: raw)
        defer { state.end() }
        do {
            try model.encode(to: ModelEncoder(state: state))
            try state.finish()
        } catch {
            state.lookup.forgetUnfinishedPlan()
            throw error
        }
        encodedCount = state.columns.count
    }
}

/// The state of ``CodableTableModel`` encodings on one statement: where each column binds, which were bound,
/// the key-to-column lookup and its plan, and the keyed container handed to `encode(to:)`.
///
/// Like ``RowDecodingState``, the statement keeps it from row to row (``RawStatement/encodingState``), so that
/// a row allocates nothing, and an encoding that starts while another one on
/// the same statement runs gets a state of its own.
///
/// An `Encoder` is a reference a model's `encode(to:)` could keep; the state is therefore marked invalid once
/// `encode(to:)` returns, and an encoder used later throws instead of binding to a statement that moved on. It
/// binds only while valid: the statement owns the state, and the state refers back to it `unowned(unsafe)`.
final class RowEncodingState: StatementCodingState {
    unowned(unsafe) let raw: RawStatement
    let model: Any.Type
    let modelID: ObjectIdentifier
    /// The statement's SQL, for errors, kept apart from `raw` so that a late use can report it.
    let sql: String
    @exclusivity(unchecked) var parameterMap: [Int32]?
    @exclusivity(unchecked) var lookup: CodingKeyLookup
    @exclusivity(unchecked) private var encodedLow: UInt64 = 0
    @exclusivity(unchecked) private var encodedHigh: Set<Int> = []
    @exclusivity(unchecked) var isValid = false
    /// The keyed container of the last encoding (a ``CachedEncodingContainer``).
    @exclusivity(unchecked) private var container = ContainerSlot()
    @exclusivity(unchecked) private var storableTypes = StorableTypes()

    var columns: [Column] { lookup.columns }

    private init(raw: RawStatement, model: Any.Type, columns: [Column]) {
        self.raw = raw
        self.model = model
        modelID = ObjectIdentifier(model)
        sql = raw.sql
        lookup = CodingKeyLookup(columns: columns, recordingPlan: true)
    }

    /// The state for encoding a `Model` into `raw`: the statement's own when it encoded `Model` before and is not
    /// encoding now, else a new one (kept by the statement unless it is in use).
    static func begin<Model: TableModel>(_ model: Model.Type, raw: RawStatement) -> RowEncodingState {
        let state = reusing(&raw.encodingState, model: ObjectIdentifier(model)) {
            RowEncodingState(raw: raw, model: model, columns: Model.columns)
        }.state
        state.parameterMap = raw.parameterMap
        state.encodedLow = 0
        if !state.encodedHigh.isEmpty { state.encodedHigh.removeAll(keepingCapacity: true) }
        state.lookup.rewind()
        state.isValid = true
        return state
    }

    /// Ends the encoding of the current row.
    func end() {
        isValid = false
    }

    /// Drops the cached container, which refers back to the state: the statement calls it when it lets go.
    func release() {
        container.clear()
    }

    /// The keyed container over the columns, made once per key type.
    func keyedContainer<Key: CodingKey>(_ type: Key.Type) -> KeyedEncodingContainer<Key> {
        if let holder = container.holder(for: type) {
            return unsafeDowncast(holder, to: CachedEncodingContainer<Key>.self).container
        }
        let made = KeyedEncodingContainer(KeyedRowEncodingContainer<Key>(state: self))
        // A nested state is dropped after its row: caching its container would keep it (and its cycle) alive.
        if isValid && raw.encodingState === self { container.keep(CachedEncodingContainer(made), for: type) }
        return made
    }

    @inline(__always) func index(of key: some CodingKey) throws -> Int {
        guard isValid else { throw usedLate() }
        guard let index = lookup.index(of: key) else { throw notAColumn(key) }
        return index
    }

    private func usedLate() -> SQLiteError {
        SQLiteError(.misuse, message: "an Encoder was used after the encode(to:) it was given returned", sql: sql)
    }

    private func notAColumn(_ key: some CodingKey) -> SQLiteError {
        var error = SQLiteError(
            .modelMismatch, message: "\(model) encodes key \"\(key.stringValue)\", which is not one of its columns")
        error.column = key.stringValue
        return error
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
    /// A column encoded twice (one key twice, or two keys that differ only in case) is refused: one of the two
    /// values would be lost.
    @inline(__always) private func parameter(encoding column: Int) throws(SQLiteError) -> Int32? {
        if column < 64 {
            let bit: UInt64 = 1 << UInt64(column)
            if encodedLow & bit != 0 { throw encodedTwice(column) }
            encodedLow |= bit
        } else if !encodedHigh.insert(column).inserted {
            throw encodedTwice(column)
        }
        let index = parameter(of: column)
        return index == 0 ? nil : index
    }

    private func encodedTwice(_ column: Int) -> SQLiteError {
        let name = columns[column].name
        var error = SQLiteError(
            .modelMismatch,
            message: "\(model) encodes column \"\(name)\" twice (one key twice, or two keys that differ only in "
                + "case): one of the values would be lost")
        error.column = name
        return error
    }

    @inline(__always) func bind<V: SQLiteValueConvertible>(_ value: V, column: Int) throws(SQLiteError) {
        if let index = try parameter(encoding: column) { try ParameterSlot(raw: raw, index: index).bindValue(value) }
    }

    func bind(value: SQLiteValue, column: Int) throws(SQLiteError) {
        if let index = try parameter(encoding: column) { try ParameterSlot(raw: raw, index: index).bind(value) }
    }

    /// Binds any `Encodable`: directly for storable types, else as a single value or JSON text.
    ///
    /// `unwrapped` is `true` for the value of an optional that was not `nil` (`encodeIfPresent`): such a value
    /// may not bind NULL, or `Int??` holding `.some(nil)` would be stored as the NULL that reads back as `nil`.
    func encode<T: Encodable>(_ value: T, column: Int, unwrapped: Bool = false) throws {
        if let convertible = storableTypes.storable(T.self) {
            if unwrapped && convertible.isNullable { try refuseNull(convertible, value, column: column) }
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
            try bind(try JSONText.encode(value, column: lookup.names[column]), column: column)
        } else {
            let encoded = probe.value ?? .null
            if unwrapped && encoded == .null { throw wrappedNull(T.self, column: column) }
            try bind(value: encoded, column: column)
        }
    }

    private func refuseNull<V: SQLiteValueConvertible, T>(_ type: V.Type, _ value: T, column: Int) throws {
        guard V.self == T.self else { throw SQLiteError(.misuse, message: "\(T.self) is not \(V.self)") }
        if try unsafeBitCast(value, to: V.self).sqliteValue == .null { throw wrappedNull(T.self, column: column) }
    }

    private func wrappedNull(_ type: Any.Type, column: Int) -> SQLiteError {
        var error = SQLiteError.conversion(
            "\(model) encodes an Optional<\(type)> holding a wrapped NULL (such as .some(nil)) for column "
                + "\"\(lookup.names[column])\": SQL has one NULL, which reads back as nil; use a single optional")
        error.column = lookup.names[column]
        return error
    }

    private func bind<V: SQLiteValueConvertible, T>(_ type: V.Type, _ value: T, column: Int) throws {
        // V is T, opened from the existential metatype `storableTypes` gave for T: the check never fails.
        guard V.self == T.self else { throw SQLiteError(.misuse, message: "\(T.self) is not \(V.self)") }
        try bind(unsafeBitCast(value, to: V.self), column: column)
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
            try ParameterSlot(raw: raw, index: index).bindNull()
        }
    }
}

/// The `Encoder` handed to a ``CodableTableModel``'s `encode(to:)`: one keyed container over the columns.
struct ModelEncoder: Encoder {
    let state: RowEncodingState
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        state.keyedContainer(type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        RefusingContainer<AnyCodingKey>(error: Self.keyedOnly)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        RefusingContainer<AnyCodingKey>(error: Self.keyedOnly)
    }

    static let keyedOnly = SQLiteError(.misuse, message: "a CodableTableModel must encode with a keyed container")
}

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
        if let value {
            try state.encode(value, column: column, unwrapped: true)
        } else {
            try state.bind(value: .null, column: column)
        }
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

/// A keyed container kept by a ``RowEncodingState`` for the next row.
final class CachedEncodingContainer<Key: CodingKey> {
    let container: KeyedEncodingContainer<Key>

    init(_ container: KeyedEncodingContainer<Key>) {
        self.container = container
    }
}
