import Foundation
import SQLiteSwiftly
import Testing

@Suite struct UntypedRowTests {
    @Test("untyped rows give the five value kinds and the column names")
    func fiveKinds() throws {
        let db = try Connection.inMemory()
        let rows = try db.fetchAll(
            UntypedRow.self,
            "SELECT NULL AS absent, 42 AS answer, 2.5 AS ratio, 'a' || char(0) || 'b' AS text, X'00FF' AS bytes, "
                + "X'' AS empty")
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        #expect(row.columnNames == ["absent", "answer", "ratio", "text", "bytes", "empty"])
        #expect(row.values == [.null, .integer(42), .real(2.5), .text("a\0b"), .blob([0x00, 0xFF]), .blob([])])
        #expect(row.values.map(\.storageClass) == [.null, .integer, .real, .text, .blob, .blob])
    }

    @Test("the rows of a run share their column names, read again by the next run after a schema change")
    func namesPerRun() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (a, b)")
        try db.execute("INSERT INTO t VALUES (1, 2), (3, 4)")
        let select = try db.prepare("SELECT * FROM t")
        let first = try select.fetchAll(UntypedRow.self)
        #expect(first.map(\.columnNames) == [["a", "b"], ["a", "b"]])
        #expect(first.map(\.values) == [[1, 2], [3, 4]])
        try db.execute("ALTER TABLE t ADD COLUMN c DEFAULT 5")
        try db.execute("ALTER TABLE t RENAME COLUMN a TO alpha")
        let second = try select.fetchAll(UntypedRow.self)  // re-prepared at its first step: new columns, new names
        #expect(second.map(\.columnNames) == [["alpha", "b", "c"], ["alpha", "b", "c"]])
        #expect(second.map(\.values) == [[1, 2, 5], [3, 4, 5]])
        #expect(second[1]["alpha"] == 3 && second[1]["a"] == nil)
        // Through a cursor, and through the statement cache, the same.
        let cursor = try db.fetchCursor(UntypedRow.self, "SELECT b AS x, alpha FROM t ORDER BY b")
        #expect(try cursor.next()?.columnNames == ["x", "alpha"])
        #expect(try cursor.next()?.columnNames == ["x", "alpha"])
        #expect(try db.fetchAll(UntypedRow.self, "SELECT c FROM t").map(\.columnNames) == [["c"], ["c"]])
    }

    @Test("untyped rows read any table, with arguments, and subscript by index and name")
    func anyQuery() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: TestPlanet.self)
        let insert = try db.makeInsertStatement(for: TestPlanet.self)
        for planet in TestPlanet.inner { try insert.insert(planet) }
        let rows = try db.fetchAll(
            UntypedRow.self, "SELECT name, moons, au * 2 AS twice FROM test_planets WHERE id > ? ORDER BY id", [2])
        #expect(
            rows.map(\.values) == [[.text("Earth"), .integer(1), .real(2.0)], [.text("Mars"), .null, .real(3.048)]])
        let mars = try #require(rows.last)
        #expect(mars[0] == .text("Mars"))
        #expect(mars["MOONS"] == .null)
        #expect(mars["twice"] == .real(3.048))
        // Out of range is `nil`, not `.null` (`SQLiteValue` is nil-literal expressible, so spell it out).
        let outOfRange: [SQLiteValue?] = [mars[3], mars[-1], mars["missing"]]
        #expect(outOfRange == [Optional<SQLiteValue>.none, .none, .none])
        #expect(mars[1] == .some(.null))
    }

    @Test("untyped rows accept any columns: no model check, and zero rows is an empty array")
    func noModelCheck() throws {
        let db = try Connection.inMemory()
        #expect(UntypedRow.expectedColumnNames == nil)
        #expect(try db.fetchAll(UntypedRow.self, "SELECT 1 WHERE 0").isEmpty)
        #expect(try db.fetchOne(UntypedRow.self, "SELECT 1 AS a, 2 AS b")?.columnNames == ["a", "b"])
        let statement = try db.prepare("SELECT ? AS x")
        #expect(try statement.fetchAll(UntypedRow.self, [Data([1])]).first?.values == [.blob([1])])
        #expect(try statement.fetchAll(UntypedRow.self, [nil]).first?.values == [.null])
    }

    @Test("untyped rows are plain values that can be built, compared and sent")
    func values() async throws {
        let row = try UntypedRow(columnNames: ["a"], values: [.text("x")])
        let sent = await Task { row }.value
        #expect(sent == row)
        #expect(sent["a"] == .text("x"))
    }
}

@Suite struct UntypedRowTypedReadTests {
    private func row() throws -> UntypedRow {
        let db = try Connection.inMemory()
        let row = try db.fetchOne(
            UntypedRow.self, "SELECT 42 AS answer, 'Mars' AS name, NULL AS moons, 2.5 AS ratio, 1 AS dup, 2 AS DUP")
        return try #require(row)
    }

    @Test("row[name, as:] and row[index, as:] read typed values; the untyped subscripts stay")
    func typedReads() throws {
        let row = try row()
        #expect(try row["answer", as: Int.self] == 42)
        #expect(try row["ANSWER", as: Int64.self] == 42)
        #expect(try row["name", as: String.self] == "Mars")
        #expect(try row["moons", as: Int?.self] == nil)
        #expect(try row["ratio", as: Double.self] == 2.5)
        #expect(try row[1, as: String.self] == "Mars")
        #expect(try row[0, as: Double.self] == 42)
        #expect(try row[2, as: SQLiteValue.self] == .null)
        #expect(row["answer"] == .integer(42) && row[1] == .text("Mars"))
    }

    @Test("a typed read of a missing, ambiguous or mistyped column throws naming the column")
    func typedReadErrors() throws {
        let row = try row()
        let missing = try requireSQLiteError { try row["planet", as: String.self] }
        #expect(missing.kind == .conversionFailed && missing.column == "planet")
        #expect(missing.message.contains(#"no column named "planet" (it has answer, name, moons, ratio, dup, DUP)"#))
        let ambiguous = try requireSQLiteError { try row["dup", as: Int.self] }
        #expect(ambiguous.kind == .conversionFailed && ambiguous.column == "dup")
        #expect(ambiguous.message.contains("2 columns"))
        let mistyped = try requireSQLiteError { try row["name", as: Int.self] }
        #expect(mistyped.kind == .conversionFailed && mistyped.column == "name")
        let null = try requireSQLiteError { try row["moons", as: Int.self] }
        #expect(null.kind == .conversionFailed && null.column == "moons")
        #expect(null.message.contains("NULL"))
        let real = try requireSQLiteError { try row[3, as: Int.self] }
        #expect(real.kind == .conversionFailed && real.column == "ratio")
        let outOfRange = try requireSQLiteError { try row[6, as: Int.self] }
        #expect(outOfRange.kind == .conversionFailed && outOfRange.message.contains("out of range"))
        #expect(throws: SQLiteError.self) { try row[-1, as: Int.self] }
    }
}
