import Testing

@testable import SQLiteSwiftly

/// The analysis behind row-level regions, on SQLite's own programs: which rows of which tables a statement reads
/// (``ChangeTracker/rowsRead(byStatement:)``), which written tables' rows the update hook may miss, and how regions
/// combine.
@Suite struct RowRegionAnalysisTests {
    private static let schema = """
        CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, v INTEGER);
        CREATE TABLE a (id INTEGER PRIMARY KEY, b_id INTEGER);
        CREATE TABLE b (id INTEGER PRIMARY KEY, x TEXT);
        CREATE TABLE w (k TEXT PRIMARY KEY, v INTEGER) WITHOUT ROWID;
        CREATE TABLE log (x INTEGER);
        CREATE TABLE counters (id INTEGER PRIMARY KEY AUTOINCREMENT, n INTEGER);
        CREATE TABLE parents (id INTEGER PRIMARY KEY);
        CREATE TABLE children (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parents(id) ON DELETE CASCADE);
        CREATE TRIGGER zap AFTER INSERT ON log BEGIN DELETE FROM t WHERE id = new.x; END;
        CREATE VIEW five AS SELECT * FROM t WHERE id = 5;
        CREATE TEMP TABLE scratch (id INTEGER PRIMARY KEY, v INTEGER);
        """

    private func makeConnection() throws -> Connection {
        let db = try Connection.inMemory()
        try db.executeScript(SQL(verbatim: Self.schema))
        return db
    }

    @Test(
        "reads by rowid narrow to the rowids; anything else reads the table whole",
        arguments: [
            ("SELECT * FROM t WHERE id = 5", ["t": [5]]),
            ("SELECT * FROM t WHERE rowid = 5", ["t": [5]]),
            ("SELECT * FROM t WHERE id IN (1, 2, 3)", ["t": [1, 2, 3]]),
            ("SELECT * FROM t WHERE id = 1 OR id = 2", ["t": [1, 2]]),
            ("SELECT * FROM t WHERE id = -5", ["t": [-5]]),
            ("SELECT * FROM t WHERE id = 5000000000", ["t": [5_000_000_000]]),
            ("SELECT * FROM t WHERE id = -9223372036854775808", ["t": [Int64.min]]),
            ("SELECT * FROM t WHERE id = NULL", ["t": []]),
            ("SELECT * FROM t WHERE id = 5 AND v > 3", ["t": [5]]),
            ("SELECT count(*) FROM t WHERE id = 4", ["t": [4]]),
            ("SELECT name FROM t WHERE id IN (1, 2) ORDER BY name LIMIT 1", ["t": [1, 2]]),
            ("SELECT (SELECT x FROM b WHERE id = 1), v FROM t WHERE id = 2 LIMIT 1 OFFSET 0", ["b": [1], "t": [2]]),
            ("SELECT * FROM a JOIN b ON b.id = a.b_id WHERE a.id = 3", ["a": [3]]),
            ("SELECT * FROM t WHERE id = (SELECT b_id FROM a WHERE id = 1)", ["a": [1]]),
            ("SELECT * FROM t WHERE id IN (SELECT 5)", ["t": [5]]),
            ("SELECT * FROM five", ["t": [5]]),
            ("SELECT * FROM t WHERE id = '5'", [:]),
            ("SELECT * FROM t WHERE id = 5.0", [:]),
            ("SELECT * FROM t WHERE id = x'05'", [:]),
            ("SELECT * FROM t WHERE id = 2 + 3", [:]),
            ("SELECT * FROM t WHERE rowid IN (SELECT id FROM a)", [:]),
            ("SELECT * FROM t WHERE id BETWEEN 1 AND 3", [:]),
            ("SELECT * FROM t", [:]),
            ("SELECT max(id) FROM t", [:]),
            ("SELECT v FROM t WHERE name = 'x'", [:]),
            ("SELECT * FROM w WHERE k = 'a'", [:]),
            ("SELECT * FROM scratch WHERE id = 1", [:]),
            ("SELECT * FROM t WHERE id = 1 UNION ALL SELECT * FROM t", [:]),
            (
                "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 3) "
                    + "SELECT * FROM t WHERE id IN c", [:]
            ),
        ] as [(String, [String: Set<Int64>])])
    func reads(sql: String, expected: [String: Set<Int64>]) throws {
        let db = try makeConnection()
        #expect(db.changeTracker.rowsRead(byStatement: sql) == expected)
    }

    /// The written tables whose changed rows the update hook may not all report when `sql` runs.
    private func unreported(_ db: Connection, _ sql: String, written: Set<String>) throws -> Set<String> {
        let program = try #require(db.changeTracker.explain(sql))
        let schema = ProgramAnalysis.schemaCookie(of: program).flatMap { db.changeTracker.schemaObjects(cookie: $0) }
        return ProgramAnalysis.tablesWithUnreportedRows(program, written: written, schema: schema)
    }

    @Test(
        "writes whose rows the update hook may miss are known",
        arguments: [
            ("DELETE FROM t WHERE id = 3", [], []),
            ("DELETE FROM t WHERE v > 3", [], []),
            ("UPDATE t SET v = 2 WHERE id = 5", [], []),
            ("INSERT INTO t (name) VALUES ('q')", [], []),
            ("INSERT INTO t (id, name) VALUES (3, 'x') ON CONFLICT (id) DO UPDATE SET v = 1", [], []),
            ("INSERT INTO counters (n) VALUES (1)", ["sqlite_sequence"], []),
            ("INSERT OR REPLACE INTO t (id, name) VALUES (3, 'x')", [], ["t"]),
            ("UPDATE t SET id = 9 WHERE id = 5", [], ["t"]),
            ("DELETE FROM t", [], ["t"]),
            ("INSERT INTO log VALUES (5)", ["t"], ["log", "t"]),
            ("DELETE FROM parents WHERE id = 1", ["children"], ["parents", "children"]),
            ("INSERT INTO scratch VALUES (1, 1)", [], ["scratch"]),
        ] as [(String, [String], Set<String>)])
    func writes(sql: String, alsoWritten: [String], expected: Set<String>) throws {
        let db = try makeConnection()
        let target = sql.split(separator: " ").first { ["t", "log", "parents", "counters", "scratch"].contains($0) }
        let written = Set(alsoWritten + [String(try #require(target))])
        #expect(try unreported(db, sql, written: written) == expected)
    }

    @Test("a recorded fetch through a Connection narrows to the bound rowids, and widens where a statement reads whole")
    func recording() throws {
        let db = try makeConnection()
        let tracker = db.changeTracker
        tracker.startRecording()
        for id in [Int64(4), 8] {
            _ = try db.fetchValue(String.self, "SELECT name FROM t WHERE id = \(id)")
        }
        _ = try db.fetchValue(String.self, "SELECT x FROM b WHERE id = \(2.0)")
        let narrowed = tracker.stopRecording()
        #expect(narrowed.tables == ["t", "b"])
        #expect(narrowed.rows == ["t": [4, 8]])
        tracker.startRecording()
        _ = try db.fetchValue(String.self, "SELECT name FROM t WHERE id = \(4)")
        _ = try db.fetchValue(Int.self, "SELECT count(*) FROM t")
        let whole = tracker.stopRecording()
        #expect(whole.tables == ["t"])
        #expect(whole.rows.isEmpty)
    }

    @Test("regions widen in a union and intersect by rows only where both are narrowed")
    func regionAlgebra() {
        var region = ObservedRegion(tables: ["t", "u"], rows: ["t": [1, 2]])
        region.formUnion(ObservedRegion(tables: ["t"], rows: ["t": [3]]))
        #expect(region.rows == ["t": [1, 2, 3]])
        region.formUnion(ObservedRegion(tables: ["v"], rows: ["v": [9]]))
        #expect(region.rows == ["t": [1, 2, 3], "v": [9]])
        region.formUnion(ObservedRegion(tables: ["t"]))
        #expect(region.tables == ["t", "u", "v"])
        #expect(region.rows == ["v": [9]])
        var empty = ObservedRegion()
        empty.formUnion(region)
        #expect(empty == region)

        let read = ObservedRegion(tables: ["t", "a"], rows: ["t": [5]])
        #expect(!read.intersects(ObservedRegion(tables: ["t"], rows: ["t": [6, 7]])))
        #expect(read.intersects(ObservedRegion(tables: ["t"], rows: ["t": [5]])))
        #expect(read.intersects(ObservedRegion(tables: ["t"])))
        #expect(read.intersects(ObservedRegion(tables: ["a"], rows: ["a": [1]])))
        #expect(!read.intersects(ObservedRegion(tables: ["b"])))
        #expect(read.intersects(ObservedRegion(isEverything: true)))
        #expect(!read.intersects(ObservedRegion()))
    }

    @Test("an unknown instruction, a sub-program or a cursor reopened as something else narrows nothing")
    func conservative() {
        typealias I = ProgramAnalysis.Instruction
        let schema = [Int32(2): ProgramAnalysis.SchemaObject(table: "t", isTable: true)]
        let seek: [I] = [
            I(0, "Init", 0, 5, 0, "", 0), I(1, "OpenRead", 0, 2, 0, "3", 0), I(2, "Integer", 5, 1, 0, "", 0),
            I(3, "SeekRowid", 0, 4, 1, "", 0), I(4, "Halt", 0, 0, 0, "", 0), I(5, "Transaction", 0, 0, 1, "0", 1),
        ]
        #expect(ProgramAnalysis.rowsRead(by: seek, schema: schema) == ["t": [5]])
        #expect(ProgramAnalysis.rowsRead(by: seek + [I(6, "Variable", 1, 1, 0, "", 0)], schema: schema).isEmpty)
        #expect(ProgramAnalysis.rowsRead(by: seek + [I(6, "Real", 0, 1, 0, "5", 0)], schema: schema).isEmpty)
        #expect(ProgramAnalysis.rowsRead(by: seek + [I(0, "Init", 0, 1, 0, "", 0)], schema: schema).isEmpty)
        #expect(ProgramAnalysis.rowsRead(by: seek + [I(6, "OpenEphemeral", 0, 1, 0, "", 0)], schema: schema).isEmpty)
        #expect(ProgramAnalysis.rowsRead(by: seek + [I(6, "Column", 9, 0, 1, "", 0)], schema: schema).isEmpty)
        #expect(ProgramAnalysis.rowsRead(by: seek + [I(6, "Add", 1, 1, 1, "", 0)], schema: schema).isEmpty)
        #expect(ProgramAnalysis.rowsRead(by: seek + [I(6, "Next", 0, 1, 0, "", 0)], schema: schema).isEmpty)
        #expect(ProgramAnalysis.rowsRead(by: seek, schema: [:]).isEmpty)
    }
}
