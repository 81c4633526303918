import SQLiteSwiftly
import Testing

/// A row type whose `init(row:)` runs the statement it is read from again: a misuse that must throw, never
/// restart the outer run under its row or read through the column map of another row type.
private struct Reentrant: RowDecodable {
    /// What `init(row:)` runs; set by the serialized tests below only.
    nonisolated(unsafe) static var action: ((Statement) throws -> Void)?
    nonisolated(unsafe) static var statement: Statement?

    var x: Int
    var y: Int

    init(row: borrowing Row) throws {
        x = try row[0]
        if let action = Self.action, let statement = Self.statement { try action(statement) }
        y = try row[1]
    }
}

/// Reads the same columns in the other order, through a column map.
private struct Swapped: RowDecodable {
    static let expectedColumnNames: [String]? = ["y", "x"]
    var y: Int
    init(row: borrowing Row) throws { y = try row[0] }
}

@Suite(.serialized) struct RowLendingTests {
    func database() throws -> (Connection, Statement) {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x INTEGER, y INTEGER)")
        try db.execute("INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)")
        return (db, try db.prepare("SELECT x, y FROM t ORDER BY x"))
    }

    func expectRefused(_ body: () throws -> Void) {
        do {
            try body()
            Issue.record("running the statement again from init(row:) was not refused")
        } catch let error as SQLiteError {
            #expect(error.kind == .misuse)
            #expect(error.message.contains("cannot run it again"))
            #expect(error.sql == "SELECT x, y FROM t ORDER BY x")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test(
        "running the same statement inside init(row:) throws misuse; the statement then reads correctly",
        arguments: ["fetchAll", "fetchOne", "execute", "cursor"])
    func refusedInside(_ inner: String) throws {
        let (_, statement) = try database()
        Reentrant.statement = statement
        Reentrant.action = { statement in
            switch inner {
            case "fetchAll": _ = try statement.fetchAll(Swapped.self)
            case "fetchOne": _ = try statement.fetchOne(Swapped.self)
            case "execute": try statement.execute()
            default: _ = try statement.fetchCursor(Swapped.self).next()
            }
        }
        defer { (Reentrant.action, Reentrant.statement) = (nil, nil) }
        expectRefused { _ = try statement.fetchAll(Reentrant.self) }
        expectRefused { _ = try statement.fetchOne(Reentrant.self) }
        expectRefused { _ = try statement.fetchCursor(Reentrant.self).next() }
        Reentrant.action = nil
        #expect(try statement.fetchAll(Reentrant.self).map { [$0.x, $0.y] } == [[1, 10], [2, 20], [3, 30]])
        #expect(try statement.fetchAll(Swapped.self).map(\.y) == [10, 20, 30])
    }

    @Test("a cursor's next() called while one of its own rows decodes throws misuse and ends that cursor")
    func cursorNextInside() throws {
        let (_, statement) = try database()
        let cursor = try statement.fetchCursor(Reentrant.self)
        Reentrant.statement = statement
        Reentrant.action = { _ in _ = try cursor.next() }
        defer { (Reentrant.action, Reentrant.statement) = (nil, nil) }
        expectRefused { _ = try cursor.next() }
        Reentrant.action = nil
        // The failed decoding ended the cursor; a new one reads every row.
        #expect(try cursor.next() == nil)
        var rows: [[Int]] = []
        try statement.fetchCursor(Reentrant.self).forEach { rows.append([$0.x, $0.y]) }
        #expect(rows == [[1, 10], [2, 20], [3, 30]])
    }

    @Test("the connection's other statements, and the same SQL text through the cache, still run inside init(row:)")
    func otherStatementsRun() throws {
        let (db, statement) = try database()
        var counts: [Int] = []
        Reentrant.statement = statement
        Reentrant.action = { _ in
            counts.append(try db.fetchValue(Int.self, "SELECT count(*) FROM t") ?? -1)
            counts.append(try db.fetchAll(Swapped.self, "SELECT x, y FROM t ORDER BY x").count)
        }
        defer { (Reentrant.action, Reentrant.statement) = (nil, nil) }
        let rows = try db.fetchAll(Reentrant.self, "SELECT x, y FROM t ORDER BY x")
        #expect(rows.map { [$0.x, $0.y] } == [[1, 10], [2, 20], [3, 30]])
        #expect(counts == [3, 3, 3, 3, 3, 3])
    }
}
