import Foundation
import SQLiteSwiftly
import Synchronization
import Testing

/// A query that runs for minutes unless it is interrupted.
let endlessQuery =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000000) "
    + "SELECT count(*) FROM c"

@Suite struct SharedConnectionTests {
    private func makeShared(_ directory: TemporaryDirectory) async throws -> SharedConnection {
        let shared = try SharedConnection(.create(path: directory.path("shared.sqlite")))
        try await shared.withConnection { db in
            try db.execute("CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
            try db.execute("INSERT INTO counter VALUES (1, 0)")
            try db.execute("CREATE TABLE notes (text TEXT NOT NULL)")
        }
        return shared
    }

    @Test("writes from many tasks run one at a time: no read-modify-write is lost")
    func concurrentWritesAreExclusive() async throws {
        let directory = try TemporaryDirectory()
        let shared = try await makeShared(directory)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<25 {
                        try await shared.write { db in
                            let value = try db.fetchValue(Int.self, "SELECT value FROM counter WHERE id = 1") ?? -1
                            try db.execute("UPDATE counter SET value = ? WHERE id = 1", [value + 1])
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let value = try await shared.read { db in try db.fetchValue(Int.self, "SELECT value FROM counter") }
        #expect(value == 200)
    }

    @Test("a read refuses writes, and the connection writes again afterwards")
    func readIsReadOnly() async throws {
        let directory = try TemporaryDirectory()
        let shared = try await makeShared(directory)
        await #expect {
            try await shared.read { db in try db.execute("INSERT INTO notes VALUES ('sneaky')") }
        } throws: { error in
            (error as? SQLiteError)?.code.primary == .readOnly
        }
        try await shared.write { db in try db.execute("INSERT INTO notes VALUES ('fine')") }
        let count = try await shared.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM notes") }
        #expect(count == 1)
    }

    @Test("a write whose body throws is rolled back whole")
    func failedWriteRollsBack() async throws {
        struct Oops: Error {}
        let directory = try TemporaryDirectory()
        let shared = try await makeShared(directory)
        await #expect(throws: Oops.self) {
            try await shared.write { db in
                try db.execute("INSERT INTO notes VALUES ('one')")
                throw Oops()
            }
        }
        let count = try await shared.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM notes") }
        #expect(count == 0)
    }

    @Test("a transaction nested in a write is a savepoint that fails alone")
    func nestedTransactionIsSavepoint() async throws {
        struct Oops: Error {}
        let directory = try TemporaryDirectory()
        let shared = try await makeShared(directory)
        try await shared.write { db in
            try db.execute("INSERT INTO notes VALUES ('outer')")
            #expect(throws: Oops.self) {
                try db.transaction {
                    try db.execute("INSERT INTO notes VALUES ('inner')")
                    throw Oops()
                }
            }
        }
        let notes = try await shared.read { db in try db.fetchAll(UntypedRow.self, "SELECT text FROM notes") }
        #expect(notes.map(\.values) == [[.text("outer")]])
    }

    @Test("a body that leaves a transaction open gets it rolled back and a misuse error")
    func strayTransactionIsRolledBack() async throws {
        let directory = try TemporaryDirectory()
        let shared = try await makeShared(directory)
        await #expect {
            try await shared.withConnection { db in
                try db.execute("BEGIN")
                try db.execute("INSERT INTO notes VALUES ('stray')")
            }
        } throws: { error in
            (error as? SQLiteError)?.kind == .misuse
        }
        let state = try await shared.withConnection { db in
            (try db.fetchValue(Int.self, "SELECT count(*) FROM notes"), db.isInTransaction)
        }
        #expect(state.0 == 0)
        #expect(state.1 == false)
    }

    @Test("a read body that ends its transaction, writes and begins another is refused, and its write not kept")
    func readThatEndsItsTransaction() async throws {
        let directory = try TemporaryDirectory()
        let shared = try await makeShared(directory)
        await #expect {
            try await shared.read { db in
                try db.execute("PRAGMA query_only = OFF")
                try db.execute("ROLLBACK")
                try db.execute("INSERT INTO notes VALUES ('written by a read')")  // would commit on its own
                try db.execute("BEGIN")
            }
        } throws: { error in
            let error = error as? SQLiteError
            return error?.kind == .transactionRolledBack && error?.message.contains("the commit was refused") == true
        }
        let state = try await shared.withConnection { db in
            (try db.fetchValue(Int.self, "SELECT count(*) FROM notes"), db.isInTransaction)
        }
        #expect(state.0 == 0)
        #expect(state.1 == false)
    }

    @Test("interrupt() stops a long query from another task; the connection works afterwards", .timeLimit(.minutes(1)))
    func interruptStopsQuery() async throws {
        let directory = try TemporaryDirectory()
        let shared = try await makeShared(directory)
        let finished = TestFlag()
        let interrupter = Task.detached {
            while !finished.isSet {
                shared.interrupt()  // repeated: an interrupt before the query's first step has no effect
                await Task.yield()
            }
        }
        await #expect {
            try await shared.read { db in try db.fetchValue(Int.self, SQL(verbatim: endlessQuery)) }
        } throws: { error in
            (error as? SQLiteError)?.code == .interrupt
        }
        finished.set()
        await interrupter.value
        let count = try await shared.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM notes") }
        #expect(count == 0)
    }

    @Test("cancelling the calling task interrupts its query", .timeLimit(.minutes(1)))
    func cancellationInterrupts() async throws {
        let directory = try TemporaryDirectory()
        let shared = try await makeShared(directory)
        let started = TestFlag()
        let task = Task {
            try await shared.read { db in
                started.set()
                return try db.fetchValue(Int.self, SQL(verbatim: endlessQuery))
            }
        }
        try await started.wait()  // the body runs: its query is stepping or about to, and checks for cancellation
        task.cancel()
        let result = await task.result
        #expect(throws: SQLiteError.self) { try result.get() }
        #expect(started.isSet)
    }

    @Test(
        "a cancellation that lands between two statements of an access stops the next one before it starts",
        arguments: ["statement", "script", "transaction"])
    func cancellationBetweenStatements(next: String) async throws {
        let directory = try TemporaryDirectory()
        let shared = try await makeShared(directory)
        let (started, cancelled) = (TestFlag(), TestFlag())
        let task = Task {
            try await shared.write { db in
                try db.execute("INSERT INTO notes VALUES ('before')")
                started.set()
                try cancelled.block()  // SQLite forgets an interrupt that lands while no statement runs
                switch next {
                case "statement": _ = try db.fetchValue(Int.self, SQL(verbatim: endlessQuery))
                case "script": try db.executeScript(SQL(verbatim: "INSERT INTO notes VALUES ('x'); \(endlessQuery)"))
                default: try db.transaction { try db.execute("INSERT INTO notes VALUES ('nested')") }
                }
            }
        }
        try await started.wait()
        task.cancel()
        cancelled.set()
        // Without the check at the start of each statement the endless query would run for minutes; the watchdog
        // interrupts it after 20 s, and the message then tells which stopped it.
        let watchdog = Thread {
            Thread.sleep(forTimeInterval: 20); shared.interrupt()
        }
        watchdog.start()
        let failure = try #require(await task.result.failure as? SQLiteError)
        #expect(failure.code == .interrupt)
        #expect(failure.message.contains("the task was cancelled before this statement started"), "\(failure)")
        // The write was rolled back whole, and the next access runs normally.
        let notes = try await shared.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM notes") }
        #expect(notes == 0)
        try await shared.write { db in try db.execute("INSERT INTO notes VALUES ('after')") }
        #expect(try await shared.read { db in try db.fetchValue(String.self, "SELECT text FROM notes") } == "after")
    }

    @Test("a cancelled access's body can still roll back a transaction of its own")
    func cancelledAccessRollsBack() async throws {
        let directory = try TemporaryDirectory()
        let shared = try await makeShared(directory)
        let (started, cancelled) = (TestFlag(), TestFlag())
        let outcome = Mutex<(inserted: Bool, rollback: Bool, stillOpen: Bool)?>(nil)
        let task = Task {
            try await shared.withConnection { db in
                try db.execute("BEGIN")
                try db.execute("INSERT INTO notes VALUES ('kept?')")
                started.set()
                try cancelled.block()
                let inserted = (try? db.execute("INSERT INTO notes VALUES ('refused')")) != nil
                let rollback = (try? db.execute("ROLLBACK")) != nil
                outcome.withLock { $0 = (inserted, rollback, db.isInTransaction) }
            }
        }
        try await started.wait()
        task.cancel()
        cancelled.set()
        _ = await task.result
        let seen = try #require(outcome.withLock { $0 })
        #expect(!seen.inserted && seen.rollback && !seen.stillOpen)
        #expect(try await shared.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM notes") } == 0)
    }

    @Test("a task cancelled before its turn does not run its body")
    func cancelledTaskSkipsBody() async throws {
        let directory = try TemporaryDirectory()
        let shared = try await makeShared(directory)
        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            try await shared.write { db in try db.execute("INSERT INTO notes VALUES ('late')") }
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        let count = try await shared.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM notes") }
        #expect(count == 0)
    }

    @Test("opening goes through the open modes: a missing database is refused")
    func openModesApply() async throws {
        let directory = try TemporaryDirectory()
        #expect {
            _ = try SharedConnection(.open(path: directory.path("missing.sqlite")))
        } throws: { error in
            (error as? SQLiteError)?.kind == .databaseNotFound
        }
        let path = directory.path("readonly.sqlite")
        _ = try Connection(creating: path)
        let readOnly = try SharedConnection(.openReadOnly(path: path))
        await #expect {
            try await readOnly.withConnection { db in try db.execute("CREATE TABLE t (x)") }
        } throws: { error in
            (error as? SQLiteError)?.code.primary == .readOnly
        }
    }
}
