/// The tables the transaction in progress wrote, with the rows SQLite's update hook reported for each: the change
/// tracker's per-commit state.
///
/// A transaction writes few tables, so they are kept in an array and found by comparing keys, with no hashing: a
/// key of up to 15 bytes is compared as two machine words. Past ``indexThreshold`` tables a dictionary indexes
/// them. The entries, their row sets and the rows handed to the committed region keep their storage from one
/// transaction to the next, so that a commit that changes the rows of one table allocates nothing once the
/// region of the commit before it was released.
struct PendingTables {
    /// The rows reported for one table.
    struct Entry {
        var key: String
        var name: String
        var kinds: DatabaseChange.Kinds = []
        var rowIDs: Set<Int64> = []
        var rowsAreKnown = true
        /// Whether a statement may have changed rows the hook does not report: the rows are not exact enough for
        /// observation regions (``DatabaseChange`` keeps reporting what the hook saw).
        var missesRows = false

        /// Records a row reported by the update hook.
        mutating func record(_ kind: DatabaseChange.Kinds, rowID: Int64, isMain: Bool) {
            kinds.insert(kind)
            if !isMain { rowsAreKnown = false }
            guard rowsAreKnown else { return }
            rowIDs.insert(rowID)
            if rowIDs.count > PendingTables.rowIDLimit {
                rowsAreKnown = false
                rowIDs = []
            }
        }

        /// Makes the entry the one of table `key` in a new transaction, keeping a small row set's storage.
        mutating func reuse(key: String, name: String) {
            self.key = key
            self.name = name
            kinds = []
            if rowIDs.capacity > PendingTables.keptRowCapacity {
                rowIDs = []
            } else {
                rowIDs.removeAll(keepingCapacity: true)
            }
            rowsAreKnown = true
            missesRows = false
        }
    }

    /// A transaction that changes more rows of a table than this reports that table whole.
    static let rowIDLimit = 10_000
    /// The largest row set whose storage is kept for the next transaction.
    static let keptRowCapacity = 64
    /// How many tables a transaction writes before a dictionary indexes them.
    static let indexThreshold = 16

    /// The first ``count`` are the transaction's; the others are kept from earlier ones for their storage.
    private var entries: [Entry] = []
    /// How many tables the transaction in progress wrote.
    private(set) var count = 0
    /// The position of each entry by key, once the transaction wrote more than ``indexThreshold`` tables.
    private var positions: [String: Int] = [:]
    /// The rows of the last committed region (see ``committedRows(of:)``), kept for their storage.
    private var rowsOfRegion: [String: Set<Int64>] = [:]

    var isEmpty: Bool { count == 0 }

    /// The transaction's entries.
    var active: ArraySlice<Entry> { entries[..<count] }

    /// The position of the entry of `key`, `nil` when the transaction did not write that table.
    func position(of key: String) -> Int? {
        if count > Self.indexThreshold { return positions[key] }
        for position in 0..<count where entries[position].key == key { return position }
        return nil
    }

    /// The position of the entry of `key`, made when the transaction had none (`name` is the table's name as SQLite
    /// spells it).
    mutating func entry(_ key: String, name: String) -> Int {
        if let position = position(of: key) { return position }
        if count == 0 && !rowsOfRegion.isEmpty {
            // The last commit's region was published and, usually, released: its rows give their storage back, and
            // the row sets below are no longer shared.
            rowsOfRegion.removeAll(keepingCapacity: true)
        }
        if count < entries.count {
            entries[count].reuse(key: key, name: name)
        } else {
            entries.append(Entry(key: key, name: name))
        }
        count += 1
        if count > Self.indexThreshold {
            if positions.isEmpty {
                for position in 0..<count { positions[entries[position].key] = position }
            } else {
                positions[key] = count - 1
            }
        }
        return count - 1
    }

    /// The entry at `position`.
    subscript(position: Int) -> Entry {
        get { entries[position] }
        _modify { yield &entries[position] }
    }

    /// Forgets the transaction's tables, keeping the storage of their entries.
    mutating func removeAll() {
        count = 0
        if !positions.isEmpty { positions = [:] }
    }

    /// The rows a committed transaction changed in each of `tables` (the tables of its region), for the region:
    /// a table's rows when the hook saw them all; none for a table written without a row changed (an `UPDATE` that
    /// matched nothing); no entry when they are unknown, so that the table concerns the region whole.
    mutating func committedRows(of tables: Set<String>) -> [String: Set<Int64>] {
        rowsOfRegion.removeAll(keepingCapacity: true)
        for table in tables {
            if let position = position(of: table) {
                let entry = entries[position]
                if entry.rowsAreKnown && !entry.missesRows { rowsOfRegion[table] = entry.rowIDs }
            } else {
                rowsOfRegion[table] = []
            }
        }
        return rowsOfRegion
    }
}
