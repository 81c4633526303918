import Testing

@testable import SQLiteSwiftly

/// An SQLite without the session extension: the tests pretend one of its functions is missing, as in such a build.
@Suite struct SessionUnavailableTests {
    @Test(
        "every changeset operation says the extension is missing, at its first call, and nothing else changes",
        arguments: ["sqlite3session_create", "sqlite3changeset_apply_v2", "sqlite3changegroup_delete"])
    func missing(function: String) async throws {
        let db = try ChangesetFixture.database()
        let (_, changeset) = try db.recordingChangeset { try db.execute("DELETE FROM tags") }
        let before = try ChangesetFixture.contents(of: db)
        let history = UndoHistory()
        let uses: [(String, () throws -> Void)] = [
            ("record", { _ = try db.recordingChangeset { try db.execute("DELETE FROM notes WHERE id = 2") } }),
            ("record a patchset", { _ = try db.recordingPatchset { try db.execute("DELETE FROM notes") } }),
            ("apply", { try db.apply(changeset) }),
            ("apply a patchset", { try db.apply(Patchset(bytes: [])) }),
            ("invert", { _ = try changeset.inverted() }),
            ("read", { _ = try changeset.changes() }),
            ("concatenate", { _ = try Changeset.concatenating([changeset, changeset]) }),
            ("write through a history", { _ = try history.write(on: db) { try db.execute("DELETE FROM notes") } }),
        ]
        try SessionFunctions.$absentForTesting.withValue(function) {
            for (name, use) in uses {
                let error = try requireSQLiteError { try use() }
                #expect(error.kind == .sessionUnavailable, "\(name)")
                #expect(error.message.contains("SQLITE_ENABLE_SESSION"), "\(name)")
            }
            // Everything else works as before.
            try db.transaction { try db.execute("INSERT INTO log VALUES ('still works')") }
            #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM log") == 1)
        }
        try db.execute("DELETE FROM log")
        #expect(try ChangesetFixture.contents(of: db) == before)
        #expect(!history.canUndo)
        // Outside the stand-in, the real SQLite has the extension.
        #expect(try !changeset.changes().isEmpty)
    }
}
