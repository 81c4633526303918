import Foundation
import Testing

@testable import SQLiteSwiftly

/// The examples of the Changesets, Undo and Sync article, in its order, each continuing from the ones before.
@Suite struct ChangesetsArticleTests {
    @Test("the article's examples run in order from paths where no file exists, with the results they show")
    func walkthrough() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.sqlite")  // the article: "paths where no file exists yet"
        let laptopPath = directory.path("laptop.sqlite")
        let phonePath = directory.path("phone.sqlite")
        func titles(_ shared: SharedConnection) async throws -> [String] {
            try await shared.read { db in try db.fetchAll(UntypedRow.self, "SELECT title FROM notes ORDER BY id") }
                .compactMap { row in if case .text(let title)? = row[0] { title } else { nil } }
        }

        // BEGIN ChangesetsUndoAndSync: recording
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT)")
        try db.execute("INSERT INTO notes (id, title, body) VALUES (1, 'Groceries', 'milk')")

        let (_, changeset) = try db.recordingChangeset {
            try db.execute("UPDATE notes SET body = 'bread' WHERE id = 1")
            try db.execute("INSERT INTO notes (id, title) VALUES (2, 'Ideas')")
        }
        let saved = changeset.bytes  // SQLite's format, the same everywhere: save it, send it
        let changes = try Changeset(bytes: saved).changes()
        // changes[0]: .update of "notes", old values [1, nil, "milk"], new [nil, nil, "bread"]
        //             (the key and the changed column; nil where the change says nothing)
        // changes[1]: .insert of "notes", new values [2, "Ideas", NULL]
        // END ChangesetsUndoAndSync: recording
        #expect(changes.map(\.operation) == [.update, .insert])
        #expect(changes.map(\.table) == ["notes", "notes"])
        #expect(changes[0].oldValues == [1, nil, "milk"])
        #expect(changes[0].newValues == [nil, nil, "bread"])
        #expect(changes[1].newValues == [2, "Ideas", .null])

        // BEGIN ChangesetsUndoAndSync: undo
        let shared = try SharedConnection(.create(path: path))
        try await shared.write { db in
            try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT)")
        }
        let history = UndoHistory(depth: 50)

        try await history.write(on: shared, named: "New Note") { db in
            try db.execute("INSERT INTO notes (id, title) VALUES (1, 'Groceries')")
        }
        try await history.write(on: shared, named: "Rename") { db in
            try db.execute("UPDATE notes SET title = 'Shopping' WHERE id = 1")
        }
        let menuItem = history.undoName.map { "Undo \($0)" }  // "Undo Rename"
        try await history.undo(on: shared)  // the title is "Groceries" again
        try await history.redo(on: shared)  // and "Shopping"
        // END ChangesetsUndoAndSync: undo
        #expect(menuItem == "Undo Rename")
        #expect(try await titles(shared) == ["Shopping"])

        // BEGIN ChangesetsUndoAndSync: group
        try await history.group(named: "Import") {
            for (id, title) in [(2, "Ideas"), (3, "Trips")] {
                try await history.write(on: shared) { db in
                    try db.execute("INSERT INTO notes (id, title) VALUES (\(id), \(title))")
                }
            }
        }
        try await history.undo(on: shared)  // both notes go at once
        // END ChangesetsUndoAndSync: group
        #expect(try await titles(shared) == ["Shopping"])
        #expect(history.undoName == "Rename" && history.redoName == "Import")

        // BEGIN ChangesetsUndoAndSync: conflict
        try await shared.write { db in  // a write the history does not record
            try db.execute("UPDATE notes SET title = 'Errands' WHERE id = 1")
        }
        do {
            try await history.undo(on: shared)  // would put back "Groceries" over "Errands"
        } catch let error as SQLiteError where error.kind == .changesetConflict {
            history.removeAll()  // nothing was undone; the history starts again from here
        }
        // END ChangesetsUndoAndSync: conflict
        #expect(try await titles(shared) == ["Errands"])
        #expect(!history.canUndo && !history.canRedo)

        // BEGIN ChangesetsUndoAndSync: sync
        let laptop = try Connection(creating: laptopPath)
        let phone = try Connection(creating: phonePath)
        for db in [laptop, phone] {  // two copies of one database
            try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT)")
            try db.execute("INSERT INTO notes (id, title) VALUES (1, 'Groceries')")
        }
        // Each is edited on its own...
        let fromLaptop = try laptop.recordingChangeset {
            try laptop.execute("UPDATE notes SET title = 'Shopping' WHERE id = 1")
        }.changeset
        let fromPhone = try phone.recordingChangeset {
            try phone.execute("UPDATE notes SET title = 'Errands', body = 'post office' WHERE id = 1")
            try phone.execute("INSERT INTO notes (id, title) VALUES (2, 'Ideas')")
        }.changeset

        // ...then they exchange changesets. The rule: the laptop's changes win every conflict.
        func laptopWins(_ conflict: ChangesetConflict) -> ChangesetConflict.Resolution {
            conflict.kind == .data || conflict.kind == .conflict ? .replace : .skip
        }
        let result = try phone.apply(fromLaptop, onConflict: laptopWins)  // result.replacedCount == 1
        try laptop.transaction {
            try laptop.apply(fromLaptop.inverted())  // back to the common state
            try laptop.apply(fromPhone)
            try laptop.apply(fromLaptop, onConflict: laptopWins)
        }
        // Both hold note 1 "Shopping" with the body "post office", and note 2 "Ideas".
        // END ChangesetsUndoAndSync: sync
        #expect(result == AppliedChangeset(appliedCount: 1, replacedCount: 1, skipped: []))
        for db in [laptop, phone] {
            let rows = try db.fetchAll(UntypedRow.self, "SELECT title, body FROM notes ORDER BY id")
            #expect(rows.map(\.values) == [["Shopping", "post office"], ["Ideas", .null]])
        }
        #expect(try ChangesetFixture.contents(of: laptop) == ChangesetFixture.contents(of: phone))

        // BEGIN ChangesetsUndoAndSync: patchset
        let (_, patchset) = try laptop.recordingPatchset { try laptop.execute("DELETE FROM notes WHERE id = 2") }
        try phone.apply(patchset)  // note 2 goes, whatever it holds now
        // END ChangesetsUndoAndSync: patchset
        #expect(try phone.fetchValue(Int.self, "SELECT count(*) FROM notes") == 1)
        #expect(try ChangesetFixture.contents(of: laptop) == ChangesetFixture.contents(of: phone))

        // BEGIN ChangesetsUndoAndSync: unavailable
        do {
            _ = try db.recordingChangeset { try db.execute("DELETE FROM notes") }  // with the extension: no note left
        } catch let error as SQLiteError where error.kind == .sessionUnavailable {
            // this SQLite was built without the session extension: hide Undo, sync another way
        }
        // END ChangesetsUndoAndSync: unavailable
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM notes") == 0)
        try SessionFunctions.$absentForTesting.withValue("sqlite3session_create") {  // without the extension:
            let error = try requireSQLiteError { try db.recordingChangeset { try db.execute("DELETE FROM notes") } }
            #expect(error.kind == .sessionUnavailable)
        }
    }
}
