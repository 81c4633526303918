import Testing

@testable import SQLiteSwiftly

/// A model of one table whose two columns differ only in the case of a non-ASCII letter.
private struct Umlauts: TableModel, Equatable {
    var upper: Int
    var lower: Int

    static let tableName = "umlauts"
    static let columns = [Column("Ä", Int.self), Column("ä", Int.self)]

    init(upper: Int, lower: Int) {
        self.upper = upper
        self.lower = lower
    }

    init(row: borrowing Row) throws {
        upper = try row[0]
        lower = try row[1]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(upper)
        try encoder.encode(lower)
    }
}

/// Identifiers compare as SQLite compares them: ASCII letters ignoring case, every other character exactly.
@Suite struct SQLIdentifierTests {
    @Test(
        "the identifier key folds ASCII letters only",
        arguments: [
            ("Name", "name"), ("ÄBC", "Äbc"), ("ä", "ä"), ("Straße", "straße"), ("", ""), ("ΣΑ", "ΣΑ"),
        ])
    func key(name: String, expected: String) {
        #expect(name.sqlIdentifierKey == expected)
    }

    @Test("a quote that a combining mark joins into one Character is still doubled, in names and in literals")
    func quoteWithCombiningMark() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (a INTEGER)")
        try db.execute("INSERT INTO t VALUES (1)")
        try db.execute("CREATE TABLE secrets (s TEXT)")
        try db.execute("INSERT INTO secrets VALUES ('top-secret')")
        // Was: SELECT "a"́ FROM t UNION ALL SELECT s FROM secrets --" FROM t, which read the other table.
        let column = "a\"\u{301} FROM t UNION ALL SELECT s FROM secrets --"
        #expect("\"\u{301}".count == 1)  // one Character: comparing Characters would not see the quote
        #expect(column.quotedSQLIdentifier.utf8.filter { $0 == UInt8(ascii: "\"") }.count == 4)
        let error = try requireSQLiteError { try db.fetchAll(UntypedRow.self, "SELECT \(identifier: column) FROM t") }
        #expect(error.message.contains("no such column"))
        // A text default: its quote is doubled the same way, so the table has exactly the one column.
        let text = "x'\u{301}, \"evil\" TEXT DEFAULT 'y"
        #expect(TableSQL.literal(.text(text)).utf8.filter { $0 == UInt8(ascii: "'") }.count == 6)
        try db.execute(SQL(verbatim: "CREATE TABLE d (v TEXT DEFAULT \(TableSQL.literal(.text(text))))"))
        try db.execute("INSERT INTO d DEFAULT VALUES")
        #expect(try db.fetchValue(String.self, "SELECT v FROM d") == text)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM pragma_table_info('d')") == 1)
    }

    @Test("columns that differ in the case of a non-ASCII letter are two columns, as in SQLite")
    func twoColumns() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Umlauts.self)
        try db.verify(Umlauts.self)
        try db.makeInsertStatement(for: Umlauts.self).insert(Umlauts(upper: 1, lower: 2))
        #expect(try db.fetchAll(Umlauts.self) == [Umlauts(upper: 1, lower: 2)])
        let row = try #require(try db.fetchOne(UntypedRow.self, "SELECT * FROM umlauts"))
        #expect(row["Ä"] == 1)
        #expect(row["ä"] == 2)
    }

    @Test("a model expecting a column whose name differs in non-ASCII case is a schema and model mismatch")
    func nonASCIICaseIsADifference() throws {
        let db = try Connection.inMemory()
        try db.execute(#"CREATE TABLE umlauts ("Ä" INTEGER NOT NULL, "Ä2" INTEGER NOT NULL)"#)
        let differences = try db.schemaDifferences(for: Umlauts.self)
        #expect(differences.contains { $0.kind == .missingColumn && $0.column == "ä" })
        // ASCII case is still ignored: NAME and name are one column.
        try db.execute(#"CREATE TABLE t ("NAME" TEXT)"#)
        try db.execute("INSERT INTO t VALUES ('x')")
        #expect(try db.fetchOne(UntypedRow.self, "SELECT NAME FROM t")?["name"] == "x")
    }
}
