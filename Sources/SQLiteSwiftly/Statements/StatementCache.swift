/// The connection's cache of compiled statements for ad-hoc SQL, keyed by SQL text.
///
/// Bounded: when full, the least recently used statement is finalized to make room. The statements of table
/// reads and writes (``Connection/fetchAll(_:where:_:)``, ``Connection/update(_:)``, ...) are also found by
/// model type and purpose, so that a repeated model statement neither rebuilds nor hashes its SQL text; those
/// entries name statements of the main table and leave it together with them.
@usableFromInline
struct StatementCache {
    static let capacity = 64

    /// A model statement: the model type and what the statement does.
    @usableFromInline struct ModelKey: Hashable {
        @usableFromInline enum Purpose: Hashable {
            /// A read of the table, with the text after `WHERE`.
            case select(condition: String?)
            case update
            case delete
        }

        let model: ObjectIdentifier
        let purpose: Purpose

        @usableFromInline init(model: ObjectIdentifier, purpose: Purpose) {
            self.model = model
            self.purpose = purpose
        }
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
        // Removed by its index, not its key: hashing a long SQL text again is what one-off SQL would pay.
        if entries.count >= Self.capacity,
            let oldest = entries.indices.min(by: { entries[$0].value.lastUse < entries[$1].value.lastUse })
        {
            let evicted = entries.remove(at: oldest).value
            if modelEntries.values.contains(where: { $0 === evicted }) {
                modelEntries = modelEntries.filter { $0.value !== evicted }
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
