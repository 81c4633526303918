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

    @Test("a ValueList makes one cache entry per list length")
    func listLengths() throws {
        let db = try Connection.inMemory()
        let sql = "SELECT count(*) FROM (SELECT 1 AS x) WHERE x IN (?)"
        _ = try db.fetchValue(Int.self, sql, [ValueList([1, 2])])
        let count = db.cachedStatementCount
        _ = try db.fetchValue(Int.self, sql, [ValueList([3, 4])])
        #expect(db.cachedStatementCount == count)
        _ = try db.fetchValue(Int.self, sql, [ValueList([1, 2, 3])])
        #expect(db.cachedStatementCount == count + 1)
    }

    @Test("clearStatementCache empties the cache and queries still work after it")
    func clear() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x)")
        try db.execute("INSERT INTO t VALUES (1)")
        #expect(db.cachedStatementCount > 0)
        db.clearStatementCache()
        #expect(db.cachedStatementCount == 0)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 1)
        #expect(db.cachedStatementCount == 1)
    }

    @Test("the cache is bounded: the least recently used statement makes room")
    func bounded() throws {
        let db = try Connection.inMemory()
        _ = try db.fetchValue(Int.self, "SELECT 0")
        for value in 1...100 {
            _ = try db.fetchValue(Int.self, "SELECT \(value)")
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

    @Test("a cursor of a cached SQL text has its own statement: cached runs do not end it")
    func cursorIndependentOfCache() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x)")
        for value in 1...3 { try db.execute("INSERT INTO t VALUES (?)", [value]) }
        let sql = "SELECT x FROM t ORDER BY x"
        #expect(try db.fetchAll(UntypedRow.self, sql).count == 3)
        let count = db.cachedStatementCount
        let cursor = try db.cursor(UntypedRow.self, sql)
        #expect(try cursor.next()?.values == [.integer(1)])
        #expect(try db.fetchAll(UntypedRow.self, sql).count == 3)
        #expect(try cursor.next()?.values == [.integer(2)])
        #expect(db.cachedStatementCount == count)
    }
}
