import Foundation
import SQLiteSwiftly
import Synchronization
import Testing

/// Runs `body`, which must throw an ``SQLiteError``, and returns that error.
func capturedError<T>(_ body: () throws -> T) -> SQLiteError? {
    do {
        _ = try body()
    } catch let error as SQLiteError {
        return error
    } catch {
        Issue.record("not an SQLiteError: \(error)")
        return nil
    }
    Issue.record("no error was thrown")
    return nil
}

/// A flag set when the value is deinitialized, to see that SQLite released a function's closure.
final class ReleaseFlag: Sendable {
    let released = Atomic<Bool>(false)
}

final class Tracked: Sendable {
    let flag: ReleaseFlag
    init(_ flag: ReleaseFlag) { self.flag = flag }
    deinit { flag.released.store(true, ordering: .sequentiallyConsistent) }
    func value() -> Int { 7 }
}

/// The first column as an integer.
struct FirstInt: RowDecodable, Equatable {
    let value: Int
    init(row: borrowing Row) throws { value = try row[0] }
}

struct SomeFailure: Error, CustomStringConvertible {
    var description: String { "the score is out of range" }
}

@Suite struct FunctionTests {
    @Test("a typed scalar function receives typed arguments and returns a typed result")
    func typedScalar() throws {
        let db = try Connection.inMemory()
        try db.add(function: SQLFunction("plus_one", options: .deterministic) { (value: Int) in value + 1 })
        try db.add(
            function: SQLFunction("describe") { (name: String, count: Int?) -> String? in
                count.map { "\(name): \($0)" }
            })
        try db.add(function: SQLFunction("answer") { () in 42 })
        #expect(try db.fetchValue(Int.self, "SELECT plus_one(41)") == 42)
        #expect(try db.fetchValue(String?.self, "SELECT describe('moons', 2)") == "moons: 2")
        #expect(try db.fetchValue(String?.self, "SELECT describe('moons', NULL)") == .some(nil))
        #expect(try db.fetchValue(Int.self, "SELECT answer()") == 42)
        try db.execute("CREATE TABLE t (a INTEGER)")
        for value in 1...100 { try db.execute("INSERT INTO t VALUES (\(value))") }
        #expect(try db.fetchValue(Int.self, "SELECT sum(plus_one(a)) FROM t") == 5150)
    }

    @Test("results of every standard type are set as their storage class, nil and empty values included")
    func resultTypes() throws {
        let db = try Connection.inMemory()
        try db.add(function: SQLFunction("real") { () in 2.5 })
        try db.add(function: SQLFunction("empty_text") { () in "" })
        try db.add(function: SQLFunction("empty_blob") { () in [UInt8]() })
        try db.add(function: SQLFunction("data") { () in Data([1, 2, 3]) })
        try db.add(function: SQLFunction("yes") { () in true })
        try db.add(function: SQLFunction("no_value") { () -> Int? in nil })
        try db.add(function: SQLFunction("value") { () in SQLiteValue.text("é\0x") })
        try db.add(function: SQLFunction("big") { () in UInt64.max })
        try db.add(function: SQLFunction("nan") { () in Double.nan })
        let row = try #require(
            try db.fetchOne(
                UntypedRow.self,
                "SELECT typeof(real()), typeof(empty_text()), typeof(empty_blob()), length(empty_blob()), "
                    + "hex(data()), yes(), typeof(no_value()), value(), length(CAST(value() AS BLOB))"))
        #expect(row.values == ["real", "text", "blob", 0, "010203", 1, "null", "é\0x", 4])
        let tooBig = try #require(capturedError { try db.fetchValue(Int.self, "SELECT big()") })
        #expect(tooBig.kind == .functionFailed)
        #expect(tooBig.function == "big")
        let nan = try #require(capturedError { try db.fetchValue(Double.self, "SELECT nan()") })
        #expect(nan.kind == .functionFailed)
        #expect(nan.message.contains("NaN"))
    }

    @Test("a function taking any number of arguments reads them through the arguments view")
    func variadic() throws {
        let db = try Connection.inMemory()
        let describe = SQLFunction("kinds") { (arguments: borrowing FunctionArguments) -> String in
            var kinds: [String] = []
            for index in 0..<arguments.count {
                kinds.append(try arguments.storageClass(at: index).rawValue)
            }
            let first = try arguments.withStoredValue(at: 0) { stored in stored.isNull ? "null" : "set" }
            return first + " " + kinds.joined(separator: ",")
        }
        try db.add(function: describe)
        #expect(describe.argumentCount == nil)
        let text = try db.fetchValue(String.self, "SELECT kinds(1, 2.5, 'a', x'00', NULL)")
        #expect(text == "set INTEGER,REAL,TEXT,BLOB,NULL")
        let outOfRange = try #require(capturedError { try db.fetchValue(String.self, "SELECT kinds()") })
        #expect(outOfRange.kind == .functionFailed)
        #expect(outOfRange.message.contains("out of range"))
        try db.add(
            function: SQLFunction("second", argumentCount: 2) { (arguments: borrowing FunctionArguments) in
                try arguments.sqliteValue(at: 1)
            })
        #expect(try db.fetchValue(SQLiteValue.self, "SELECT second(1, 'b')") == "b")
    }

    @Test("a throwing closure fails the statement with the function's name, the error and the SQL")
    func throwingClosure() throws {
        let db = try Connection.inMemory()
        try db.add(
            function: SQLFunction("score") { (value: Int) throws -> Int in
                if value > 10 { throw SomeFailure() }
                return value
            })
        try db.execute("CREATE TABLE t (a INTEGER)")
        try db.execute("INSERT INTO t VALUES (1), (20)")
        let sql = "SELECT score(a) FROM t ORDER BY a"
        let error = try #require(capturedError { try db.fetchAll(UntypedRow.self, SQL(verbatim: sql)) })
        #expect(error.kind == .functionFailed)
        #expect(error.function == "score")
        #expect(error.message == "the score is out of range")
        #expect(error.sql == sql)
        #expect(error.code == .error)
        #expect(error.description.contains("function score"))
        // The connection and the statement stay usable.
        #expect(try db.fetchValue(Int.self, "SELECT score(3)") == 3)
        let script = capturedError { try db.executeScript("SELECT 1; SELECT score(11);") }
        #expect(script?.kind == .functionFailed)
        #expect(script?.function == "score")
    }

    @Test("an argument of the wrong type is a function error naming the argument, never a crash")
    func wrongArgumentType() throws {
        let db = try Connection.inMemory()
        try db.add(function: SQLFunction("twice") { (value: Int) in value * 2 })
        let text = try #require(capturedError { try db.fetchValue(Int.self, "SELECT twice('x')") })
        #expect(text.kind == .functionFailed)
        #expect(text.message == "argument 1: expected INTEGER, found TEXT")
        let null = try #require(capturedError { try db.fetchValue(Int.self, "SELECT twice(NULL)") })
        #expect(null.message == "argument 1: expected INTEGER, found NULL")
        let wrongCount = try #require(capturedError { try db.fetchValue(Int.self, "SELECT twice(1, 2)") })
        #expect(wrongCount.kind == .sqlite)
        #expect(wrongCount.message.contains("wrong number of arguments"))
    }

    @Test("functions are direct-only by default; innocuous ones may be used by views, indexes and CHECK")
    func securityFlags() throws {
        let db = try Connection.inMemory()
        try db.add(function: SQLFunction("direct", options: .deterministic) { (value: Int) in value })
        try db.add(function: SQLFunction("safe", options: [.deterministic, .innocuous]) { (value: Int) in value })
        try db.add(function: SQLFunction("random_ish", options: .innocuous) { (value: Int) in value })
        try db.execute("CREATE TABLE t (a INTEGER)")
        try db.execute("INSERT INTO t VALUES (1)")
        try db.execute("CREATE VIEW direct_view AS SELECT direct(a) AS v FROM t")
        try db.execute("CREATE VIEW safe_view AS SELECT safe(a) AS v FROM t")
        let unsafe = try #require(capturedError { try db.fetchValue(Int.self, "SELECT v FROM direct_view") })
        #expect(unsafe.message.contains("unsafe use of direct()"))
        #expect(try db.fetchValue(Int.self, "SELECT v FROM safe_view") == 1)
        try db.execute("CREATE INDEX safe_index ON t (safe(a))")
        let notDeterministic = capturedError { try db.execute("CREATE INDEX bad_index ON t (random_ish(a))") }
        #expect(notDeterministic?.message.contains("non-deterministic") == true)
        #expect(SQLFunction("f", options: []) { () in 1 }.options.isEmpty)
    }

    @Test("a name or argument count SQLite refuses is a clear error at registration")
    func registrationErrors() throws {
        let db = try Connection.inMemory()
        let tooLong = String(repeating: "f", count: 256)
        for function in [
            SQLFunction("", argumentCount: 1) { (_: borrowing FunctionArguments) in 1 },
            SQLFunction(tooLong) { () in 1 },
            SQLFunction("nul\0name") { () in 1 },
            SQLFunction("many", argumentCount: 128) { (_: borrowing FunctionArguments) in 1 },
            SQLFunction("negative", argumentCount: -2) { (_: borrowing FunctionArguments) in 1 },
        ] {
            let error = try #require(capturedError { try db.add(function: function) })
            #expect(error.kind == .misuse)
            #expect(error.function == function.name)
        }
        #expect(capturedError { try db.removeFunction(named: "", argumentCount: nil) }?.kind == .misuse)
        try db.add(function: SQLFunction(String(repeating: "g", count: 255)) { () in 1 })
    }

    @Test("replacing a function changes what cached statements call; removing it makes SQL fail")
    func replaceAndRemove() throws {
        let db = try Connection.inMemory()
        try db.add(function: SQLFunction("version") { () in 1 })
        #expect(try db.fetchValue(Int.self, "SELECT version()") == 1)
        try db.add(function: SQLFunction("version") { () in 2 })
        #expect(try db.fetchValue(Int.self, "SELECT version()") == 2)
        try db.add(function: SQLFunction("version", argumentCount: 1) { (_: borrowing FunctionArguments) in 3 })
        #expect(try db.fetchValue(Int.self, "SELECT version(0)") == 3)
        try db.removeFunction(named: "version", argumentCount: 0)
        let missing = capturedError { try db.fetchValue(Int.self, "SELECT version()") }
        #expect(missing?.message.contains("wrong number of arguments") == true)
        #expect(try db.fetchValue(Int.self, "SELECT version(0)") == 3)
        try db.removeFunction(named: "version", argumentCount: 1)
        #expect(
            capturedError { try db.fetchValue(Int.self, "SELECT version(0)") }?.message.contains("no such function")
                == true)
        // A Swift function can replace one of SQLite's own; removing it leaves the name without a function.
        try db.add(function: SQLFunction("upper") { (_: String) in "replaced" })
        #expect(try db.fetchValue(String.self, "SELECT upper('a')") == "replaced")
        try db.removeFunction(named: "upper", argumentCount: 1)
        #expect(capturedError { try db.fetchValue(String.self, "SELECT upper('a')") } != nil)
    }

    @Test("replacing a function while a statement runs is refused with a busy error")
    func replaceWhileRunning() throws {
        let db = try Connection.inMemory()
        try db.add(function: SQLFunction("one") { () in 1 })
        let cursor = try db.fetchCursor(FirstInt.self, "SELECT one() FROM (SELECT 1 UNION ALL SELECT 2)")
        #expect(try cursor.next()?.value == 1)
        let busy = try #require(capturedError { try db.add(function: SQLFunction("one") { () in 9 }) })
        #expect(busy.code.primary == .busy)
        #expect(busy.function == "one")
        #expect(try cursor.next()?.value == 1)
    }

    @Test("SQLite releases a function's closure when it is replaced, removed, or the connection closes")
    func closuresReleased() throws {
        for ending in 0..<3 {
            let flag = ReleaseFlag()
            var db: Connection? = try Connection.inMemory()
            do {
                let tracked = Tracked(flag)
                try db?.add(function: SQLFunction("tracked") { () in tracked.value() })
            }
            #expect(try db?.fetchValue(Int.self, "SELECT tracked()") == 7)
            let releasedEarly = flag.released.load(ordering: .sequentiallyConsistent)
            #expect(!releasedEarly)
            switch ending {
            case 0: try db?.add(function: SQLFunction("tracked") { () in 0 })
            case 1: try db?.removeFunction(named: "tracked", argumentCount: 0)
            default: db = nil
            }
            let released = flag.released.load(ordering: .sequentiallyConsistent)
            #expect(released, "ending \(ending)")
        }
    }

    @Test("a function may run SQL on its own connection, even the statement that calls it")
    func reentrantSQL() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (a INTEGER)")
        try db.execute("INSERT INTO t VALUES (1), (2), (3)")
        // A Connection is not Sendable: a function can reach its own only by opting out of the check.
        nonisolated(unsafe) let sameConnection = db
        try db.add(
            function: SQLFunction("row_count") { () in
                try sameConnection.fetchValue(Int.self, "SELECT count(*) FROM t") ?? 0
            })
        try db.add(
            function: SQLFunction("nested") { (depth: Int) in
                depth == 0 ? 0 : 1 + (try sameConnection.fetchValue(Int.self, "SELECT nested(\(depth - 1))") ?? 0)
            })
        #expect(try db.fetchAll(FirstInt.self, "SELECT a * row_count() FROM t ORDER BY a").map(\.value) == [3, 6, 9])
        #expect(try db.fetchValue(Int.self, "SELECT nested(5)") == 5)
        try db.add(
            function: SQLFunction("failing_inside") { () in
                try sameConnection.fetchValue(Int.self, "SELECT * FROM missing_table") ?? 0
            })
        let inner = try #require(capturedError { try db.fetchValue(Int.self, "SELECT failing_inside()") })
        #expect(inner.kind == .functionFailed)
        #expect(inner.message.contains("no such table: missing_table"))
        // Running the very statement that calls the function is refused, without touching the running step.
        nonisolated(unsafe) var sameStatement: Statement?
        try db.add(
            function: SQLFunction("again") { (value: Int) in
                try sameStatement?.fetchValue(Int.self) ?? value
            })
        let statement = try db.prepare("SELECT again(a) FROM t")
        sameStatement = statement
        let again = try #require(capturedError { try statement.fetchAll(FirstInt.self) })
        #expect(again.kind == .functionFailed)
        #expect(again.message.contains("the statement is running"))
        try db.add(function: SQLFunction("again") { (value: Int) in value })
        #expect(try statement.fetchAll(FirstInt.self).map(\.value) == [1, 2, 3])
        sameStatement = nil  // the statement keeps the connection, which keeps the function: break the cycle
        // The functions that capture their own connection keep it alive until they are removed.
        for name in ["row_count", "failing_inside"] { try db.removeFunction(named: name, argumentCount: 0) }
        for name in ["nested", "again"] { try db.removeFunction(named: name, argumentCount: 1) }
    }

    @Test("a function that interrupts its connection fails the statement with an interrupt, and nothing leaks")
    func interrupted() throws {
        let db = try Connection.inMemory()
        let interrupter = db.interruptHandle
        try db.add(
            function: SQLFunction("stop") { (value: Int) in
                if value == 50 { interrupter.interrupt() }
                return value
            })
        let error = try #require(
            capturedError {
                try db.fetchAll(
                    FirstInt.self,
                    "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT stop(x) FROM n")
            })
        #expect(error.code == .interrupt)
        #expect(try db.fetchValue(Int.self, "SELECT stop(1)") == 1)
    }

    @Test("a cursor that calls a function keeps working after the last reference to its connection is dropped")
    func connectionDroppedMidway() throws {
        var db: Connection? = try Connection.inMemory()
        try db?.add(function: SQLFunction("square") { (value: Int) in value * value })
        let cursor = try #require(try db?.fetchCursor(FirstInt.self, "SELECT square(value) FROM json_each('[1,2,3]')"))
        db = nil
        #expect(try cursor.next()?.value == 1)
        #expect(try cursor.next()?.value == 4)
        #expect(try cursor.next()?.value == 9)
        #expect(try cursor.next()?.value == nil)
    }

    @Test("a SharedConnection and every connection of a pool can add and remove functions and collations")
    func sharing() async throws {
        let directory = try TemporaryDirectory()
        let shared = try SharedConnection(.inMemory)
        try await shared.add(function: SQLFunction("triple") { (value: Int) in value * 3 })
        #expect(try await shared.read { db in try db.fetchValue(Int.self, "SELECT triple(3)") } == 9)
        try await shared.removeFunction(named: "triple", argumentCount: 1)
        await #expect(throws: SQLiteError.self) {
            try await shared.read { db in try db.fetchValue(Int.self, "SELECT triple(1)") }
        }
        try await shared.add(collation: .unicodeCaseInsensitive)
        #expect(
            try await shared.read { db in try db.fetchValue(Bool.self, "SELECT 'É' = 'é' COLLATE UNICODE_NOCASE") }
                == true)
        try await shared.removeCollation(named: "UNICODE_NOCASE")

        let pool = try ConnectionPool(.create(path: directory.path("pool.sqlite")), readerCount: 3)
        try await pool.add(function: SQLFunction("triple") { (value: Int) in value * 3 })
        try await pool.add(collation: .unicodeCaseAndAccentInsensitive)
        try await pool.write { db in try db.execute("CREATE TABLE t (a INTEGER)") }
        #expect(try await pool.write { db in try db.fetchValue(Int.self, "SELECT triple(2)") } == 6)
        for _ in 0..<6 {
            #expect(try await pool.read { db in try db.fetchValue(Int.self, "SELECT triple(2)") } == 6)
            let same = try await pool.read { db in
                try db.fetchValue(Bool.self, "SELECT 'É' = 'e' COLLATE UNICODE_NOCASE_NOACCENT")
            }
            #expect(same == true)
        }
        try await pool.removeFunction(named: "triple", argumentCount: 1)
        try await pool.removeCollation(named: "UNICODE_NOCASE_NOACCENT")
        for _ in 0..<4 {
            await #expect(throws: SQLiteError.self) {
                try await pool.read { db in try db.fetchValue(Int.self, "SELECT triple(2)") }
            }
        }
    }

    @Test("one function value runs on several connections and threads at once")
    func concurrentCalls() async throws {
        let calls = Atomic<Int>(0)
        let counted = SQLFunction("counted", options: .deterministic) { (value: Int) in
            calls.add(1, ordering: .relaxed)
            return value
        }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let db = try Connection.inMemory()
                    try db.add(function: counted)
                    let sql: SQL =
                        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 500) SELECT sum(counted(x)) FROM n"
                    return try db.fetchValue(Int.self, sql) ?? 0
                }
            }
            for try await sum in group { #expect(sum == 125_250) }
        }
        let total = calls.load(ordering: .relaxed)
        #expect(total == 2_000)
    }
}
