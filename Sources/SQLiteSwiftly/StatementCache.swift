/// The connection's cache of compiled statements for ad-hoc SQL, keyed by SQL text.
///
/// Bounded: when full, the least recently used statement is finalized to make room.
struct StatementCache {
    static let capacity = 64

    private var entries: [String: (statement: RawStatement, lastUse: Int)] = [:]
    private var clock = 0

    var count: Int { entries.count }

    mutating func statement(for sql: String) -> RawStatement? {
        guard let entry = entries[sql] else { return nil }
        clock += 1
        entries[sql]?.lastUse = clock
        return entry.statement
    }

    mutating func insert(_ statement: RawStatement) {
        if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries[oldest.key] = nil
        }
        clock += 1
        entries[statement.sql] = (statement, clock)
    }

    mutating func removeAll() {
        entries.removeAll()
    }
}
