/// The connection's cache of compiled statements for ad-hoc SQL, keyed by SQL text.
///
/// Bounded: when full, the least recently used statement is finalized to make room. Model queries
/// (``Connection/readOne(_:where:_:)`` and friends) are also found by model type and condition, so that a
/// repeated model query neither rebuilds nor hashes its SQL text; those entries name statements of the main
/// table and leave it together with them.
struct StatementCache {
    static let capacity = 64

    /// A model query: the model type and the text after `WHERE`.
    struct ModelKey: Hashable {
        let model: ObjectIdentifier
        let condition: String?
    }

    private var entries: [String: RawStatement] = [:]
    private var modelEntries: [ModelKey: RawStatement] = [:]
    private var clock = 0

    var count: Int { entries.count }

    mutating func statement(for sql: String) -> RawStatement? {
        guard let statement = entries[sql] else { return nil }
        clock += 1
        statement.lastUse = clock
        return statement
    }

    /// The statement of a model query, if it is still cached.
    mutating func statement(for key: ModelKey) -> RawStatement? {
        guard let statement = modelEntries[key] else { return nil }
        clock += 1
        statement.lastUse = clock
        return statement
    }

    mutating func insert(_ statement: RawStatement) {
        if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries[oldest.key] = nil
            if modelEntries.values.contains(where: { $0 === oldest.value }) {
                modelEntries = modelEntries.filter { $0.value !== oldest.value }
            }
        }
        clock += 1
        statement.lastUse = clock
        entries[statement.sql] = statement
    }

    /// Records that a model query runs `statement`, which must already be in the cache.
    mutating func insert(_ statement: RawStatement, for key: ModelKey) {
        guard entries[statement.sql] === statement else { return }
        modelEntries[key] = statement
    }

    mutating func removeAll() {
        entries.removeAll()
        modelEntries.removeAll()
    }
}
