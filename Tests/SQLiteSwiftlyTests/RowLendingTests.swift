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

/// A model whose `encode(to:)` inserts through the insert statement it is being inserted with.
private struct Pair: TableModel {
    nonisolated(unsafe) static var insert: InsertStatement<Pair>?
    static let tableName = "pairs"
    static let columns = [Column("a", Int.self), Column("b", String.self)]
    var a: Int
    var b: String

    init(a: Int, b: String) { (self.a, self.b) = (a, b) }
    init(row: borrowing Row) throws { (a, b) = (try row[0], try row[1]) }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(a)
        if let insert = Self.insert, a > 0 { try insert.insert(Pair(a: -a, b: "inner")) }
        try encoder.encode(b)
    }
}

/// A value whose `bind(to:)` runs the statement it is being bound to.
private struct Echo: SQLiteValueConvertible {
    nonisolated(unsafe) static var statement: Statement?
    static let declaredType = DeclaredType.integer
    var value: Int
    init(_ value: Int) { self.value = value }
    init(sqliteValue: SQLiteValue) throws(SQLiteError) { value = try Int(sqliteValue: sqliteValue) }
    var sqliteValue: SQLiteValue { .integer(Int64(value)) }
    func bind(to slot: borrowing ParameterSlot) throws(SQLiteError) {
        if let statement = Self.statement {
            do {
                _ = try statement.fetchAll(UntypedRow.self, [0])
            } catch let error as SQLiteError {
                throw error
            } catch {
                throw SQLiteError.conversion("\(error)")
            }
        }
        try value.bind(to: slot)
    }
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

    @Test(
        "an insert from the model's own encode(to:) through the same InsertStatement throws misuse; no row is written")
    func insertInsideEncode() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Pair.self)
        let insert = try db.makeInsertStatement(for: Pair.self)
        Pair.insert = insert
        defer { Pair.insert = nil }
        do {
            try insert.insert(Pair(a: 1, b: "outer"))
            Issue.record("the inner insert was not refused")
        } catch let error as SQLiteError {
            #expect(error.kind == .misuse)
            #expect(error.message.contains("cannot run it again"))
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM pairs") == 0)
        Pair.insert = nil
        try insert.insert(Pair(a: 2, b: "after"))
        #expect(try db.fetchAll(Pair.self).map(\.b) == ["after"])
    }

    @Test("a value's bind(to:) that runs the statement it is bound to throws misuse, for reads and a write")
    func runInsideBind() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x INTEGER)")
        try db.execute("INSERT INTO t VALUES (1), (2)")
        let statement = try db.prepare("SELECT x FROM t WHERE x > ?")
        Echo.statement = statement
        defer { Echo.statement = nil }
        // (Arguments passed as a list are converted to `SQLiteValue`s first: no `bind(to:)` of theirs runs.)
        let runs: [(String, () throws -> Void)] = [
            ("fetchAll", { _ = try statement.fetchAll(UntypedRow.self, binding: Echo(0)) }),
            ("fetchOne", { _ = try statement.fetchOne(UntypedRow.self, binding: Echo(0)) }),
            ("execute", { _ = try statement.execute(binding: Echo(0)) }),
        ]
        for (name, run) in runs {
            do {
                try run()
                Issue.record("\(name): running the statement from bind(to:) was not refused")
            } catch let error as SQLiteError {
                #expect(error.kind == .misuse, "\(name)")
                #expect(error.message.contains("cannot run it again"), "\(name)")
            }
        }
        Echo.statement = nil
        #expect(try statement.fetchAll(UntypedRow.self, binding: Echo(1)).count == 1)
    }
}
