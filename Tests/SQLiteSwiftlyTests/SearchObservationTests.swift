import Foundation
import SQLiteSwiftly
import Testing

@Suite struct SearchObservationTests {
    /// A shared in-memory database with the sample notes and an unrelated table.
    private func makeShared() async throws -> SharedConnection {
        let shared = try SharedConnection(.inMemory)
        try await shared.write { db in
            try db.createTable(for: SearchFolder.self)
            try db.createTable(for: SearchNote.self)
            let insert = try db.makeInsertStatement(for: SearchNote.self)
            for note in SearchNote.samples { try insert.insert(note) }
            try db.execute("CREATE TABLE other (id INTEGER PRIMARY KEY)")
        }
        return shared
    }

    @Test("an observed search runs again when the indexed table changes, and not for an unrelated table")
    func observedSearch() async throws {
        let shared = try await makeShared()
        let counter = CallCounter()
        let pattern = try #require(try SearchPattern("sea"))
        let recorder = ObservationRecorder(
            shared.observe { db in
                counter.increment()
                return try db.search(SearchNote.self, matching: pattern, orderBy: "id").map(\.model.id)
            })
        #expect(try await recorder.value(at: 0) == [2, 5])
        try await shared.write { db in try db.execute("INSERT INTO other VALUES (1)") }
        try await shared.write { db in
            try db.makeInsertStatement(for: SearchNote.self).insert(
                SearchNote(id: 7, title: "Seaside", body: "sea air"))
        }
        #expect(try await recorder.value(at: 1) == [2, 5, 7])
        try await shared.write { db in try db.execute("UPDATE notes SET body = 'no salt' WHERE id = 5") }
        #expect(try await recorder.value(at: 2) == [2, 7])
        try await shared.write { db in try db.execute("DELETE FROM notes WHERE id = 2") }
        #expect(try await recorder.value(at: 3) == [7])
        #expect(counter.value == 4)
    }

    @Test("SQL that reads only the index is notified by writes to its table, through the triggers")
    func indexOnlyQuery() async throws {
        let shared = try await makeShared()
        let pattern = try #require(try SearchPattern("dawn OR boat", mode: .anyWord))
        let recorder = ObservationRecorder(
            shared.observe { db in
                try db.fetchValue(Int.self, "SELECT count(*) FROM notes_fts WHERE notes_fts MATCH \(pattern)") ?? -1
            })
        #expect(try await recorder.value(at: 0) == 1)
        try await shared.write { db in try db.execute("INSERT INTO notes (id, title) VALUES (8, 'Boat trip')") }
        #expect(try await recorder.value(at: 1) == 2)
        try await shared.write { db in try db.rebuildFullTextIndex(for: SearchNote.self) }
        #expect(try await recorder.value(at: 2) == 2)
    }

    @Test("the changes of a write to a searched table name the table and its index")
    func changes() async throws {
        let shared = try await makeShared()
        let recorder = ObservationRecorder(shared.changes())
        try await shared.write { db in try db.execute("UPDATE notes SET title = 'Calm sea' WHERE id = 2") }
        let change = try await recorder.value(at: 0)
        // SQLite's update hook also reports FTS5's shadow tables (notes_fts_data...), which FTS5 writes itself.
        #expect(Set(change.tables.map(\.table)).isSuperset(of: ["notes", "notes_fts"]))
        #expect(change.tables.first { $0.table == "notes" }?.rowIDs == [2])
    }
}
