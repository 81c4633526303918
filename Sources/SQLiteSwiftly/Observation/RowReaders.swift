/// The observations whose last fetch read some tables only at some rows, indexed so that a commit finds the ones
/// whose rows it changed without looking at the others.
struct RowReaders {
    /// By table key: the observations narrowed on it, and, by rowid, those that read that row.
    private var tables: [String: (readers: Set<Int>, byRow: [Int64: Set<Int>])] = [:]

    var isEmpty: Bool { tables.isEmpty }

    /// Files observation `id` under the rows it read.
    mutating func insert(_ id: Int, _ rows: [String: Set<Int64>]) {
        for (table, rowIDs) in rows {
            tables[table, default: ([], [:])].readers.insert(id)
            for rowID in rowIDs { tables[table]?.byRow[rowID, default: []].insert(id) }
        }
    }

    /// Takes observation `id` out from under the rows it read; empty entries go.
    mutating func remove(_ id: Int, _ rows: [String: Set<Int64>]) {
        for (table, rowIDs) in rows {
            guard var entry = tables[table] else { continue }
            entry.readers.remove(id)
            if entry.readers.isEmpty {
                tables[table] = nil
                continue
            }
            for rowID in rowIDs {
                entry.byRow[rowID]?.remove(id)
                if entry.byRow[rowID]?.isEmpty == true { entry.byRow[rowID] = nil }
            }
            tables[table] = entry
        }
    }

    /// Adds to `ids` the observations narrowed on `table` that a change to `rows` of it concerns: those that read
    /// one of them, or all of them when the changed rows are unknown (`nil`).
    func collect(_ table: String, rows: Set<Int64>?, into ids: inout Set<Int>) {
        guard let entry = tables[table] else { return }
        guard let rows else {
            ids.formUnion(entry.readers)
            return
        }
        if rows.count <= entry.byRow.count {
            for rowID in rows {
                if let readers = entry.byRow[rowID] { ids.formUnion(readers) }
            }
        } else {
            for (rowID, readers) in entry.byRow where rows.contains(rowID) { ids.formUnion(readers) }
        }
    }
}
