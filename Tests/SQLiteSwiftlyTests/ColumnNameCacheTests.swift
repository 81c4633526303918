import SQLiteSwiftly
import Testing

/// A connection shares one array of column names between `UntypedRow` results that SQLite names the same: each
/// result must still show exactly its own names.
@Suite struct ColumnNameCacheTests {
    /// Reads the first row of `sql` as an `UntypedRow` and returns its column names.
    private func names(_ db: Connection, _ sql: String) throws -> [String] {
        let rows = try db.fetchAll(UntypedRow.self, SQL(verbatim: sql))
        return try #require(rows.first).columnNames
    }

    @Test func resultsNamedAlikeOrNotEachShowTheirOwnNames() throws {
        let db = try Connection.inMemory()
        #expect(try names(db, "SELECT 1 AS a, 2 AS b") == ["a", "b"])
        #expect(try names(db, "SELECT 3 AS a, 4 AS b") == ["a", "b"])
        // Same count, same bytes when concatenated: the NUL after each name tells them apart.
        #expect(try names(db, "SELECT 1 AS ab, 2 AS c") == ["ab", "c"])
        #expect(try names(db, "SELECT 1 AS a, 2 AS bc") == ["a", "bc"])
        // A prefix of the kept names, and a longer list starting with them.
        #expect(try names(db, "SELECT 1 AS a") == ["a"])
        #expect(try names(db, "SELECT 1 AS a, 2 AS bc, 3 AS d") == ["a", "bc", "d"])
        #expect(try names(db, "SELECT 1 AS a, 2 AS bc, 3 AS \"\"") == ["a", "bc", ""])
        #expect(try names(db, "SELECT 1 AS a, 2 AS bc, 3 AS d") == ["a", "bc", "d"])
        // Case matters: the names are shown as SQLite reports them.
        #expect(try names(db, "SELECT 1 AS A, 2 AS BC, 3 AS D") == ["A", "BC", "D"])
        #expect(try names(db, "SELECT 1 AS \"ünï\", 2 AS \"名前\"") == ["ünï", "名前"])
        #expect(try names(db, "SELECT 1 AS \"ünï\", 2 AS \"名前\"") == ["ünï", "名前"])
    }

    @Test func namesFollowEachRunOfOneStatement() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x INTEGER, y INTEGER)")
        try db.execute("INSERT INTO t VALUES (1, 2), (3, 4)")
        let statement = try db.prepare("SELECT * FROM t")
        #expect(try statement.fetchAll(UntypedRow.self).map(\.columnNames) == [["x", "y"], ["x", "y"]])
        // Another statement's result, named otherwise, in between.
        #expect(try names(db, "SELECT 1 AS p, 2 AS q") == ["p", "q"])
        #expect(try statement.fetchAll(UntypedRow.self).map(\.columnNames) == [["x", "y"], ["x", "y"]])
        // A schema change: the statement's next run has one more column.
        try db.execute("ALTER TABLE t ADD COLUMN z INTEGER")
        #expect(try statement.fetchAll(UntypedRow.self).first?.columnNames == ["x", "y", "z"])
        #expect(try names(db, "SELECT 1 AS x, 2 AS y") == ["x", "y"])
    }

    @Test func connectionsKeepTheirOwnNames() throws {
        let first = try Connection.inMemory()
        let second = try Connection.inMemory()
        #expect(try names(first, "SELECT 1 AS a") == ["a"])
        #expect(try names(second, "SELECT 1 AS b") == ["b"])
        #expect(try names(first, "SELECT 1 AS c") == ["c"])
        #expect(try names(second, "SELECT 1 AS b") == ["b"])
    }
}
