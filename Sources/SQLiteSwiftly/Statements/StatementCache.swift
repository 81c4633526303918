/// The connection's cache of compiled statements for ad-hoc SQL, keyed by SQL text.
///
/// - **From the second run.** A text is kept from its second run on: the first run compiles, runs and drops
///   its statement, as hand-written C does for SQL it runs once. A query console or a test runner that sends
///   thousands of different texts then never pays for keeping, evicting and finalizing them in the cache. The
///   texts that missed are remembered by hash, in a table of 128 slots, so that the second run knows.
/// - **Bounded.** When full, the least recently used statement is finalized to make room.
/// - **Model statements.** The statements of table reads and writes (``Connection/fetchAll(_:where:_:)``,
///   ``Connection/update(_:)``, ...) are cached from their first run, and also found by model type and
///   purpose, so that a repeated model statement neither rebuilds nor hashes its SQL text; those entries name
///   statements of the main table and leave it together with them.
@usableFromInline
struct StatementCache {
    static let capacity = 64

    /// A model statement: the model type and what the statement does.
    @usableFromInline struct ModelKey: Hashable {
        @usableFromInline enum Purpose: Hashable {
            /// A read of the table, with the text after `WHERE`.
            case select(condition: String?)
            /// The read of one row by its single-column primary key.
            case selectByKey
            case insert
            /// An `INSERT ... ON CONFLICT DO NOTHING`.
            case insertIfNew
            /// An `INSERT ... ON CONFLICT (key) DO UPDATE ... RETURNING` row id.
            case upsert
            case update
            case delete
            /// The delete of one row by its single-column primary key.
            case deleteByKey
        }

        let model: ObjectIdentifier
        let purpose: Purpose

        @usableFromInline init(model: ObjectIdentifier, purpose: Purpose) {
            self.model = model
            self.purpose = purpose
        }
    }

    private var entries: [SQLKey: RawStatement] = [:]
    /// The cached statements again, in an array: finding the least recently used scans it.
    private var statements: [RawStatement] = []
    private var modelEntries: [ModelKey: RawStatement] = [:]
    /// The model statement found last, compared before the dictionary is searched: a loop of one model call
    /// (`db.insert(_:)` per row) finds its statement with a comparison instead of hashing its key each time.
    private var recentModelEntry: (key: ModelKey, statement: RawStatement)?
    /// The hashes of texts that missed, each in the slot its low bits pick: a newer miss in the same slot makes
    /// the cache forget the older one, which is then kept one run later.
    private var misses = [Int](repeating: 0, count: 2 * capacity)
    private var clock = 0

    var count: Int { entries.count }

    /// The cached statement of `key`'s text, if any.
    mutating func statement(for key: SQLKey) -> RawStatement? {
        guard let statement = entries[key] else { return nil }
        clock += 1
        statement.lastUse = clock
        return statement
    }

    /// The statement of a model query, if it is still cached.
    mutating func statement(for key: ModelKey) -> RawStatement? {
        let statement: RawStatement
        if let recent = recentModelEntry, recent.key == key {
            statement = recent.statement
        } else {
            guard let found = modelEntries[key] else { return nil }
            statement = found
            recentModelEntry = (key, found)
        }
        clock += 1
        statement.lastUse = clock
        return statement
    }

    /// Whether a text that missed the cache should be kept: `true` when it missed before (its second run).
    /// Otherwise remembers the miss, and returns `false`.
    mutating func shouldKeep(missed key: SQLKey) -> Bool {
        let slot = key.hash & (misses.count - 1)
        if misses[slot] == key.hash { return true }
        misses[slot] = key.hash
        return false
    }

    /// Keeps `statement` under `key`, finalizing the least recently used statement when the cache is full.
    mutating func insert(_ statement: RawStatement, for key: SQLKey) {
        if entries.count >= Self.capacity, let oldest = statements.indices.min(by: isOlder) {
            let evicted = statements[oldest]
            statements.swapAt(oldest, statements.count - 1)
            statements.removeLast()
            entries[SQLKey(evicted.sql)] = nil
            if modelEntries.values.contains(where: { $0 === evicted }) {
                modelEntries = modelEntries.filter { $0.value !== evicted }
            }
            if recentModelEntry?.statement === evicted { recentModelEntry = nil }
        }
        clock += 1
        statement.lastUse = clock
        entries[key] = statement
        statements.append(statement)
    }

    private func isOlder(_ first: Int, _ second: Int) -> Bool {
        statements[first].lastUse < statements[second].lastUse
    }

    /// Records that a model query runs `statement`, which must already be in the cache.
    mutating func insert(_ statement: RawStatement, for key: ModelKey) {
        guard entries[SQLKey(statement.sql)] === statement else { return }
        modelEntries[key] = statement
        recentModelEntry = (key, statement)
    }

    mutating func removeAll() {
        entries.removeAll()
        statements.removeAll()
        modelEntries.removeAll()
        recentModelEntry = nil
        for slot in misses.indices { misses[slot] = 0 }
    }
}
