import SQLiteSwiftly
import Testing

/// A row type of one integer column named `n`.
private struct Number: RowDecodable, Equatable {
    static let expectedColumnNames: [String]? = ["n"]
    var n: Int

    init(n: Int) {
        self.n = n
    }

    init(row: borrowing Row) throws {
        n = try row[0]
    }
}

@Suite struct ReadingTests {
    /// A table `numbers (n)` holding 1...count.
    private func numbers(_ count: Int) throws -> Connection {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE numbers (n)")
        try db.execute(
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) "
                + "INSERT INTO numbers SELECT x FROM c", [count])
        return db
    }

    @Test("readAll with a WHERE clause and arguments returns the matching models in order")
    func readAllWhere() throws {
        let db = try planetsDatabase()
        let far = try db.fetchAll(TestPlanet.self, where: "au > ? ORDER BY au DESC", [0.5])
        #expect(far.map(\.name) == ["Mars", "Earth", "Venus"])
        let none = try db.fetchAll(TestPlanet.self, where: "name = ?", ["Pluto"])
        #expect(none.isEmpty)
        #expect(try db.fetchAll(TestPlanet.self) == TestPlanet.inner)
    }

    @Test("readOne returns the first match, or nil when there is none")
    func readOne() throws {
        let db = try planetsDatabase()
        #expect(try db.fetchOne(TestPlanet.self, where: "name = :name", ["name": "Earth"]) == TestPlanet.inner[2])
        #expect(try db.fetchOne(TestPlanet.self, where: "name = ?", ["Pluto"]) == nil)
        #expect(try db.fetchOne(TestPlanet.self, "SELECT * FROM test_planets WHERE id > 9") == nil)
    }

    @Test("readAll with a bad argument count fails with parameterMismatch")
    func readAllMismatch() throws {
        let db = try planetsDatabase()
        let error = try #require(throws: SQLiteError.self) {
            try db.fetchAll(TestPlanet.self, where: "au > ?", [])
        }
        #expect(error.kind == .parameterMismatch)
    }

    @Test("fetchValue reads COUNT(*), a NULL as nil for optionals, and nil when there is no row")
    func fetchValue() throws {
        let db = try planetsDatabase()
        #expect(try db.fetchValue(Int.self, "SELECT COUNT(*) FROM test_planets") == 4)
        #expect(try db.fetchValue(Int.self, "SELECT COUNT(*) FROM test_planets WHERE moons IS NULL") == 1)
        #expect(try db.fetchValue(String.self, "SELECT name FROM test_planets WHERE id = ?", [2]) == "Venus")
        #expect(try db.fetchValue(String.self, "SELECT name FROM test_planets WHERE id = 99") == nil)
        #expect(try db.fetchValue(Int?.self, "SELECT moons FROM test_planets WHERE id = 4") == .some(nil))
    }

    @Test("fetchValue refuses NULL for a non-optional type and statements without columns")
    func fetchValueErrors() throws {
        let db = try planetsDatabase()
        let null = try #require(throws: SQLiteError.self) {
            try db.fetchValue(Int.self, "SELECT moons FROM test_planets WHERE id = 4")
        }
        #expect(null.kind == .conversionFailed)
        let noColumn = try #require(throws: SQLiteError.self) {
            try db.fetchValue(Int.self, "DELETE FROM test_planets")
        }
        #expect(noColumn.kind == .modelMismatch)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets") == 4)  // the DELETE never ran
    }

    @Test("a cursor streams every row in order, then returns nil")
    func cursorStreams() throws {
        let db = try numbers(1000)
        let cursor = try db.fetchCursor(Number.self, "SELECT n FROM numbers ORDER BY n")
        var expected = 1
        while let number = try cursor.next() {
            #expect(number.n == expected)
            expected += 1
        }
        #expect(expected == 1001)
        #expect(try cursor.next() == nil)
        var sum = 0
        try db.fetchCursor(Number.self, "SELECT n FROM numbers WHERE n <= ?", [10]).forEach { sum += $0.n }
        #expect(sum == 55)
    }

    @Test("a cursor stopped early leaves the connection usable: writes and commits work")
    func cursorStoppedEarly() throws {
        let directory = try TemporaryDirectory()
        let db = try Connection(creating: directory.path("db.sqlite"))
        try db.execute("CREATE TABLE numbers (n)")
        for n in 1...10 { try db.execute("INSERT INTO numbers VALUES (?)", [n]) }
        var cursor: Cursor<Number>? = try db.fetchCursor(Number.self, "SELECT n FROM numbers ORDER BY n")
        #expect(try cursor?.next() == Number(n: 1))
        #expect(try cursor?.next() == Number(n: 2))
        cursor?.close()
        #expect(try cursor?.next() == nil)
        cursor = nil
        // Another cursor, dropped without close().
        do {
            let other = try db.fetchCursor(Number.self, "SELECT n FROM numbers")
            _ = try other.next()
        }
        try db.transaction { try db.execute("DELETE FROM numbers WHERE n > 5") }
        // No read lock is left: another connection can write.
        let writer = try Connection(
            opening: directory.path("db.sqlite"), options: .init(busyTimeout: .milliseconds(50)))
        try writer.execute("DELETE FROM numbers WHERE n > 3")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM numbers") == 3)
    }

    @Test("other queries run while a cursor is open")
    func queriesDuringCursor() throws {
        let db = try numbers(5)
        let cursor = try db.fetchCursor(Number.self, "SELECT n FROM numbers ORDER BY n")
        var seen: [Int] = []
        while let number = try cursor.next() {
            seen.append(number.n)
            #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM numbers WHERE n <= ?", [number.n]) == number.n)
        }
        #expect(seen == [1, 2, 3, 4, 5])
    }

    @Test("a cursor whose prepared statement runs again ends with a misuse error, and the statement's run is intact")
    func cursorRestarted() throws {
        let db = try numbers(5)
        let statement = try db.prepare("SELECT n FROM numbers WHERE n >= ? ORDER BY n")
        let cursor = try statement.fetchCursor(Number.self, [2])
        #expect(try cursor.next() == Number(n: 2))
        #expect(try statement.fetchAll(Number.self, binding: 4) == [Number(n: 4), Number(n: 5)])
        let error = try requireSQLiteError { try cursor.next() }
        #expect(error.kind == .misuse)
        #expect(error.message.contains("run again while this cursor was open"))
        #expect(error.sql == "SELECT n FROM numbers WHERE n >= ? ORDER BY n")
        #expect(try cursor.next() == nil)
        #expect(try statement.fetchValue(Int.self, binding: 3) == 3)
    }

    @Test("a conversion error mid-way is thrown by the cursor, not trapped, and ends it")
    func cursorConversionError() throws {
        let db = try numbers(5)
        try db.execute("UPDATE numbers SET n = 'three' WHERE n = 3")
        let cursor = try db.fetchCursor(Number.self, "SELECT n FROM numbers ORDER BY rowid")
        #expect(try cursor.next() == Number(n: 1))
        #expect(try cursor.next() == Number(n: 2))
        do {
            _ = try cursor.next()
            Issue.record("row 3 should not convert")
        } catch let error as SQLiteError {
            #expect(error.kind == .conversionFailed)
            #expect(error.row == 3)
        }
        #expect(try cursor.next() == nil)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM numbers") == 5)
    }

    @Test("an interrupt makes the cursor throw, and the connection stays usable")
    func cursorInterrupted() throws {
        let db = try numbers(100)
        let cursor = try db.fetchCursor(Number.self, "SELECT n FROM numbers")
        #expect(try cursor.next() == Number(n: 1))
        db.interruptHandle.interrupt()
        do {
            _ = try cursor.next()
            Issue.record("the interrupted step should throw")
        } catch let error as SQLiteError {
            #expect(error.code.primary == .interrupt)
        }
        #expect(try cursor.next() == nil)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM numbers") == 100)
    }

    @Test("a step error (a failing function) is thrown by the cursor")
    func cursorStepError() throws {
        let db = try numbers(3)
        let cursor = try db.fetchCursor(
            UntypedRow.self,
            // n - max - 3 is exactly Int64.min for n = 2 only, and abs(Int64.min) overflows.
            "SELECT n, abs(n - 9223372036854775807 - 3) FROM numbers")
        #expect(try cursor.next() != nil)
        let error = try #require(throws: SQLiteError.self) { try cursor.next() }
        #expect(error.kind == .sqlite)
        #expect(try cursor.next() == nil)
    }

    @Test("running a statement again ends its open cursor with misuse")
    func rerunEndsCursor() throws {
        let db = try numbers(5)
        let statement = try db.prepare("SELECT n FROM numbers ORDER BY n")
        let cursor = try statement.fetchCursor(Number.self)
        #expect(try cursor.next() == Number(n: 1))
        #expect(try statement.fetchAll(Number.self).count == 5)
        let error = try #require(throws: SQLiteError.self) { try cursor.next() }
        #expect(error.kind == .misuse)
        #expect(try cursor.next() == nil)
        // A second cursor on the same statement also ends the first.
        let first = try statement.fetchCursor(Number.self)
        let second = try statement.fetchCursor(Number.self)
        #expect(throws: SQLiteError.self) { try first.next() }
        #expect(try second.next() == Number(n: 1))
    }

    @Test("a cursor checks the row type and the arguments before reading any row")
    func cursorChecksFirst() throws {
        let db = try numbers(3)
        let model = try #require(throws: SQLiteError.self) {
            try db.fetchCursor(Number.self, "SELECT n AS m FROM numbers")
        }
        #expect(model.kind == .modelMismatch)
        #expect(model.column == "n")
        let ambiguous = try #require(throws: SQLiteError.self) {
            try db.fetchCursor(Number.self, "SELECT a.n * 10 AS x, a.n, b.n FROM numbers a, numbers b")
        }
        #expect(ambiguous.kind == .modelMismatch)
        #expect(ambiguous.message.contains("2 times"))
        let arguments = try #require(throws: SQLiteError.self) {
            try db.fetchCursor(Number.self, "SELECT n FROM numbers WHERE n > ?", [1, 2])
        }
        #expect(arguments.kind == .parameterMismatch)
        let list = try db.fetchCursor(Number.self, "SELECT n FROM numbers WHERE n IN (\(list: [1, 3])) ORDER BY n")
        #expect(try list.next() == Number(n: 1))
        #expect(try list.next() == Number(n: 3))
        #expect(try list.next() == nil)
    }
}
