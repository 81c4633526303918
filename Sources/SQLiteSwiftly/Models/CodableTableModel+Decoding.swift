import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The state of ``CodableTableModel`` decodings on one statement: the row, the key-to-column lookup and its
/// plan, and the keyed container handed to `init(from:)`.
///
/// The statement keeps it from row to row (``RawStatement/decodingState``), so that a row allocates nothing
/// and looks up generic metadata only once (a copy of the standard library's `KeyedDecodingContainer`, whose layout
/// is resilient, needs it): the lookup's plan, recorded at the first row, and the container are reused
/// by every later row of the same model. A decoding that starts while another one on the same statement is
/// running (an `init(from:)` that reads the same query again) gets a state of its own.
///
/// **Lifetime.** The decoder and the keyed container refer to the state without retaining it (an
/// `Unmanaged` reference), because the standard library copies a keyed container three times for every value
/// it decodes, and retaining the state for each copy cost more than any other part of the library's decoding.
/// Those references stay valid because a state is never freed: it is retained once more when made, and a
/// statement that lets go of it returns it to `idle`, where the next statement that needs one takes it.
/// The number of states is therefore the largest number that were ever in use at once.
///
/// **Lives.** Each time the state serves a new statement, ``life`` grows, and decoders and containers carry the
/// life they were made in. They work only while ``activeLife`` equals it, that is during the `init(from:)`
/// they were handed to: a decoder that `init(from:)` kept and used later throws instead of reading whatever
/// row, or statement, the state serves now. The state reads the statement only then, during a row that the
/// statement's row loop is decoding: the statement owns the state, and the state refers back to it
/// `unowned(unsafe)`.
final class RowDecodingState: StatementCodingState {
    unowned(unsafe) private(set) var raw: RawStatement
    private(set) var modelID: ObjectIdentifier
    /// The statement's SQL and table, for errors, kept apart from `raw` so that a late use can report them.
    private(set) var sql: String
    private(set) var table: String?
    /// The life whose statement `sql` is: the current one, or the one before while the state is idle.
    @exclusivity(unchecked) private var sqlLife: UInt64 = 1
    @exclusivity(unchecked) var number = 0
    @exclusivity(unchecked) var lookup: CodingKeyLookup
    /// The statement the state serves now, counted from 1.
    @exclusivity(unchecked) private(set) var life: UInt64 = 1
    /// ``life`` while an `init(from:)` runs, else 0.
    @exclusivity(unchecked) private(set) var activeLife: UInt64 = 0
    /// Whether the statement keeps the state from row to row; a nested decoding's state serves one row.
    @exclusivity(unchecked) private(set) var isKept = false
    /// The keyed container of the last decoding (a ``CachedDecodingContainer``).
    @exclusivity(unchecked) private var container = ContainerSlot()
    @exclusivity(unchecked) private var storableTypes = StorableTypes()

    /// The addresses of the states no statement uses: states are never freed (see the type's documentation), so
    /// the addresses stay valid.
    private static let idle = TrackedMutex<[UInt]>([])
    /// How many states were ever made: the tests check that idle ones are reused.
    static let madeCount = Atomic<Int>(0)

    var isValid: Bool { activeLife != 0 }

    private init(raw: RawStatement, model: ObjectIdentifier, columns: [Column]) {
        self.raw = raw
        modelID = model
        sql = raw.sql
        table = raw.table
        lookup = CodingKeyLookup(columns: columns, recordingPlan: true)
    }

    /// The state for decoding the current row of `raw` as `Model`: the statement's own when it decoded `Model`
    /// before and is not decoding now, else another (kept by the statement unless it is in use).
    static func begin<Model: TableModel>(_ model: Model.Type, row: borrowing Row) -> RowDecodingState {
        // The statement is reached through the row's reference each time: a local copy would be retained.
        let (state, kept) = reusing(&row.raw.decodingState, model: ObjectIdentifier(model)) {
            make(raw: row.raw, model: ObjectIdentifier(model), columns: Model.columns)
        }
        state.isKept = kept
        state.number = row.number
        state.lookup.rewind()
        state.activeLife = state.life
        return state
    }

    /// An idle state set up for `raw`, or a new one, which is never freed.
    private static func make(raw: RawStatement, model: ObjectIdentifier, columns: [Column]) -> RowDecodingState {
        if let address = idle.withLock({ $0.popLast() }), let pointer = UnsafeRawPointer(bitPattern: address) {
            let state = Unmanaged<RowDecodingState>.fromOpaque(pointer).takeUnretainedValue()
            state.raw = raw
            state.modelID = model
            state.sql = raw.sql
            state.table = raw.table
            state.sqlLife = state.life
            state.lookup = CodingKeyLookup(columns: columns, recordingPlan: true)
            return state
        }
        let state = RowDecodingState(raw: raw, model: model, columns: columns)
        madeCount.wrappingAdd(1, ordering: .relaxed)
        _ = Unmanaged.passRetained(state)  // the retain that is never released: see the type's documentation
        return state
    }

    /// Ends the decoding of the current row; a state the statement does not keep becomes idle.
    func end() {
        activeLife = 0
        if !isKept { release() }
    }

    /// Makes the state idle, for the next statement that needs one: the statement calls it when it lets go.
    /// Decoders and containers of the life that ends are refused from now on; their errors name the statement's
    /// SQL until another statement takes the state.
    func release() {
        activeLife = 0
        life &+= 1
        container.clear()
        storableTypes = StorableTypes()
        lookup = CodingKeyLookup(columns: [], recordingPlan: false)
        let address = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
        Self.idle.withLock { $0.append(address) }
    }

    /// The keyed container over the row, made once per key type.
    func keyedContainer<Key: CodingKey>(_ type: Key.Type) -> KeyedDecodingContainer<Key> {
        if let holder = container.holder(for: type) {
            return unsafeDowncast(holder, to: CachedDecodingContainer<Key>.self).container
        }
        let made = KeyedDecodingContainer(KeyedRowDecodingContainer<Key>(state: self))
        // A nested state serves one row: its container is not kept.
        if isKept { container.keep(CachedDecodingContainer(made), for: type) }
        return made
    }

    // The reads below are made only after `check(_:)`, by the decoder, container or column decoder calling them.

    /// Reads the column of `key` in the current row.
    @inline(__always) func value<V: SQLiteValueConvertible>(for key: some CodingKey) throws -> V {
        try value(at: index(of: key))
    }

    /// Reads the column of `key`, `nil` for NULL. A key that is no column is refused, as in ``value(for:)``:
    /// the model's columns are fixed, so such a key is a misnamed one, not an absent value.
    @inline(__always) func valueIfPresent<V: SQLiteValueConvertible>(for key: some CodingKey) throws -> V? {
        try value(at: index(of: key))
    }

    /// Reads column `index` of the current row.
    @inline(__always) func value<V: SQLiteValueConvertible>(at index: Int) throws -> V {
        try Row.value(of: Unmanaged.passUnretained(raw), number: number, at: index)
    }

    /// Whether column `index` holds NULL.
    func isNull(at index: Int) throws -> Bool {
        try Row(raw: raw, number: number).isNull(at: index)
    }

    /// Throws unless a decoder or container made in `life` may read now: during the `init(from:)` it was
    /// handed to.
    @inline(__always) func check(_ life: UInt64) throws {
        guard activeLife == life else { throw usedLate(life) }
    }

    private func usedLate(_ life: UInt64) -> SQLiteError {
        SQLiteError(
            .misuse, message: "a Decoder was used after the init(from:) it was given returned; the row is gone",
            sql: life == sqlLife ? sql : nil)
    }

    @inline(__always) func index(of key: some CodingKey) throws -> Int {
        guard let index = lookup.index(of: key) else { throw notAColumn(key) }
        return index
    }

    func notAColumn(_ key: some CodingKey) -> SQLiteError {
        var error = SQLiteError(
            .modelMismatch, message: "the model decodes key \"\(key.stringValue)\", which is not one of its columns")
        error.column = key.stringValue
        error.row = number
        return error.with(sql: sql, table: table)
    }

    /// Reads any `Decodable` at a column: directly for storable types, else as a single value or JSON.
    func decode<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
        if let convertible = storableTypes.storable(T.self) {
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
                failure.column = lookup.names[index]
                failure.row = number
                throw failure.with(sql: sql, table: table)
            }
        }
    }

    private func read<V: SQLiteValueConvertible, T>(_ type: V.Type, at index: Int, as: T.Type) throws -> T {
        let value: V = try self.value(at: index)
        // V is T, opened from the existential metatype `storableTypes` gave for T: the check never fails.
        guard V.self == T.self else { throw SQLiteError(.misuse, message: "\(V.self) is not \(T.self)") }
        return unsafeBitCast(value, to: T.self)
    }
}

/// A keyed container kept by a ``RowDecodingState`` for the next row.
final class CachedDecodingContainer<Key: CodingKey> {
    let container: KeyedDecodingContainer<Key>

    init(_ container: KeyedDecodingContainer<Key>) {
        self.container = container
    }
}

/// The `Decoder` handed to a ``CodableTableModel``'s `init(from:)`: one keyed container over the row.
///
/// It refers to its state without retaining it, which is safe because states are never freed (see
/// ``RowDecodingState``), and works only during the life it was made in.
struct ModelDecoder: Decoder {
    private let state: Unmanaged<RowDecodingState>
    private let life: UInt64
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(state: RowDecodingState) {
        self.state = .passUnretained(state)
        life = state.life
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try state._withUnsafeGuaranteedRef { state in
            try state.check(life)
            return state.keyedContainer(type)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw SQLiteError(.misuse, message: "a CodableTableModel must decode with a keyed container")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw SQLiteError(.misuse, message: "a CodableTableModel must decode with a keyed container")
    }
}

/// The keyed container of a row: each key reads the column of the same name.
///
/// Like ``ModelDecoder``, it refers to its state without retaining it and works only during the life it was made
/// in. It holds no reference the standard library would retain, so its copies cost no reference counting.
struct KeyedRowDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private let unmanagedState: Unmanaged<RowDecodingState>
    private let life: UInt64
    var codingPath: [any CodingKey] { [] }

    init(state: RowDecodingState) {
        unmanagedState = .passUnretained(state)
        life = state.life
    }

    /// Runs `body` with the state, once `check(_:)` passed; no retain, as the state is never freed.
    @inline(__always) private func withState<Result>(_ body: (RowDecodingState) throws -> Result) throws -> Result {
        try unmanagedState._withUnsafeGuaranteedRef { state in
            try state.check(life)
            return try body(state)
        }
    }

    var allKeys: [Key] {
        (try? withState { $0.lookup.names.compactMap { Key(stringValue: $0) } }) ?? []
    }

    func contains(_ key: Key) -> Bool {
        (try? withState { $0.lookup.peek(key) != nil }) ?? false
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try withState { state in
            guard let index = state.lookup.peek(key) else { throw state.notAColumn(key) }
            return try state.isNull(at: index)
        }
    }

    @inline(__always) private func value<V: SQLiteValueConvertible>(_ key: Key) throws -> V {
        try withState { try $0.value(for: key) }
    }

    @inline(__always) private func optional<V: SQLiteValueConvertible>(_ key: Key) throws -> V? {
        try withState { try $0.valueIfPresent(for: key) }
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
        try withState { state in try state.decode(type, at: state.index(of: key)) }
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
        try withState { state in
            let index = try state.index(of: key)
            guard try !state.isNull(at: index) else { return nil }
            return try state.decode(type, at: index)
        }
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
    private let state: RowDecodingState
    private let life: UInt64
    private let index: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(state: RowDecodingState, index: Int) {
        self.state = state
        life = state.life
        self.index = index
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw NeedsJSON()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw NeedsJSON()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    func decodeNil() -> Bool {
        guard (try? state.check(life)) != nil else { return true }
        return (try? state.isNull(at: index)) ?? true
    }

    @inline(__always) private func value<V: SQLiteValueConvertible>() throws -> V {
        try state.check(life)
        return try state.value(at: index)
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
        try state.check(life)
        return try state.decode(type, at: index)
    }
}
