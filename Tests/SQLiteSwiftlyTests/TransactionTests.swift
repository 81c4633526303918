import Foundation
import SQLiteSwiftly
import Synchronization
import Testing

/// An error thrown by transaction bodies in these tests.
private struct BodyFailure: Error, Equatable {}

@Suite struct TransactionTests {
    private func makeDatabase(_ directory: TemporaryDirectory, name: String = "db.sqlite") throws -> Connection {
        let db = try Connection(creating: directory.path(name))
        try db.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, payload BLOB)")
        return db
    }

    private func count(_ db: Connection) throws -> Int? {
        try db.fetchValue(Int.self, "SELECT count(*) FROM items")
    }

    @Test("a body that returns commits its work and its result is returned")
    func commits() throws {
        let directory = try TemporaryDirectory()
        let db = try makeDatabase(directory)
        let result = try db.transaction { () throws -> String in
            try db.execute("INSERT INTO items (id) VALUES (1)")
            try db.execute("INSERT INTO items (id) VALUES (2)")
            #expect(db.isInTransaction)
            return "done"
        }
        #expect(result == "done")
        #expect(!db.isInTransaction)
        // Visible to another connection: really committed.
        let other = try Connection(opening: directory.path("db.sqlite"))
        #expect(try count(other) == 2)
    }

    @Test("a throwing body leaves no rows and its own error is rethrown")
    func throwingBodyRollsBack() throws {
        let directory = try TemporaryDirectory()
        let db = try makeDatabase(directory)
        #expect(throws: BodyFailure()) {
            try db.transaction {
                try db.execute("INSERT INTO items (id) VALUES (1)")
                try db.execute("INSERT INTO items (id) VALUES (2)")
                throw BodyFailure()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try count(db) == 0)
    }

    @Test("an SQLite error in the body rolls back the earlier statements of the transaction")
    func sqliteErrorRollsBack() throws {
        let directory = try TemporaryDirectory()
        let db = try makeDatabase(directory)
        do {
            try db.transaction {
                try db.execute("INSERT INTO items (id) VALUES (1)")
                try db.execute("INSERT INTO items (id) VALUES (1)")  // primary key conflict
            }
            Issue.record("the transaction should have failed")
        } catch let error as SQLiteError {
            #expect(error.code.primary == .constraint)
        }
        #expect(try count(db) == 0)
    }

    @Test("a nested transaction is a savepoint: its rollback keeps the outer work")
    func nestedSavepointRollback() throws {
        let directory = try TemporaryDirectory()
        let db = try makeDatabase(directory)
        try db.transaction {
            try db.execute("INSERT INTO items (id) VALUES (1)")
            do {
                try db.transaction {
                    try db.execute("INSERT INTO items (id) VALUES (2)")
                    throw BodyFailure()
                }
            } catch is BodyFailure {}
            #expect(db.isInTransaction)
            try db.transaction { try db.execute("INSERT INTO items (id) VALUES (3)") }
        }
        let ids = try db.fetchAll(UntypedRow.self, "SELECT id FROM items ORDER BY id").map { $0.values[0] }
        #expect(ids == [.integer(1), .integer(3)])
    }

    @Test("savepoints nest several levels deep and return their body's value")
    func deepNesting() throws {
        let directory = try TemporaryDirectory()
        let db = try makeDatabase(directory)
        let total = try db.transaction { () throws -> Int in
            try db.execute("INSERT INTO items (id) VALUES (1)")
            let inner = try db.transaction { () throws -> Int in
                try db.execute("INSERT INTO items (id) VALUES (2)")
                do {
                    try db.transaction {
                        try db.execute("INSERT INTO items (id) VALUES (3)")
                        throw BodyFailure()
                    }
                } catch is BodyFailure {}
                return try count(db) ?? -1
            }
            return inner * 10
        }
        #expect(total == 20)
        #expect(try count(db) == 2)
    }

    @Test("an outer rollback also undoes a released savepoint")
    func outerRollbackUndoesInner() throws {
        let directory = try TemporaryDirectory()
        let db = try makeDatabase(directory)
        #expect(throws: BodyFailure.self) {
            try db.transaction {
                try db.transaction { try db.execute("INSERT INTO items (id) VALUES (1)") }
                throw BodyFailure()
            }
        }
        #expect(try count(db) == 0)
    }

    @Test("inside a transaction begun with execute(\"BEGIN\"), transaction(_:_:) uses a savepoint")
    func savepointInsideManualTransaction() throws {
        let directory = try TemporaryDirectory()
        let db = try makeDatabase(directory)
        try db.execute("BEGIN")
        try db.execute("INSERT INTO items (id) VALUES (1)")
        #expect(throws: BodyFailure.self) {
            try db.transaction {
                try db.execute("INSERT INTO items (id) VALUES (2)")
                throw BodyFailure()
            }
        }
        #expect(db.isInTransaction)
        try db.execute("COMMIT")
        #expect(try count(db) == 1)
    }

    @Test("the default kind is IMMEDIATE: a busy database fails at BEGIN, before the body runs")
    func immediateFailsAtBegin() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        _ = try makeDatabase(directory)
        let holder = try Connection(opening: path)
        try holder.execute("BEGIN IMMEDIATE")
        let db = try Connection(opening: path, options: .init(busyTimeout: .milliseconds(50)))
        var bodyRan = false
        do {
            try db.transaction {
                bodyRan = true
                try db.execute("INSERT INTO items (id) VALUES (1)")
            }
            Issue.record("BEGIN should have failed")
        } catch let error as SQLiteError {
            #expect(error.isBusy)
            #expect(error.sql == "BEGIN IMMEDIATE")
        }
        #expect(!bodyRan)
        #expect(!db.isInTransaction)
        try holder.execute("ROLLBACK")
        // The failed BEGIN left nothing behind: the next transaction works.
        try db.transaction { try db.execute("INSERT INTO items (id) VALUES (1)") }
        #expect(try count(db) == 1)
    }

    @Test("a DEFERRED transaction begins without a lock and only fails at its first write")
    func deferredFailsAtWrite() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        _ = try makeDatabase(directory)
        let holder = try Connection(opening: path)
        try holder.execute("BEGIN IMMEDIATE")
        let db = try Connection(opening: path, options: .init(busyTimeout: .milliseconds(50)))
        var bodyRan = false
        do {
            try db.transaction(.deferred) {
                bodyRan = true
                try db.execute("INSERT INTO items (id) VALUES (1)")
            }
            Issue.record("the write should have failed")
        } catch let error as SQLiteError {
            #expect(error.isBusy)
        }
        #expect(bodyRan)
        #expect(!db.isInTransaction)
        try holder.execute("ROLLBACK")
    }

    @Test("an EXCLUSIVE transaction shuts out readers of other connections")
    func exclusiveShutsOutReaders() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let db = try makeDatabase(directory)
        let reader = try Connection(opening: path, options: .init(busyTimeout: .milliseconds(50)))
        try db.transaction(.exclusive) {
            do {
                _ = try reader.fetchValue(Int.self, "SELECT count(*) FROM items")
                Issue.record("the read should have been refused")
            } catch let error as SQLiteError {
                #expect(error.isBusy)
            }
        }
        #expect(try reader.fetchValue(Int.self, "SELECT count(*) FROM items") == 0)
    }

    @Test("SQLITE_FULL that rolls the transaction back is reported as transactionRolledBack, nothing is kept")
    func diskFullRollsBack() throws {
        let directory = try TemporaryDirectory()
        let db = try makeDatabase(directory)
        try db.execute("INSERT INTO items (id) VALUES (0)")
        try db.execute("PRAGMA max_page_count = 8")
        do {
            try db.transaction {
                try db.execute("INSERT INTO items (id) VALUES (1)")
                try db.execute("INSERT INTO items (id, payload) VALUES (2, zeroblob(100000))")
            }
            Issue.record("the big insert should have failed")
        } catch let error as SQLiteError {
            #expect(error.kind == .transactionRolledBack)
            #expect(error.code.primary == .full)
        }
        #expect(!db.isInTransaction)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM items WHERE id > 0") == 0)
        #expect(try db.fetchValue(String.self, "PRAGMA integrity_check") == "ok")
    }

    @Test("a commit is refused when SQLite rolled back by itself and the body swallowed the error")
    func commitRefusedAfterAutomaticRollback() throws {
        let directory = try TemporaryDirectory()
        let db = try makeDatabase(directory)
        try db.execute("PRAGMA max_page_count = 8")
        var swallowed: SQLiteError?
        do {
            try db.transaction {
                try db.execute("INSERT INTO items (id) VALUES (1)")
                do {
                    try db.execute("INSERT INTO items (id, payload) VALUES (2, zeroblob(100000))")
                } catch let error as SQLiteError {
                    swallowed = error
                }
                // Had SQLite kept the transaction, this row would be committed with row 1.
                try db.execute("INSERT INTO items (id) VALUES (3)")
            }
            Issue.record("the commit should have been refused")
        } catch let error as SQLiteError {
            #expect(error.kind == .transactionRolledBack)
        }
        #expect(swallowed?.code.primary == .full)
        #expect(!db.isInTransaction)
        // Row 3 ran in autocommit mode after SQLite's rollback: the library cannot undo it, but it reported
        // the broken transaction. Row 1, of the transaction, is gone.
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM items WHERE id = 1") == 0)
        #expect(try db.fetchValue(String.self, "PRAGMA integrity_check") == "ok")
    }

    @Test("an interrupt at the start of a statement fails it; the library rolls the transaction back")
    func interruptAtStatementStart() throws {
        let directory = try TemporaryDirectory()
        let db = try makeDatabase(directory)
        do {
            try db.transaction {
                try db.execute("INSERT INTO items (id) VALUES (1)")
                // An interrupt only reaches statements that start while another one is running.
                let reading = try db.fetchCursor(UntypedRow.self, "SELECT id FROM items")
                _ = try reading.next()
                db.interruptHandle.interrupt()
                try db.execute("INSERT INTO items (id) VALUES (2)")
            }
            Issue.record("the interrupted insert should have failed")
        } catch let error as SQLiteError {
            // SQLite stopped the statement before it wrote anything and kept the transaction: the library
            // rolled it back and rethrew the statement's error.
            #expect(error.code.primary == .interrupt)
            #expect(error.kind == .sqlite)
        }
        #expect(!db.isInTransaction)
        #expect(try count(db) == 0)
    }

    @Test("an interrupt in the middle of a write makes SQLite roll back: reported as transactionRolledBack")
    func interruptMidStatementRollsBack() throws {
        let directory = try TemporaryDirectory()
        let db = try makeDatabase(directory)
        let handle = db.interruptHandle
        let stop = Atomic<Bool>(false)
        let stopped = DispatchSemaphore(value: 0)
        var interrupting = false
        // Compiled before any interrupt: one that lands while a statement is being compiled fails the compile,
        // before the statement runs, which is another case.
        let endless = try db.prepare(
            "INSERT INTO items (id) WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c")
        do {
            try db.transaction {
                try db.execute("INSERT INTO items (id) VALUES (-1)")
                interrupting = true
                // Interrupt only once the transaction is open (an interrupt landing in BEGIN fails the BEGIN, which
                // is another case), and keep interrupting until the endless insert below has been stopped (one
                // that lands before the statement's first step is cleared by that step, so it is repeated).
                Thread.detachNewThread {
                    while !stop.load(ordering: .acquiring) {
                        handle.interrupt()
                        sched_yield()
                    }
                    stopped.signal()
                }
                try endless.execute()
            }
            Issue.record("the endless insert should have been interrupted")
        } catch let error as SQLiteError {
            #expect(error.code.primary == .interrupt)
            #expect(error.kind == .transactionRolledBack)
        }
        stop.store(true, ordering: .releasing)
        if interrupting { stopped.wait() }
        #expect(!db.isInTransaction)
        #expect(try count(db) == 0)
        #expect(try db.fetchValue(String.self, "PRAGMA integrity_check") == "ok")
    }

    @Test("an interrupt still pending when the body fails does not stop the rollback")
    func pendingInterruptRollsBack() throws {
        struct Stop: Error {}
        let directory = try TemporaryDirectory()
        let db = try makeDatabase(directory)
        // No statement runs when the interrupt arrives, so it stays pending until the next statement starts: the
        // rollback must still happen.
        #expect(throws: Stop.self) {
            try db.transaction {
                try db.execute("INSERT INTO items (id) VALUES (1)")
                db.interruptHandle.interrupt()
                throw Stop()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try count(db) == 0)
        // The same for a savepoint inside a transaction.
        try db.transaction {
            #expect(throws: Stop.self) {
                try db.transaction {
                    try db.execute("INSERT INTO items (id) VALUES (2)")
                    db.interruptHandle.interrupt()
                    throw Stop()
                }
            }
            #expect(db.isInTransaction)
            try db.execute("INSERT INTO items (id) VALUES (3)")
        }
        #expect(try db.fetchAll(UntypedRow.self, "SELECT id FROM items").map(\.values) == [[.integer(3)]])
    }

    @Test("a ROLLBACK inside the body is noticed: the commit is refused")
    func manualRollbackInBody() throws {
        let directory = try TemporaryDirectory()
        let db = try makeDatabase(directory)
        do {
            try db.transaction {
                try db.execute("INSERT INTO items (id) VALUES (1)")
                try db.execute("ROLLBACK")
            }
            Issue.record("the transaction should report the rollback")
        } catch let error as SQLiteError {
            #expect(error.kind == .transactionRolledBack)
        }
        #expect(try count(db) == 0)
    }

    @Test("a body that ends the transaction and begins another is refused; the other transaction is not committed")
    func endedAndBegunAgain() throws {
        let directory = try TemporaryDirectory()
        let db = try makeDatabase(directory)
        /// Writes row 1, ends the transaction with `ending`, begins another, writes row 2, and maybe throws.
        func endedMidway(by ending: String, throwing: Bool = false) -> SQLiteError? {
            sqliteError {
                try db.transaction {
                    try db.execute("INSERT INTO items (id) VALUES (1)")
                    try db.execute(SQL(verbatim: ending))
                    try db.execute("BEGIN")
                    try db.execute("INSERT INTO items (id) VALUES (2)")
                    if throwing { throw SQLiteError(.misuse, message: "the body's own error") }
                }
            }
        }
        // ROLLBACK, then BEGIN: the first half is gone, and the second must not commit as if it were the whole.
        let rolledBack = endedMidway(by: "ROLLBACK")
        #expect(rolledBack?.kind == .transactionRolledBack)
        #expect(try count(db) == 0)
        #expect(!db.isInTransaction)
        // COMMIT, then BEGIN: the COMMIT is refused before it runs, and nothing of the body is kept.
        for throwsAfter in [false, true] {
            try db.execute("DELETE FROM items")
            let committed = endedMidway(by: "COMMIT", throwing: throwsAfter)
            #expect(committed?.kind == .misuse)
            #expect(committed?.message.contains("COMMIT inside a transaction body") == true)
            #expect(try count(db) == 0)
            #expect(!db.isInTransaction)
        }
        // Nested: the outer transaction reports it too, and nothing stays open.
        try db.execute("DELETE FROM items")
        let nested = sqliteError {
            try db.transaction {
                try db.transaction {
                    try db.execute("INSERT INTO items (id) VALUES (3)")
                    try db.execute("ROLLBACK")
                    try db.execute("BEGIN")
                }
                try db.execute("INSERT INTO items (id) VALUES (4)")
            }
        }
        #expect(nested?.kind == .transactionRolledBack)
        #expect(try count(db) == 0)
        #expect(!db.isInTransaction)
    }

    @Test("a body that would commit by releasing a savepoint opened outside it is refused: nothing is committed")
    func bodyReleasesOuterSavepoint() throws {
        let directory = try TemporaryDirectory()
        let db = try makeDatabase(directory)
        for swallowing in [false, true] {
            try db.execute("SAVEPOINT outer")  // outside any transaction: RELEASE outer commits
            try db.execute("INSERT INTO items (id) VALUES (1)")
            let error = try requireSQLiteError {
                try db.transaction {
                    try db.execute("INSERT INTO items (id) VALUES (2)")
                    if swallowing {
                        _ = try? db.execute("RELEASE outer")
                    } else {
                        try db.execute("RELEASE outer")
                    }
                }
            }
            #expect(error.kind == .transactionRolledBack)
            #expect(error.message.contains("the commit was refused"))
            #expect(try count(db) == 0)
            #expect(!db.isInTransaction)
        }
        // Outside a transaction body, the same RELEASE commits, as SQLite says.
        try db.execute("SAVEPOINT outer")
        try db.execute("INSERT INTO items (id) VALUES (3)")
        try db.execute("RELEASE outer")
        #expect(try count(db) == 1)
    }

    @Test("a failed COMMIT (deferred foreign key) rolls back and leaves no transaction open")
    func failedCommitRollsBack() throws {
        let directory = try TemporaryDirectory()
        let db = try makeDatabase(directory)
        try db.execute("PRAGMA foreign_keys = ON")
        try db.execute(
            "CREATE TABLE children (id INTEGER PRIMARY KEY, parent INTEGER "
                + "REFERENCES items (id) DEFERRABLE INITIALLY DEFERRED)")
        do {
            try db.transaction {
                try db.execute("INSERT INTO items (id) VALUES (1)")
                try db.execute("INSERT INTO children (id, parent) VALUES (1, 42)")
            }
            Issue.record("the commit should have failed")
        } catch let error as SQLiteError {
            #expect(error.code.primary == .constraint)
            #expect(error.sql == "COMMIT")
        }
        #expect(!db.isInTransaction)
        #expect(try count(db) == 0)
    }

    @Test("a COMMIT that stays busy (a reader holds its lock) rolls back and reports busy")
    func busyCommitRollsBack() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        do {
            let setup = try makeDatabase(directory)
            try setup.execute("INSERT INTO items (id) VALUES (1), (2)")
        }
        let db = try Connection(opening: path, options: .init(busyTimeout: .milliseconds(50)))
        let reader = try Connection(opening: path)
        // An open cursor keeps the reader's shared lock: in rollback-journal mode, COMMIT cannot write.
        let cursor = try reader.fetchCursor(UntypedRow.self, "SELECT id FROM items")
        _ = try cursor.next()
        var bodyRan = false
        do {
            try db.transaction {
                bodyRan = true
                try db.execute("INSERT INTO items (id) VALUES (3)")
            }
            Issue.record("the commit should have been busy")
        } catch let error as SQLiteError {
            #expect(error.isBusy)
            #expect(error.sql == "COMMIT")
        }
        #expect(bodyRan)
        #expect(!db.isInTransaction)
        cursor.close()
        #expect(try count(db) == 2)
    }
}
