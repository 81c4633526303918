import SQLiteSwiftly
import Testing

/// Recording changesets and patchsets, reading, inverting and concatenating them.
@Suite struct ChangesetTests {
    @Test("a recording holds each changed row once, with its table, operation and values before and after")
    func recordAndInspect() throws {
        let db = try ChangesetFixture.database()
        let (count, changeset) = try db.recordingChangeset {
            try db.execute("INSERT INTO notes (id, title, score, data) VALUES (3, 'Trip', -0.25, x'0102')")
            try db.execute("UPDATE notes SET body = 'bread', title = 'Shopping' WHERE id = 1")
            try db.execute("UPDATE notes SET body = 'eggs' WHERE id = 1")  // merged with the update before
            try db.execute("DELETE FROM notes WHERE id = 2")
            try db.execute("UPDATE tags SET color = NULL WHERE note = 1")
            return try db.fetchValue(Int.self, "SELECT count(*) FROM notes")
        }
        #expect(count == 2)
        let changes = try changeset.changes()
        #expect(changes.count == 4)
        let byKey = Dictionary(uniqueKeysWithValues: changes.map { ("\($0.table) \($0.operation.rawValue)", $0) })
        let insert = try #require(byKey["notes INSERT"])
        #expect(insert.oldValues.isEmpty)
        #expect(insert.newValues == [3, "Trip", .null, -0.25, .blob([1, 2]), .null])
        #expect(insert.primaryKeyColumns == [true, false, false, false, false, false])
        let update = try #require(byKey["notes UPDATE"])
        #expect(update.oldValues == [1, "Groceries", "milk", nil, nil, nil])  // key and changed columns only
        #expect(update.newValues == [nil, "Shopping", "eggs", nil, nil, nil])
        let delete = try #require(byKey["notes DELETE"])
        #expect(delete.oldValues == [2, "Ideas", .null, 2.0, .blob([]), "i"])
        #expect(delete.newValues.isEmpty)
        let tag = try #require(byKey["tags UPDATE"])
        #expect(tag.primaryKeyColumns == [true, true, false])
        #expect(tag.oldValues == [1, "home", "blue"])
        #expect(tag.newValues == [nil, nil, .null])
        #expect(!tag.isIndirect)
    }

    @Test("changes made by a trigger are recorded and marked indirect")
    func indirectChanges() throws {
        let db = try ChangesetFixture.database()
        try db.execute(
            "CREATE TRIGGER tag_new AFTER INSERT ON notes BEGIN INSERT INTO tags VALUES (new.id, 'new', NULL); END")
        let (_, changeset) = try db.recordingChangeset {
            try db.execute("INSERT INTO notes (id, title) VALUES (5, 'Five')")
        }
        let changes = try changeset.changes()
        #expect(changes.map(\.table) == ["notes", "tags"])
        #expect(changes.map(\.isIndirect) == [false, true])
    }

    @Test("only the chosen tables are recorded; an empty recording is an empty changeset")
    func chosenTables() throws {
        let db = try ChangesetFixture.database()
        let (_, changeset) = try db.recordingChangeset(of: ["tags"]) {
            try db.execute("UPDATE notes SET title = 'x'")
            try db.execute("INSERT INTO tags VALUES (2, 'work', 'red')")
        }
        #expect(try changeset.changes().map(\.table) == ["tags"])
        let (_, empty) = try db.recordingChangeset(of: ["tags"]) { try db.execute("UPDATE notes SET title = 'y'") }
        #expect(empty.isEmpty)
        #expect(try empty.changes().isEmpty)
        #expect(try empty.inverted().isEmpty)
        let (_, unchanged) = try db.recordingChangeset { try db.execute("UPDATE notes SET title = title") }
        #expect(unchanged.isEmpty)
    }

    @Test("a patchset is smaller: a deleted row keeps its key only, an update its key and new values")
    func patchset() throws {
        let db = try ChangesetFixture.database()
        let work = {
            try db.execute("UPDATE notes SET body = 'bread' WHERE id = 1")
            try db.execute("DELETE FROM notes WHERE id = 2")
        }
        let (_, changeset) = try db.recordingChangeset { try work() }
        try db.execute("UPDATE notes SET body = 'milk' WHERE id = 1")
        try db.execute("INSERT INTO notes (id, title, score, data, slug) VALUES (2, 'Ideas', 2, x'', 'i')")
        let (_, patchset) = try db.recordingPatchset { try work() }
        #expect(patchset.bytes.count < changeset.bytes.count)
        let changes = try patchset.changes()
        #expect(changes.map(\.operation) == [.update, .delete])
        #expect(changes[0].oldValues == [1, nil, nil, nil, nil, nil])
        #expect(changes[0].newValues == [nil, nil, "bread", nil, nil, nil])
        #expect(changes[1].oldValues == [2, nil, nil, nil, nil, nil])
        let error = sqliteError { try Changeset(bytes: patchset.bytes).inverted() }
        #expect(error?.kind == .invalidChangeset)
        #expect(sqliteError { try Patchset(bytes: changeset.bytes).changes() }?.kind == .invalidChangeset)
    }

    @Test("the inverse undoes the changes, and inverting twice gives the changeset back")
    func invert() throws {
        let db = try ChangesetFixture.database()
        let before = try ChangesetFixture.contents(of: db)
        let (_, changeset) = try db.recordingChangeset {
            try db.execute("INSERT INTO notes (id, title) VALUES (3, 'Trip')")
            try db.execute("UPDATE notes SET score = 9 WHERE id = 1")
            try db.execute("DELETE FROM notes WHERE id = 2")
        }
        let inverse = try changeset.inverted()
        #expect(try inverse.inverted() == changeset)
        let operations = try zip(changeset.changes(), inverse.changes()).map { ($0.operation, $1.operation) }
        #expect(operations.count == 3)
        for (operation, inverted) in operations {
            #expect(inverted == [.insert: .delete, .delete: .insert, .update: .update][operation])
        }
        try db.apply(inverse)
        #expect(try ChangesetFixture.contents(of: db) == before)
    }

    @Test("concatenating merges the changes to each row, as applying them in turn would")
    func concatenate() throws {
        let db = try ChangesetFixture.database()
        let other = try ChangesetFixture.database()
        let (_, first) = try db.recordingChangeset {
            try db.execute("INSERT INTO notes (id, title) VALUES (3, 'Trip')")
            try db.execute("UPDATE notes SET body = 'a' WHERE id = 1")
        }
        let (_, second) = try db.recordingChangeset {
            try db.execute("UPDATE notes SET title = 'Journey' WHERE id = 3")
            try db.execute("DELETE FROM notes WHERE id = 2")
        }
        let combined = try Changeset.concatenating([first, Changeset(bytes: []), second])
        let changes = try combined.changes()
        #expect(changes.count == 3)
        #expect(changes.first { $0.operation == .insert }?.newValues[1] == "Journey")
        try other.apply(combined)
        #expect(try ChangesetFixture.contents(of: other) == ChangesetFixture.contents(of: db))
        #expect(try Changeset.concatenating([]).isEmpty)
        #expect(try Changeset.concatenating([first]) == first)

        let (_, patchA) = try db.recordingPatchset { try db.execute("UPDATE notes SET body = 'b' WHERE id = 1") }
        let (_, patchB) = try db.recordingPatchset { try db.execute("UPDATE notes SET body = 'c' WHERE id = 1") }
        let patch = try Patchset.concatenating([patchA, patchB])
        #expect(try patch.changes().map(\.newValues) == [[nil, nil, "c", nil, nil, nil]])
        #expect(sqliteError { try Changeset.concatenating([first, Changeset(bytes: patchA.bytes)]) } != nil)
    }

    @Test("a body that throws rolls back its work and returns no changeset")
    func failedBody() throws {
        struct Stop: Error {}
        let db = try ChangesetFixture.database()
        let before = try ChangesetFixture.contents(of: db)
        #expect(throws: Stop.self) {
            try db.recordingChangeset {
                try db.execute("DELETE FROM notes WHERE id = 2")
                throw Stop()
            }
        }
        #expect(try ChangesetFixture.contents(of: db) == before)
        // Recording inside a transaction is a savepoint: the outer transaction goes on.
        try db.transaction {
            _ = try? db.recordingChangeset {
                try db.execute("DELETE FROM notes WHERE id = 2")
                throw Stop()
            }
            let (_, inner) = try db.recordingChangeset { try db.execute("DELETE FROM tags") }
            #expect(try inner.changes().map(\.operation) == [.delete])
            try db.execute("DELETE FROM notes WHERE id = 1")
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM notes") == 1)
    }

    @Test("a table without a primary key is refused with its name, before or after the body")
    func tableWithoutKey() throws {
        let db = try ChangesetFixture.database()
        let before = try ChangesetFixture.contents(of: db)
        let changed = try requireSQLiteError {
            try db.recordingChangeset {
                try db.execute("UPDATE notes SET title = 'x' WHERE id = 1")
                try db.execute("INSERT INTO log VALUES ('hello')")
            }
        }
        #expect(changed.kind == .misuse)
        #expect(changed.table == "log")
        #expect(changed.message.contains("PRIMARY KEY"))
        #expect(try ChangesetFixture.contents(of: db) == before)

        var ran = false
        let named = try requireSQLiteError { try db.recordingChangeset(of: ["notes", "log"]) { ran = true } }
        #expect(named.table == "log")
        #expect(!ran)
        let missing = try requireSQLiteError { try db.recordingPatchset(of: ["nowhere"]) {} }
        #expect(missing.kind == .misuse)
        #expect(missing.message.contains("does not exist"))
        // AUTOINCREMENT keeps its counter in sqlite_sequence, which has no key: not an error.
        try db.execute("CREATE TABLE counters (id INTEGER PRIMARY KEY AUTOINCREMENT, n INTEGER)")
        let (_, counted) = try db.recordingChangeset { try db.execute("INSERT INTO counters (n) VALUES (1)") }
        #expect(try counted.changes().map(\.table) == ["counters"])
    }

    @Test("tables SQLite 3.40 cannot record (generated columns) and columns changed mid-recording are named errors")
    func schemaChanges() throws {
        let db = try ChangesetFixture.database()
        try db.execute("CREATE TABLE sums (id INTEGER PRIMARY KEY, a INTEGER, twice INTEGER AS (a * 2))")
        do {
            let (_, changeset) = try db.recordingChangeset { try db.execute("INSERT INTO sums (id, a) VALUES (1, 2)") }
            #expect(try changeset.changes().count == 1)  // a newer SQLite records it
        } catch let error as SQLiteError {
            #expect(error.kind == .schemaMismatch)
            #expect(error.table == "sums")
            #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sums") == 0)
        }
        let altered = try requireSQLiteError {
            try db.recordingChangeset {
                try db.execute("UPDATE notes SET title = 'x' WHERE id = 1")
                try db.execute("ALTER TABLE notes ADD COLUMN extra TEXT")
                try db.execute("UPDATE notes SET title = 'y' WHERE id = 2")
            }
        }
        #expect(altered.kind == .schemaMismatch)
        #expect(altered.message.contains("schema"))
        #expect(try db.fetchValue(String.self, "SELECT title FROM notes WHERE id = 1") == "Groceries")
    }

    @Test("text that is not UTF-8 is reported with the table and column, not repaired")
    func invalidText() throws {
        let db = try ChangesetFixture.database()
        let (_, changeset) = try db.recordingChangeset {
            try db.execute("INSERT INTO notes (id, title) VALUES (7, CAST(x'ff41' AS TEXT))")
        }
        let error = try requireSQLiteError { try changeset.changes() }
        #expect(error.kind == .conversionFailed)
        #expect(error.table == "notes")
        #expect(error.column == "#2")
    }
}
