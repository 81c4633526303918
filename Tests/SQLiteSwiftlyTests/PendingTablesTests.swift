import Testing

@testable import SQLiteSwiftly

/// The change tracker's per-transaction table entries, which keep their storage from one transaction to the next:
/// nothing of one transaction may show in the next, or in what an earlier commit handed out.
@Suite struct PendingTablesTests {
    /// Records `rows` as inserts into table `key` of `tables`.
    private func record(_ rows: [Int64], in key: String, _ tables: inout PendingTables) {
        let position = tables.entry(key, name: key.uppercased())
        for row in rows { tables[position].record(.insert, rowID: row, isMain: true) }
    }

    @Test("a transaction's entry starts empty, and rows handed out for a commit do not change with the next one")
    func reuse() {
        var tables = PendingTables()
        record([1, 2], in: "t", &tables)
        let position = tables.entry("u", name: "U")
        tables[position].missesRows = true
        let first = tables.committedRows(of: ["t", "u", "v"])
        #expect(first == ["t": [1, 2], "v": []])  // u's rows are not exact; v was written without a row changed
        tables.removeAll()
        #expect(tables.isEmpty)
        record([3], in: "u", &tables)
        record([4], in: "t", &tables)
        #expect(tables.count == 2)
        #expect(tables[0].name == "U" && tables[0].kinds == .insert && !tables[0].missesRows)
        #expect(tables.committedRows(of: ["t", "u"]) == ["t": [4], "u": [3]])
        #expect(first == ["t": [1, 2], "v": []])
    }

    @Test("past the indexed count, every table of a transaction is found, in the next transaction too")
    func manyTables() {
        var tables = PendingTables()
        let keys = (0..<(PendingTables.indexThreshold * 3)).map { "table\($0)" }
        for round: Int64 in 0..<2 {
            for (index, key) in keys.enumerated() { record([Int64(index) + round * 100], in: key, &tables) }
            for (index, key) in keys.enumerated() { #expect(tables.position(of: key) == index) }
            #expect(tables.count == keys.count)
            let rows = tables.committedRows(of: Set(keys))
            #expect(rows.count == keys.count)
            #expect(rows["table5"] == [5 + round * 100])
            tables.removeAll()
            #expect(tables.position(of: "table5") == nil)
        }
    }

    @Test("a large row set does not keep its storage; one past the limit makes the table's rows unknown")
    func largeRowSets() {
        var tables = PendingTables()
        record(Array(1...500), in: "t", &tables)
        tables.removeAll()
        record([], in: "t", &tables)
        #expect(tables[0].rowIDs.isEmpty && tables[0].rowIDs.capacity <= PendingTables.keptRowCapacity)
        record(Array(1...Int64(PendingTables.rowIDLimit + 1)), in: "t", &tables)
        #expect(!tables[0].rowsAreKnown && tables[0].rowIDs.isEmpty)
        #expect(tables.committedRows(of: ["t"]) == [:])
    }

    @Test("changes of successive transactions each report their own rows, over many tables")
    func successiveCommits() async throws {
        let shared = try SharedConnection(.inMemory)
        let names = (0..<(PendingTables.indexThreshold + 4)).map { "t\($0)" }
        try await shared.write { db in
            for name in names { try db.execute(SQL(verbatim: "CREATE TABLE \(name) (id INTEGER PRIMARY KEY)")) }
        }
        let changes = ObservationRecorder(shared.changes())
        for round in 1...3 {
            try await shared.write { db in
                for name in names { try db.execute(SQL(verbatim: "INSERT INTO \(name) VALUES (\(round))")) }
            }
        }
        try await shared.write { db in try db.execute("INSERT INTO t0 VALUES (9)") }
        for round in 1...3 {
            let change = try await changes.value(at: round - 1)
            #expect(change.tables.count == names.count)
            for name in names { #expect(change[table: name]?.rowIDs == [Int64(round)]) }
        }
        #expect(try await changes.value(at: 3).tables == [.init(table: "t0", kinds: .insert, rowIDs: [9])])
    }
}
