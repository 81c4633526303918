import SQLiteSwiftly
import Testing

@Suite struct StatementCacheTests {
    @Test("the same SQL is compiled once, whatever the arguments")
    func compiledOnce() throws {
        let db = try Connection.inMemory()
        #expect(db.cachedStatementCount == 0)
        try db.execute("CREATE TABLE t (x)")
        let afterCreate = db.cachedStatementCount
        for value in 1...20 { try db.execute("INSERT INTO t VALUES (?)", [value]) }
        #expect(db.cachedStatementCount == afterCreate + 1)
        for value in 1...5 { _ = try db.fetchValue(Int.self, "SELECT count(*) FROM t WHERE x > ?", [value]) }
        #expect(db.cachedStatementCount == afterCreate + 2)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t WHERE x > ?", [15]) == 5)
    }

    @Test("a text run once is not kept; its second run keeps it; a model statement is kept at its first run")
    func keptFromSecondRun() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x)")
        let start = db.cachedStatementCount
        for value in 1...200 { _ = try db.fetchValue(Int.self, SQL(verbatim: "SELECT \(value) + x FROM t")) }
        #expect(db.cachedStatementCount == start)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 0)
        #expect(db.cachedStatementCount == start)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 0)
        #expect(db.cachedStatementCount == start + 1)
        // Texts that only differ in how a letter is composed are different SQL, and different entries.
        let composed = "SELECT 'caf\u{E9}'"
        let decomposed = "SELECT 'cafe\u{301}'"
        for _ in 1...2 {
            #expect(try db.fetchValue(String.self, SQL(verbatim: composed)) == "caf\u{E9}")
            #expect(try db.fetchValue(String.self, SQL(verbatim: decomposed))?.unicodeScalars.count == 5)
        }
        #expect(db.cachedStatementCount == start + 3)
    }

    @Test("an interpolated list makes one cache entry per list length, whatever its values")
    func listLengths() throws {
        let db = try Connection.inMemory()
        func count(_ values: [Int]) throws -> Int? {
            try db.fetchValue(Int.self, "SELECT count(*) FROM (SELECT 1 AS x) WHERE x IN (\(list: values))")
        }
        #expect(try count([1, 2]) == 1)
        #expect(try count([3, 4]) == 0)  // the same text: kept at its second run
        let entries = db.cachedStatementCount
        #expect(try count([5, 6]) == 0)
        #expect(db.cachedStatementCount == entries)
        #expect(try count([1, 2, 3]) == 1)
        #expect(try count([1, 2, 4]) == 1)
        #expect(db.cachedStatementCount == entries + 1)
    }

    @Test("clearStatementCache empties the cache and queries still work after it")
    func clear() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x)")
        for _ in 1...2 { try db.execute("INSERT INTO t VALUES (1)") }
        #expect(db.cachedStatementCount > 0)
        db.clearStatementCache()
        #expect(db.cachedStatementCount == 0)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 2)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 2)
        #expect(db.cachedStatementCount == 1)
    }

    @Test("the cache is bounded: the least recently used statement makes room")
    func bounded() throws {
        let db = try Connection.inMemory()
        _ = try db.fetchValue(Int.self, "SELECT 0")
        for value in 1...100 {
            for _ in 1...2 { _ = try db.fetchValue(Int.self, SQL(verbatim: "SELECT \(value)")) }
            _ = try db.fetchValue(Int.self, "SELECT 0")  // keep this one recently used
        }
        #expect(db.cachedStatementCount == 64)
        #expect(try db.fetchValue(Int.self, "SELECT 0") == 0)
        #expect(db.cachedStatementCount == 64)
    }

    @Test("a cached statement sees schema changes")
    func schemaChange() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x)")
        try db.execute("INSERT INTO t VALUES (1)")
        #expect(try db.fetchAll(UntypedRow.self, "SELECT * FROM t").first?.values == [.integer(1)])
        try db.execute("ALTER TABLE t ADD COLUMN y DEFAULT 2")
        #expect(try db.fetchAll(UntypedRow.self, "SELECT * FROM t").first?.values == [.integer(1), .integer(2)])
    }

    @Test("a kept or prepared SELECT * that gains columns reads them all, with their values in order")
    func schemaGrowthPastFirstColumnCount() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x)")
        try db.execute("INSERT INTO t VALUES (1)")
        let prepared = try db.prepare("SELECT * FROM t")
        for _ in 1...2 {  // the second run keeps the text in the cache
            #expect(try db.fetchAll(UntypedRow.self, "SELECT * FROM t").first?.values == [.integer(1)])
        }
        #expect(try prepared.fetchOne(UntypedRow.self)?.values == [.integer(1)])
        try db.execute("ALTER TABLE t ADD COLUMN y DEFAULT 2")
        try db.execute("ALTER TABLE t ADD COLUMN z DEFAULT 'three'")
        try db.execute("ALTER TABLE t ADD COLUMN w DEFAULT 4.5")
        let expected: [SQLiteValue] = [.integer(1), .integer(2), .text("three"), .real(4.5)]
        let cached = try db.fetchAll(UntypedRow.self, "SELECT * FROM t").first
        #expect(cached?.values == expected)
        #expect(cached?.columnNames == ["x", "y", "z", "w"])
        #expect(try prepared.fetchOne(UntypedRow.self)?.values == expected)
        // A type naming its columns in another order reads them through a map as long as the new result.
        #expect(try prepared.fetchOne(Reversed.self) == Reversed(w: 4.5, z: "three", y: 2, x: 1))
        // Past the end of the map, before its start, or past Int32: an error, never a read.
        let probe = try #require(try prepared.fetchOne(MappedProbe.self))
        #expect(probe.x == 1)
        #expect(probe.failures.count == 4)
        #expect(
            probe.failures.allSatisfy { $0?.kind == .conversionFailed && $0?.message.contains("out of range") == true })
    }

    private struct MappedProbe: RowDecodable {
        static let expectedColumnNames: [String]? = ["z", "x"]
        var x: Int
        var failures: [SQLiteError?] = []
        init(row: borrowing Row) throws {
            x = try row[1]
            for index in [2, -1, 1 << 32 | 1, Int.min] {
                do throws(SQLiteError) {
                    let _: SQLiteValue = try row.sqliteValue(at: index)
                    failures.append(nil)
                } catch {
                    failures.append(error)
                }
            }
        }
    }

    private struct Reversed: RowDecodable, Equatable {
        static let expectedColumnNames: [String]? = ["w", "z", "y", "x"]
        var w: Double, z: String, y: Int, x: Int
        init(w: Double, z: String, y: Int, x: Int) { (self.w, self.z, self.y, self.x) = (w, z, y, x) }
        init(row: borrowing Row) throws { (w, z, y, x) = (try row[0], try row[1], try row[2], try row[3]) }
    }

    @Test("a cursor of a cached SQL text has its own statement: cached runs do not end it")
    func cursorIndependentOfCache() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x)")
        for value in 1...3 { try db.execute("INSERT INTO t VALUES (?)", [value]) }
        let sql = "SELECT x FROM t ORDER BY x"
        for _ in 1...2 { #expect(try db.fetchAll(UntypedRow.self, SQL(verbatim: sql)).count == 3) }
        let count = db.cachedStatementCount
        let cursor = try db.fetchCursor(UntypedRow.self, SQL(verbatim: sql))
        #expect(try cursor.next()?.values == [.integer(1)])
        #expect(try db.fetchAll(UntypedRow.self, SQL(verbatim: sql)).count == 3)
        #expect(try cursor.next()?.values == [.integer(2)])
        #expect(db.cachedStatementCount == count)
    }
}
