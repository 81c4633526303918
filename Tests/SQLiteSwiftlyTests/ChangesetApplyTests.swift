import SQLiteSwiftly
import Testing

/// Applying changesets to other databases: conflicts, their handler, and refusals that leave the target as it was.
@Suite struct ChangesetApplyTests {
    /// A changeset made on one copy of the fixture, and another copy to apply it to.
    private func recorded(_ work: (Connection) throws -> Void) throws -> (Changeset, target: Connection) {
        let source = try ChangesetFixture.database()
        let (_, changeset) = try source.recordingChangeset { try work(source) }
        return (changeset, try ChangesetFixture.database())
    }

    @Test("a changeset applied to a copy makes the copy equal to the original, and says what it applied")
    func applyToCopy() throws {
        let source = try ChangesetFixture.database()
        let target = try ChangesetFixture.database()
        let (_, changeset) = try source.recordingChangeset {
            try source.execute("INSERT INTO notes (id, title, body) VALUES (3, 'Trip', 'Lisbon 🇵🇹')")
            try source.execute("UPDATE notes SET score = NULL WHERE id = 1")
            try source.execute("DELETE FROM notes WHERE id = 2")
            try source.execute("INSERT INTO tags VALUES (3, 'travel', NULL)")
        }
        let result = try target.apply(changeset)
        #expect(result == AppliedChangeset(appliedCount: 4, replacedCount: 0, skipped: []))
        #expect(try ChangesetFixture.contents(of: target) == ChangesetFixture.contents(of: source))
        #expect(try target.apply(Changeset(bytes: [])).appliedCount == 0)
    }

    @Test("a row changed since is a data conflict with the old, new and current values; skip keeps the target's")
    func dataConflict() throws {
        let (changeset, target) = try recorded { try $0.execute("UPDATE notes SET body = 'bread' WHERE id = 1") }
        try target.execute("UPDATE notes SET body = 'cheese' WHERE id = 1")
        var seen: [ChangesetConflict] = []
        let result = try target.apply(changeset) { conflict in
            seen.append(conflict)
            return .skip
        }
        let conflict = try #require(seen.first)
        #expect(seen.count == 1)
        #expect(conflict.kind == .data)
        #expect(conflict.change?.table == "notes")
        #expect(conflict.change?.operation == .update)
        #expect(conflict.change?.oldValues == [1, nil, "milk", nil, nil, nil])
        #expect(conflict.change?.newValues == [nil, nil, "bread", nil, nil, nil])
        #expect(conflict.currentValues == [1, "Groceries", "cheese", 1.5, .blob([0, 255]), "g"])
        #expect(result.appliedCount == 0)
        #expect(result.skipped == [conflict])
        #expect(try target.fetchValue(String.self, "SELECT body FROM notes WHERE id = 1") == "cheese")
    }

    @Test("replace writes the change over the conflicting row, and is counted")
    func replace() throws {
        let (changeset, target) = try recorded { db in
            try db.execute("UPDATE notes SET body = 'bread' WHERE id = 1")
            try db.execute("INSERT INTO notes (id, title) VALUES (3, 'Trip')")
        }
        try target.execute("UPDATE notes SET body = 'cheese' WHERE id = 1")
        try target.execute("INSERT INTO notes (id, title) VALUES (3, 'Other trip')")
        var kinds: [ChangesetConflict.Kind] = []
        let result = try target.apply(changeset) { conflict in
            kinds.append(conflict.kind)
            if conflict.kind == .conflict { #expect(conflict.currentValues?[1] == "Other trip") }
            return .replace
        }
        #expect(Set(kinds) == [.data, .conflict])
        #expect(result == AppliedChangeset(appliedCount: 2, replacedCount: 2, skipped: []))
        #expect(try target.fetchValue(String.self, "SELECT body FROM notes WHERE id = 1") == "bread")
        #expect(try target.fetchValue(String.self, "SELECT title FROM notes WHERE id = 3") == "Trip")
    }

    @Test("a missing row is a not-found conflict; a broken UNIQUE constraint a constraint conflict")
    func notFoundAndConstraint() throws {
        let (changeset, target) = try recorded { db in
            try db.execute("DELETE FROM notes WHERE id = 2")
            try db.execute("INSERT INTO notes (id, title, slug) VALUES (3, 'Trip', 't')")
        }
        try target.execute("DELETE FROM notes WHERE id = 2")
        try target.execute("UPDATE notes SET slug = 't' WHERE id = 1")
        var kinds: [ChangesetConflict.Kind] = []
        let result = try target.apply(changeset) { conflict in
            kinds.append(conflict.kind)
            #expect(conflict.currentValues == nil)
            return .skip
        }
        #expect(kinds.sorted { $0.rawValue < $1.rawValue } == [.notFound, .constraint])
        #expect(result.appliedCount == 0)
        #expect(result.skipped.count == 2)
    }

    @Test("replace is refused for kinds it cannot resolve, and nothing is applied")
    func replaceRefused() throws {
        let (changeset, target) = try recorded { db in
            try db.execute("INSERT INTO notes (id, title) VALUES (3, 'Trip')")
            try db.execute("DELETE FROM notes WHERE id = 2")
        }
        try target.execute("DELETE FROM notes WHERE id = 2")
        let error = try ChangesetFixture.expectUnchanged(target) { try target.apply(changeset) { _ in .replace } }
        #expect((error as? SQLiteError)?.kind == .misuse)
        #expect((error as? SQLiteError)?.table == "notes")
    }

    @Test("broken foreign keys are one conflict after all the changes: abort keeps none, skip keeps them unenforced")
    func foreignKeys() throws {
        let source = try ChangesetFixture.database()
        try source.setForeignKeyEnforcement(false)
        let (_, orphan) = try source.recordingChangeset {
            try source.execute("INSERT INTO notes (id, title) VALUES (8, 'Eight')")
            try source.execute("INSERT INTO tags VALUES (9, 'x', NULL)")  // note 9 does not exist
        }
        let target = try ChangesetFixture.database()
        var seen: [ChangesetConflict] = []
        let error = try ChangesetFixture.expectUnchanged(target) {
            try target.apply(orphan) { conflict in
                seen.append(conflict)
                return .abort
            }
        }
        #expect(seen == [ChangesetConflict(kind: .foreignKey, change: nil, foreignKeyViolations: 1)])
        #expect((error as? SQLiteError)?.kind == .changesetConflict)
        // Where foreign keys are enforced, broken keys cannot be kept: nothing is kept either.
        let enforced = try ChangesetFixture.expectUnchanged(target) { try target.apply(orphan) { _ in .skip } }
        #expect((enforced as? SQLiteError)?.kind == .changesetConflict)
        #expect((enforced as? SQLiteError)?.code == .constraintForeignKey)
        try target.setForeignKeyEnforcement(false)
        let kept = try target.apply(orphan) { _ in .skip }
        #expect(kept == AppliedChangeset(appliedCount: 2, replacedCount: 0, skipped: []))
        #expect(try target.fetchValue(Int.self, "SELECT count(*) FROM tags WHERE note = 9") == 1)
    }

    @Test("values of a UNIQUE column swapped between rows: SQLite 3.40 meets a constraint in every order")
    func uniqueSwap() throws {
        let (changeset, target) = try recorded { db in
            try db.execute("UPDATE notes SET slug = NULL WHERE id = 1")
            try db.execute("UPDATE notes SET slug = 'g' WHERE id = 2")
            try db.execute("UPDATE notes SET slug = 'i' WHERE id = 1")
        }
        let source = try ChangesetFixture.database()
        try source.apply(Changeset.concatenating([]))  // nothing
        do {
            try target.apply(changeset)
            // A newer SQLite may apply it (it retries an UPDATE as a DELETE and an INSERT).
            #expect(try target.fetchValue(String.self, "SELECT slug FROM notes WHERE id = 1") == "i")
        } catch let error as SQLiteError {
            #expect(error.kind == .changesetConflict)
            #expect(error.message.contains("constraint"))
            #expect(try ChangesetFixture.contents(of: target) == ChangesetFixture.contents(of: source))
        }
    }

    @Test("a conflict handler that throws, or aborts, leaves the target exactly as it was")
    func handlerFailures() throws {
        struct Refused: Error {}
        let (changeset, target) = try recorded { db in
            try db.execute("INSERT INTO notes (id, title) VALUES (3, 'Trip')")
            try db.execute("UPDATE notes SET body = 'bread' WHERE id = 1")
            try db.execute("DELETE FROM notes WHERE id = 2")
        }
        try target.execute("UPDATE notes SET body = 'cheese' WHERE id = 1")
        let thrown = try ChangesetFixture.expectUnchanged(target) {
            try target.apply(changeset) { _ in throw Refused() }
        }
        #expect(thrown is Refused)
        let aborted = try ChangesetFixture.expectUnchanged(target) { try target.apply(changeset) }
        let error = try #require(aborted as? SQLiteError)
        #expect(error.kind == .changesetConflict)
        #expect(error.table == "notes")
        #expect(error.message.contains("UPDATE"))
        #expect(!error.message.contains("bread") && !error.message.contains("cheese"))  // values stay private
        // Inside a transaction, a failed application rolls back its savepoint only.
        try target.transaction {
            try target.execute("INSERT INTO log VALUES ('kept')")
            #expect(throws: Refused.self) { try target.apply(changeset) { _ in throw Refused() } }
        }
        #expect(try target.fetchValue(Int.self, "SELECT count(*) FROM log") == 1)
    }

    @Test("a changeset for another schema is refused before anything is applied, naming the table")
    func otherSchema() throws {
        let source = try ChangesetFixture.database()
        let (_, both) = try source.recordingChangeset(of: ["notes", "tags"]) {
            try source.execute("INSERT INTO notes (id, title) VALUES (3, 'Trip')")
            try source.execute("INSERT INTO tags VALUES (1, 'work', NULL)")
        }
        let schemas: [(String, SQL)] = [
            ("does not exist", "DROP TABLE tags"),
            (
                "columns",
                "CREATE TABLE tags2 (note INTEGER, name TEXT, PRIMARY KEY (name, note)); DROP TABLE tags; "
                    + "ALTER TABLE tags2 RENAME TO tags"
            ),
            (
                "primary key",
                "CREATE TABLE tags2 (note INTEGER, name TEXT, color TEXT, PRIMARY KEY (note, name)); "
                    + "DROP TABLE tags; ALTER TABLE tags2 RENAME TO tags"
            ),
        ]
        for (problem, change) in schemas {
            let target = try ChangesetFixture.database()
            try target.executeScript(change)
            let error = try ChangesetFixture.expectUnchanged(target) { try target.apply(both) }
            let sqliteError = try #require(error as? SQLiteError)
            #expect(sqliteError.kind == .schemaMismatch, "\(problem)")
            #expect(sqliteError.table == "tags", "\(problem)")
            #expect(sqliteError.message.contains(problem), "\(sqliteError.message)")
        }
        // A table with more columns, added at its end, takes the changes: the new column gets its default.
        let wider = try ChangesetFixture.database()
        try wider.execute("ALTER TABLE tags ADD COLUMN rank INTEGER DEFAULT 7")
        try wider.apply(both)
        #expect(try wider.fetchValue(Int.self, "SELECT rank FROM tags WHERE name = 'work'") == 7)
    }

    @Test("patchset bytes passed as a changeset, and the reverse, are refused")
    func wrongFormat() throws {
        let source = try ChangesetFixture.database()
        let (_, patchset) = try source.recordingPatchset { try source.execute("DELETE FROM tags") }
        let target = try ChangesetFixture.database()
        let error = try ChangesetFixture.expectUnchanged(target) { try target.apply(Changeset(bytes: patchset.bytes)) }
        #expect((error as? SQLiteError)?.kind == .invalidChangeset)
        #expect(try target.apply(patchset).appliedCount == 1)
    }

    @Test("applying through a shared connection's write and a pool's write")
    func sharedAndPool() async throws {
        let directory = try TemporaryDirectory()
        let source = try ChangesetFixture.database()
        let (_, changeset) = try source.recordingChangeset { try source.execute("DELETE FROM tags") }
        let shared = try SharedConnection(.inMemory)
        try await shared.write { db in try ChangesetFixture.fill(db) }
        let applied = try await shared.write { db in try db.apply(changeset).appliedCount }
        #expect(applied == 1)
        let pool = try ConnectionPool(.create(path: directory.path("pool.sqlite")))
        try await pool.write { db in try ChangesetFixture.fill(db) }
        let recorded = try await pool.write { db in
            try db.recordingChangeset { try db.apply(changeset) }.changeset
        }
        #expect(recorded == changeset)  // applying is recorded like any other change
        #expect(try await pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM tags") } == 0)
    }
}
