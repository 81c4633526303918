import Foundation
import SQLiteSwiftly
import Testing

/// Text and blobs up to 16 KiB are copied into memory the statement keeps until its next run and bound in place;
/// larger ones are copied by SQLite. Whatever the sizes, each run stores exactly its own values.
@Suite struct BindingArenaTests {
    /// A row of five text and blob columns, so that one run binds several values into the arena.
    struct Wide: TableModel, Equatable {
        var id: Int
        var a: String
        var b: String?
        var c: [UInt8]
        var d: Data

        static let tableName = "wide"
        static let columns = [
            Column("id", Int.self, primaryKey: true), Column("a", String.self), Column("b", String?.self),
            Column("c", [UInt8].self), Column("d", Data.self),
        ]

        init(id: Int, a: String, b: String?, c: [UInt8], d: Data) {
            (self.id, self.a, self.b, self.c, self.d) = (id, a, b, c, d)
        }

        init(row: borrowing Row) throws {
            (id, a, b, c, d) = (try row[0], try row[1], try row[2], try row[3], try row[4])
        }

        func encode(to encoder: inout RowEncoder) throws {
            try encoder.encode(id)
            try encoder.encode(a)
            try encoder.encode(b)
            try encoder.encode(c)
            try encoder.encode(d)
        }
    }

    /// A deterministic row whose values have `size` bytes each, distinct per row.
    static func row(_ id: Int, size: Int) -> Wide {
        let letter = Character(UnicodeScalar(UInt8(97 + id % 26)))
        let text = String(repeating: letter, count: size)
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ id) }
        return Wide(id: id, a: text, b: id.isMultiple(of: 3) ? nil : "é" + text, c: bytes, d: Data(bytes.reversed()))
    }

    @Test(
        "rows of growing, shrinking and oversized values read back exactly, through one reused insert",
        arguments: [[1, 2, 700, 3, 5_000, 16_384, 16_385, 40_000, 10, 0, 1_000, 2]])
    func sizes(_ sizes: [Int]) throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Wide.self)
        let insert = try db.makeInsertStatement(for: Wide.self)
        let rows = sizes.enumerated().map { Self.row($0.offset + 1, size: $0.element) }
        for row in rows { try insert.insert(row) }
        #expect(try db.fetchAll(Wide.self, "SELECT * FROM wide ORDER BY id") == rows)
    }

    @Test("a cursor's text argument stays bound while it steps, even when other statements run in between")
    func cursorArgument() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Wide.self)
        let insert = try db.makeInsertStatement(for: Wide.self)
        for id in 1...50 { try insert.insert(Self.row(id, size: 20)) }
        let wanted = String(repeating: "c", count: 20)
        let cursor = try db.fetchCursor(Wide.self, "SELECT * FROM wide WHERE a = ? ORDER BY id", [wanted])
        var ids: [Int] = []
        while let row = try cursor.next() {
            ids.append(row.id)
            // Another run of other statements with text arguments must not disturb the cursor's binding.
            _ = try db.fetchValue(Int.self, "SELECT count(*) FROM wide WHERE a <> \(String(repeating: "z", count: 20))")
        }
        #expect(ids == [2, 28])
    }

    @Test("a prepared statement run again with other text sees only the new text")
    func statementReruns() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (k TEXT, v BLOB)")
        let statement = try db.prepare("INSERT INTO t VALUES (?, ?)")
        for (key, size) in [("first", 3), ("second, which is longer", 2_000), ("3", 0), ("fourth", 20_000)] {
            _ = try statement.execute(binding: key, [UInt8](repeating: UInt8(size % 251), count: size))
        }
        let stored = try db.fetchValue(String.self, "SELECT group_concat(k || ':' || length(v), ',') FROM t")
        #expect(stored == "first:3,second, which is longer:2000,3:0,fourth:20000")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t WHERE v = zeroblob(0)") == 1)
    }

    @Test("after a run that fails mid-way through binding, the next run stores its own values, none of the failed one")
    func failedRun() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (a TEXT, b TEXT, c REAL)")
        let statement = try db.prepare("INSERT INTO t VALUES (?, ?, ?)")
        let error = try requireSQLiteError {
            try statement.execute(binding: "kept?", "no", Double.nan)  // NaN is refused after two texts are bound
        }
        #expect(error.kind == .conversionFailed)
        _ = try statement.execute(binding: "stored", "too", 1.5)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 1)
        #expect(try db.fetchValue(String.self, "SELECT a || b FROM t") == "storedtoo")
    }
}
