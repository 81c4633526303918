import SQLiteSwiftly
import Testing

/// Undo and redo of committed writes: steps, groups, depth, conflicts, and the shared connections.
@Suite struct UndoHistoryTests {
    private func title(_ db: Connection, _ id: Int = 1) throws -> String? {
        try db.fetchValue(String.self, "SELECT title FROM notes WHERE id = \(id)")
    }

    @Test("each write is a step: undo restores the rows, redo changes them again, in order")
    func undoRedo() throws {
        let db = try ChangesetFixture.database()
        let history = UndoHistory()
        let original = try ChangesetFixture.contents(of: db)
        #expect(!history.canUndo && !history.canRedo)
        #expect(try !history.undo(on: db))
        let id = try history.write(on: db, named: "Add") {
            try db.execute("INSERT INTO notes (id, title) VALUES (3, 'Trip')")
            return db.lastInsertedRowID
        }
        #expect(id == 3)
        try history.write(on: db, named: "Rename") { try db.execute("UPDATE notes SET title = 'Journey' WHERE id = 3") }
        try history.write(on: db) { try db.execute("DELETE FROM tags") }
        let final = try ChangesetFixture.contents(of: db)
        #expect(history.undoCount == 3 && history.undoName == nil)

        #expect(try history.undo(on: db))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM tags") == 1)
        #expect(history.undoName == "Rename" && history.redoName == nil)
        #expect(try history.undo(on: db))
        #expect(try title(db, 3) == "Trip")
        #expect(try history.undo(on: db))
        #expect(try ChangesetFixture.contents(of: db) == original)
        #expect(!history.canUndo && history.redoCount == 3 && history.redoName == "Add")

        #expect(try history.redo(on: db))
        #expect(try title(db, 3) == "Trip")
        #expect(try history.redo(on: db) && history.redo(on: db))
        #expect(try !history.redo(on: db))
        #expect(try ChangesetFixture.contents(of: db) == final)
    }

    @Test("a new write after an undo clears the redo steps; a write that changes nothing records no step")
    func newWriteClearsRedo() throws {
        let db = try ChangesetFixture.database()
        let history = UndoHistory()
        try history.write(on: db) { try db.execute("UPDATE notes SET title = 'A' WHERE id = 1") }
        try history.undo(on: db)
        #expect(history.canRedo)
        try history.write(on: db) { try db.execute("UPDATE notes SET title = title") }
        #expect(history.canRedo && !history.canUndo)
        try history.write(on: db) { try db.execute("UPDATE notes SET title = 'B' WHERE id = 1") }
        #expect(!history.canRedo && history.undoCount == 1)
    }

    @Test("the depth bounds the steps kept: the oldest go first")
    func depth() throws {
        let db = try ChangesetFixture.database()
        let history = UndoHistory(depth: 3)
        for step in 1...5 {
            try history.write(on: db, named: "\(step)") {
                try db.execute("UPDATE notes SET score = \(step) WHERE id = 1")
            }
        }
        #expect(history.undoCount == 3)
        while try history.undo(on: db) {}
        #expect(try db.fetchValue(Double.self, "SELECT score FROM notes WHERE id = 1") == 2)
        #expect(UndoHistory(depth: -1).depth == 0)
        let none = UndoHistory(depth: 0)
        try none.write(on: db) { try db.execute("UPDATE notes SET score = 9 WHERE id = 1") }
        #expect(!none.canUndo)
    }

    @Test("a row changed since by a write the history did not record is a conflict: nothing is overwritten")
    func conflictNeverOverwrites() throws {
        let db = try ChangesetFixture.database()
        let history = UndoHistory()
        try history.write(on: db, named: "Rename") { try db.execute("UPDATE notes SET title = 'Mine' WHERE id = 1") }
        try db.execute("UPDATE notes SET title = 'Theirs' WHERE id = 1")  // someone else, unrecorded
        let error = try ChangesetFixture.expectUnchanged(db) { try history.undo(on: db) }
        let conflict = try #require(error as? SQLiteError)
        #expect(conflict.kind == .changesetConflict)
        #expect(conflict.table == "notes")
        #expect(conflict.message.contains("cannot undo \"Rename\""))
        #expect(history.undoCount == 1 && !history.canRedo)
        // A change to another column of the row is not theirs to lose: the undo restores only the title.
        try db.execute("UPDATE notes SET title = 'Mine', body = 'theirs too' WHERE id = 1")
        #expect(try history.undo(on: db))
        #expect(try title(db) == "Groceries")
        #expect(try db.fetchValue(String.self, "SELECT body FROM notes WHERE id = 1") == "theirs too")
        // Redo meets their deletion.
        try db.execute("DELETE FROM tags")
        try db.execute("DELETE FROM notes WHERE id = 1")
        let redo = try ChangesetFixture.expectUnchanged(db) { try history.redo(on: db) }
        #expect((redo as? SQLiteError)?.message.contains("cannot redo") == true)
        history.removeAll()
        #expect(!history.canUndo && !history.canRedo)
    }

    @Test("a group of writes is one step, undone in one transaction; groups nest, the outer name wins")
    func groups() throws {
        let db = try ChangesetFixture.database()
        let history = UndoHistory()
        let original = try ChangesetFixture.contents(of: db)
        try history.group(named: "Import") {
            try history.write(on: db) { try db.execute("INSERT INTO notes (id, title) VALUES (3, 'Three')") }
            try history.group(named: "Inner") {
                try history.write(on: db) { try db.execute("UPDATE notes SET title = 'Tres' WHERE id = 3") }
                #expect(throws: SQLiteError.self) { try history.undo(on: db) }  // not while a group is open
            }
            try history.write(on: db) { try db.execute("DELETE FROM notes WHERE id = 2") }
        }
        #expect(history.undoCount == 1 && history.undoName == "Import")
        try history.undo(on: db)
        #expect(try ChangesetFixture.contents(of: db) == original)
        try history.redo(on: db)
        #expect(try title(db, 3) == "Tres")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM notes WHERE id = 2") == 0)
        // An empty group records nothing.
        history.group(named: "Nothing") {}
        #expect(history.undoName == "Import")
    }

    @Test("writing, undoing or redoing inside a transaction is refused; a failed write records nothing")
    func misuse() throws {
        struct Stop: Error {}
        let db = try ChangesetFixture.database()
        let history = UndoHistory()
        try db.transaction {
            let error = try requireSQLiteError { try history.write(on: db) { try db.execute("DELETE FROM tags") } }
            #expect(error.kind == .misuse)
            #expect(throws: SQLiteError.self) { try history.undo(on: db) }
        }
        #expect(throws: Stop.self) {
            try history.write(on: db) {
                try db.execute("DELETE FROM tags")
                throw Stop()
            }
        }
        #expect(!history.canUndo)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM tags") == 1)
        let restricted = UndoHistory(tables: ["tags"])
        try restricted.write(on: db) {
            try db.execute("DELETE FROM tags")
            try db.execute("UPDATE notes SET title = 'kept' WHERE id = 1")
        }
        try restricted.undo(on: db)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM tags") == 1)
        #expect(try title(db) == "kept")
    }

    @Test("through a shared connection and a pool; observations see undo and redo like any commit")
    func sharedAndObserved() async throws {
        let directory = try TemporaryDirectory()
        let pool = try ConnectionPool(.create(path: directory.path("notes.sqlite")))
        try await pool.write { db in try ChangesetFixture.fill(db) }
        let history = UndoHistory()
        let titles = ObservationRecorder(
            pool.observe { db in try db.fetchValue(String.self, "SELECT title FROM notes WHERE id = 1") ?? "" })
        #expect(try await titles.value(at: 0) == "Groceries")
        try await history.write(on: pool, named: "Rename") { db in
            try db.execute("UPDATE notes SET title = 'Shopping' WHERE id = 1")
        }
        _ = try await titles.value(from: 1) { $0 == "Shopping" }
        let seen = titles.values.count
        #expect(try await history.undo(on: pool))
        _ = try await titles.value(from: seen) { $0 == "Groceries" }
        let undone = titles.values.count
        #expect(try await history.redo(on: pool))
        _ = try await titles.value(from: undone) { $0 == "Shopping" }

        let shared = try SharedConnection(.inMemory)
        try await shared.write { db in try ChangesetFixture.fill(db) }
        let changes = shared.changes()
        let sharedHistory = UndoHistory()
        try await sharedHistory.group(named: "Two") {
            try await sharedHistory.write(on: shared) { db in try db.execute("DELETE FROM tags") }
            try await sharedHistory.write(on: shared) { db in try db.execute("DELETE FROM notes WHERE id = 1") }
        }
        #expect(try await sharedHistory.undo(on: shared))
        var undoChange: DatabaseChange?
        var count = 0
        for await change in changes {
            count += 1
            if count == 3 {
                undoChange = change
                break
            }
        }
        let notes = try #require(undoChange?[table: "notes"])
        #expect(notes.kinds.contains(.insert))
        #expect(undoChange?[table: "tags"]?.kinds.contains(.insert) == true)
        #expect(try await shared.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM tags") } == 1)
        #expect(try await sharedHistory.redo(on: shared))
        #expect(try await shared.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM notes") } == 1)
    }
}
