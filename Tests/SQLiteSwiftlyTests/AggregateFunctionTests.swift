import SQLiteSwiftly
import Synchronization
import Testing

struct SumOfIntegers: AggregateFunction {
    var total = 0
    mutating func step(_ arguments: borrowing FunctionArguments) throws {
        total += try arguments[0] as Int
    }
    func finalize() -> Int { total }
}

/// Counts the values of each group; fails on a negative one, in `step`, `inverse` or `value` as asked.
struct Picky: WindowFunction {
    static let live = Atomic<Int>(0)
    var values: [Int] = []
    let token = LiveCount()

    mutating func step(_ arguments: borrowing FunctionArguments) throws {
        let value: Int = try arguments[0]
        if value == -1 { throw SomeFailure() }
        values.append(value)
    }

    mutating func inverse(_ arguments: borrowing FunctionArguments) throws {
        let value: Int = try arguments[0]
        if value == -2 { throw SomeFailure() }
        values.removeFirst()
    }

    func value() throws -> Int {
        if values.contains(-3) { throw SomeFailure() }
        return values.count
    }

    func finalize() throws -> Int {
        if values.contains(-4) { throw SomeFailure() }
        return values.count
    }
}

/// Counts the live aggregate values of ``Picky``, to see that every one is freed.
final class LiveCount: Sendable {
    init() { Picky.live.add(1, ordering: .sequentiallyConsistent) }
    deinit { Picky.live.add(-1, ordering: .sequentiallyConsistent) }
}

struct MovingAverage: WindowFunction {
    var sum = 0.0
    var count = 0
    mutating func step(_ arguments: borrowing FunctionArguments) throws {
        sum += try arguments[0] as Double
        count += 1
    }
    mutating func inverse(_ arguments: borrowing FunctionArguments) throws {
        sum -= try arguments[0] as Double
        count -= 1
    }
    func value() -> Double? { count == 0 ? nil : sum / Double(count) }
    func finalize() -> Double? { value() }
}

/// Serialized: two tests count the live values of one type.
@Suite(.serialized) struct AggregateFunctionTests {
    static var liveValues: Int { Picky.live.load(ordering: .sequentiallyConsistent) }

    func numbers(_ values: [Int]) throws -> Connection {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, grp TEXT, v INTEGER)")
        for (index, value) in values.enumerated() {
            try db.execute("INSERT INTO t (grp, v) VALUES (\(index % 2 == 0 ? "even" : "odd"), \(value))")
        }
        return db
    }

    @Test("an aggregate gets a fresh value per group and per run, and a fresh one for zero rows")
    func aggregate() throws {
        let db = try numbers(Array(1...10))
        try db.add(function: SQLFunction("mysum", argumentCount: 1, aggregate: SumOfIntegers.self))
        #expect(try db.fetchValue(Int.self, "SELECT mysum(v) FROM t") == 55)
        #expect(try db.fetchValue(Int.self, "SELECT mysum(v) FROM t") == 55)
        let groups = try db.fetchAll(UntypedRow.self, "SELECT grp, mysum(v) FROM t GROUP BY grp ORDER BY grp")
        #expect(groups.map(\.values) == [["even", 25], ["odd", 30]])
        #expect(try db.fetchValue(Int.self, "SELECT mysum(v) FROM t WHERE v > 100") == 0)
        let wrongType = try #require(capturedError { try db.fetchValue(Int.self, "SELECT mysum(grp) FROM t") })
        #expect(wrongType.kind == .functionFailed)
        #expect(wrongType.function == "mysum")
        #expect(wrongType.message == "argument 1: expected INTEGER, found TEXT")
    }

    @Test("a window function matches SQLite's own sum over sliding frames")
    func window() throws {
        let db = try numbers([4, 8, 15, 16, 23, 42, 7])
        try db.add(function: SQLFunction("moving_avg", argumentCount: 1, window: MovingAverage.self))
        let sql: SQL = """
            SELECT moving_avg(v) OVER w, avg(v) OVER w FROM t
            WINDOW w AS (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) ORDER BY id
            """
        let rows = try db.fetchAll(UntypedRow.self, sql)
        #expect(rows.count == 7)
        for row in rows { #expect(row[0] == row[1]) }
        let partitioned = try db.fetchAll(
            UntypedRow.self,
            "SELECT moving_avg(v) OVER (PARTITION BY grp), avg(v) OVER (PARTITION BY grp) FROM t ORDER BY id")
        for row in partitioned { #expect(row[0] == row[1]) }
        // Also usable as a plain aggregate, with NULL for no rows.
        #expect(try db.fetchValue(Double?.self, "SELECT moving_avg(v) FROM t WHERE v < 0") == .some(nil))
    }

    @Test("errors in step, inverse, value and finalize fail the statement, and every value is freed")
    func failures() throws {
        let db = try numbers([1, 2, 3, 4, 5])
        try db.add(function: SQLFunction("picky", argumentCount: 1, window: Picky.self))
        #expect(try db.fetchValue(Int.self, "SELECT picky(v) FROM t") == 5)
        for bad in [-1, -2, -3, -4] {
            try db.execute("UPDATE t SET v = \(bad) WHERE id = 2")
            for sql: SQL in [
                "SELECT picky(v) FROM t",
                "SELECT picky(v) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t",
            ] {
                do {
                    _ = try db.fetchAll(UntypedRow.self, sql)
                    // -2 fails only in inverse and -3 only in value, which a plain aggregate never calls.
                    #expect(bad == -2 || bad == -3 || (bad == -4 && sql.text.contains("OVER")))
                } catch let error as SQLiteError {
                    #expect(error.kind == .functionFailed)
                    #expect(error.function == "picky")
                    #expect(error.message == "the score is out of range")
                    #expect(error.sql == sql.text)
                }
            }
        }
        #expect(Self.liveValues == 0)
        try db.execute("UPDATE t SET v = 2 WHERE id = 2")
        #expect(try db.fetchValue(Int.self, "SELECT picky(v) FROM t") == 5)
        #expect(Self.liveValues == 0)
    }

    @Test("an aggregate interrupted mid-group frees its value")
    func interruptedAggregate() throws {
        let db = try Connection.inMemory()
        let handle = db.interruptHandle
        try db.add(
            function: SQLFunction("stop_at") { (value: Int) in
                if value == 1000 { handle.interrupt() }
                return value
            })
        try db.add(function: SQLFunction("picky", argumentCount: 1, window: Picky.self))
        let sql: SQL =
            "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 5000) SELECT picky(stop_at(x)) FROM n"
        let error = try #require(capturedError { try db.fetchValue(Int.self, sql) })
        #expect(error.code == .interrupt)
        #expect(Self.liveValues == 0)
    }
}
