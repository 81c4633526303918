import Foundation
import Synchronization
import Testing

@testable import SQLiteSwiftly

/// Swift code that SQLite calls (functions, aggregates, window functions, collations) stops being called once the
/// connection is interrupted or the task of a shared connection's access is cancelled.
@Suite struct CallbackStoppingTests {
    /// A slow function: 2 ms a call, so that 20,000 rows would take 40 seconds.
    static let slow = SQLFunction("slow") { (value: Int) -> Int in
        usleep(2000)
        return value
    }

    /// A slow aggregate and window function.
    struct SlowSum: WindowFunction {
        var total = 0
        init() {}
        mutating func step(_ arguments: borrowing FunctionArguments) throws {
            usleep(2000)
            total += try arguments.value(at: 0, as: Int?.self) ?? 0
        }
        mutating func inverse(_ arguments: borrowing FunctionArguments) throws {
            usleep(2000)
            total -= try arguments.value(at: 0, as: Int?.self) ?? 0
        }
        func value() throws -> Int { total }
        func finalize() throws -> Int { total }
    }

    /// A slow collation: 50 µs a comparison, so that sorting 20,000 rows would take about 15 seconds.
    static let slowOrder = Collation("SLOW_ORDER") { first, second in
        usleep(50)
        return first < second ? .orderedAscending : first == second ? .orderedSame : .orderedDescending
    }

    private func numbers(_ count: Int = 20_000) throws -> Connection {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE n(x INTEGER, s TEXT)")
        try db.execute(
            SQL(
                verbatim: """
                    WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < \(count))
                    INSERT INTO n SELECT i, printf('%08d', (i * 7919) % \(count)) FROM c
                    """))
        try db.add(function: Self.slow)
        try db.add(function: SQLFunction("slow_sum", argumentCount: 1, window: SlowSum.self))
        try db.add(collation: Self.slowOrder)
        return db
    }

    @Test(
        "an interrupted statement stops calling its Swift code",
        arguments: [
            "SELECT sum(slow(x)) FROM n",
            "SELECT slow_sum(x) FROM n",
            "SELECT max(w) FROM (SELECT slow_sum(x) OVER (ORDER BY x ROWS 3 PRECEDING) AS w FROM n)",
            "SELECT s FROM n ORDER BY s COLLATE SLOW_ORDER",
            "SELECT DISTINCT s COLLATE SLOW_ORDER FROM n",
        ])
    func interruptStopsCallbacks(sql: String) async throws {
        try await offPool {
            let db = try numbers()
            nonisolated(unsafe) let unsafeDB = db  // used by the thread `stopped` starts, then here again
            let (error, lateness) = try stopped(
                {
                    _ = try unsafeDB.fetchAll(UntypedRow.self, SQL(verbatim: sql))
                }, stop: db.interruptHandle.interrupt)
            let failure = try #require(error as? SQLiteError)
            #expect(failure.code == .interrupt)
            #expect(lateness < stopTolerance, "\(sql) went on \(lateness) after the interrupt")
            // The connection works normally afterwards, with the same functions and collation.
            #expect(try db.fetchValue(Int.self, "SELECT slow(41) + 1") == 42)
            #expect(
                try db.fetchAll(UntypedRow.self, "SELECT s FROM n WHERE x <= 3 ORDER BY s COLLATE SLOW_ORDER").count
                    == 3)
        }
    }

    @Test("a cursor over a sort that the interrupt cut short delivers no row")
    func interruptedSortDeliversNoRow() async throws {
        try await offPool {
            let db = try numbers()
            let cursor = try db.fetchCursor(UntypedRow.self, "SELECT s FROM n ORDER BY s COLLATE SLOW_ORDER")
            nonisolated(unsafe) let unsafeCursor = cursor
            let (error, _) = try stopped(
                {
                    _ = try unsafeCursor.next()
                }, stop: db.interruptHandle.interrupt)
            #expect((error as? SQLiteError)?.code == .interrupt)
        }
    }

    @Test("a collation placing rows in an index is never cut short: the index stays whole")
    func collatedIndexStaysWhole() async throws {
        try await offPool {
            let db = try numbers(5_000)
            nonisolated(unsafe) let unsafeDB = db
            _ = try stopped(
                after: .milliseconds(50),
                {
                    try unsafeDB.execute("CREATE INDEX n_s ON n(s COLLATE SLOW_ORDER)")
                }, stop: db.interruptHandle.interrupt)
            // Whether the interrupt landed before the index was built or not, the database is consistent.
            #expect(try db.fetchValue(String.self, "PRAGMA integrity_check") == "ok")
            try db.execute("INSERT INTO n VALUES (0, '00000000')")
            #expect(try db.fetchValue(String.self, "PRAGMA integrity_check") == "ok")
        }
    }

    @Test("cancelling a shared connection's read stops its Swift functions and collations")
    func cancellationStopsCallbacks() async throws {
        let shared = try SharedConnection(.inMemory)
        let queries = [
            "SELECT sum(slow(x)) FROM n", "SELECT count(*) FROM (SELECT s FROM n ORDER BY s COLLATE SLOW_ORDER)",
        ]
        for sql in queries {
            let running = TestFlag()
            let ended = Mutex<ContinuousClock.Instant?>(nil)
            try await shared.withConnection { db in
                try db.execute("DROP TABLE IF EXISTS n")
                try db.execute("CREATE TABLE n(x INTEGER, s TEXT)")
                try db.execute(
                    """
                    WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000)
                    INSERT INTO n SELECT i, printf('%08d', (i * 7919) % 20000) FROM c
                    """)
                // The first call says the statement runs; the end of the statement is noted on the connection's
                // thread, since the test's own task may resume much later on a busy machine.
                try db.add(
                    function: SQLFunction("slow") { (value: Int) -> Int in
                        running.set()
                        usleep(2000)
                        return value
                    })
                try db.add(
                    collation: Collation("SLOW_ORDER") { first, second in
                        running.set()
                        usleep(50)
                        return first < second ? .orderedAscending : first == second ? .orderedSame : .orderedDescending
                    })
            }
            let task = Task(executorPreference: OwnThreadExecutor()) {  // see WaitStoppingTests.cancellationEndsWait
                try await shared.read { db in
                    defer { ended.withLock { $0 = .now } }
                    return try db.fetchValue(Int.self, SQL(verbatim: sql))
                }
            }
            let cancelledAt = try await cancel(task, once: running)
            let failure = try #require(await task.result.failure as? SQLiteError)
            #expect(failure.code == .interrupt)
            let lateness = try #require(ended.withLock { $0 }) - cancelledAt
            #expect(lateness < stopTolerance, "\(sql) went on \(lateness) after the cancellation")
        }
        #expect(try await shared.read { db in try db.fetchValue(Int.self, "SELECT slow(1)") } == 1)
    }

    @Test("an interrupt stops REGEXP inside one long match, not only between rows")
    func interruptStopsOneLongMatch() async throws {
        try await offPool {
            let db = try Connection.inMemory()
            try db.add(function: .regexp())
            // One text of 48 MB that the pattern has to scan to its end (no 'b' in it), in one call of the function.
            try db.execute("CREATE TABLE big(t TEXT)")
            try db.execute("INSERT INTO big SELECT replace(hex(zeroblob(24000000)), '0', 'a')")
            let full = ContinuousClock.now
            #expect(try db.fetchValue(Bool.self, "SELECT t REGEXP 'a*b' FROM big") == false)
            let matchTime = ContinuousClock.now - full
            nonisolated(unsafe) let unsafeDB = db  // used by the thread `stopped` starts, then here again
            let (error, lateness) = try stopped(
                after: matchTime / 4,
                {
                    _ = try unsafeDB.fetchValue(Bool.self, "SELECT t REGEXP 'a*b' FROM big")
                }, stop: db.interruptHandle.interrupt)
            #expect((error as? SQLiteError)?.code == .interrupt, "the match of \(matchTime) was not stopped")
            #expect(lateness < stopTolerance, "the match went on \(lateness) after the interrupt")
            #expect(try db.fetchValue(Bool.self, "SELECT 'ab' REGEXP 'a*b'") == true)
        }
    }

    /// A slow tokenizer: 2 ms a text, the whole text one token.
    struct SlowWords: TextTokenizer {
        static let name = "slow_words"
        init(arguments: [String], context: borrowing TokenizerContext) throws {}
        func tokenize(_ text: UnsafeBufferPointer<UInt8>, for reason: TokenizationReason, into tokens: inout TokenSink)
            throws
        {
            usleep(2000)
            if !text.isEmpty { try tokens.add(textIn: 0..<text.count) }
        }
    }

    @Test("an interrupt stops a Swift tokenizer that indexes many rows; the index write is rolled back")
    func interruptStopsTokenizer() async throws {
        try await offPool {
            let db = try numbers()
            try db.add(tokenizer: SlowWords.self)
            try db.execute("CREATE VIRTUAL TABLE words USING fts5(s, tokenize = 'slow_words')")
            nonisolated(unsafe) let unsafeDB = db  // used by the thread `stopped` starts, then here again
            let (error, lateness) = try stopped(
                {
                    try unsafeDB.execute("INSERT INTO words(s) SELECT s FROM n")
                }, stop: db.interruptHandle.interrupt)
            #expect((error as? SQLiteError)?.code == .interrupt)
            #expect(lateness < stopTolerance, "indexing went on \(lateness) after the interrupt")
            #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM words") == 0)
            try db.execute("INSERT INTO words(s) VALUES ('alpha')")
            #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM words WHERE words MATCH 'alpha'") == 1)
        }
    }

    @Test("an interrupt stops a changeset's conflict handler; nothing of the changeset is applied")
    func interruptStopsConflictHandler() async throws {
        try await offPool {
            let source = try numbers(5_000)
            let target = try numbers(5_000)
            try source.execute("CREATE TABLE k(id INTEGER PRIMARY KEY, v TEXT)")
            try target.execute("CREATE TABLE k(id INTEGER PRIMARY KEY, v TEXT)")
            try target.execute("INSERT INTO k SELECT x, 'target' FROM n")
            // 5,000 inserts whose keys the target has: 5,000 conflicts, 2 ms each in the handler.
            let (_, changeset) = try source.recordingChangeset(of: ["k"]) {
                try source.execute("INSERT INTO k SELECT x, 'source' FROM n")
            }
            try target.execute("INSERT INTO n VALUES (0, 'marker')")  // a write the application must not undo
            let handled = Atomic<Int>(0)
            nonisolated(unsafe) let unsafeTarget = target  // used by the thread `stopped` starts, then here again
            let (error, lateness) = try stopped(
                {
                    try unsafeTarget.apply(changeset) { _ in
                        handled.add(1, ordering: .relaxed)
                        usleep(2000)
                        return .replace
                    }
                }, stop: target.interruptHandle.interrupt)
            #expect((error as? SQLiteError)?.code == .interrupt)
            #expect(lateness < stopTolerance, "the application went on \(lateness) after the interrupt")
            #expect(handled.load(ordering: .relaxed) < 5_000)
            #expect(try target.fetchValue(Int.self, "SELECT count(*) FROM k WHERE v = 'source'") == 0)
            #expect(try target.fetchValue(Int.self, "SELECT count(*) FROM n WHERE x = 0") == 1)
        }
    }
}
