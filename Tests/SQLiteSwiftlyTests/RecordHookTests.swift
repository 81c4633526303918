import Foundation
import SQLiteSwiftly
import Testing

/// What a model's `willSave()` refuses.
private enum ValidationError: Error, Equatable {
    case emptyTitle
}

/// A hand-written model that trims its title and refuses an empty one.
private struct Note: TableModel, Equatable {
    var id: Int64
    var title: String

    static let tableName = "notes"
    static let columns = [Column("id", Int64.self, primaryKey: true), Column("title", String.self, unique: true)]

    init(id: Int64, title: String) {
        self.id = id
        self.title = title
    }

    init(row: borrowing Row) throws {
        id = try row[0]
        title = try row[1]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(title)
    }

    mutating func willSave() throws {
        title = title.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { throw ValidationError.emptyTitle }
    }
}

/// The same rules on a `Codable` model.
private struct CodableNote: CodableTableModel, Equatable {
    var id: Int64
    var title: String

    static let tableName = "codable_notes"
    static let columns = [Column("id", Int64.self, primaryKey: true), Column("title", String.self)]

    mutating func willSave() throws {
        title = title.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { throw ValidationError.emptyTitle }
    }
}

@Suite struct RecordHookTests {
    @Test("insert, insertIfNew and update run willSave on a copy: the stored row is normalized")
    func normalizes() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Note.self)
        let insert = try db.makeInsertStatement(for: Note.self)
        let note = Note(id: 1, title: "  groceries  ")
        try insert.insert(note)
        #expect(note.title == "  groceries  ")  // the caller's value is untouched
        #expect(try db.fetchAll(Note.self) == [Note(id: 1, title: "groceries")])
        #expect(try insert.insertIfNew(Note(id: 1, title: " groceries ")) == nil)  // normalized, then a duplicate
        #expect(try insert.insertIfNew(Note(id: 2, title: " chores")) == 2)
        #expect(try db.update(Note(id: 2, title: "chores  ")))
        #expect(try db.fetchAll(Note.self, where: "1 ORDER BY id").map(\.title) == ["groceries", "chores"])
    }

    @Test("an error thrown by willSave reaches the caller unchanged, and nothing is written")
    func refuses() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Note.self)
        let insert = try db.makeInsertStatement(for: Note.self)
        #expect(throws: ValidationError.emptyTitle) { try insert.insert(Note(id: 1, title: "   ")) }
        #expect(throws: ValidationError.emptyTitle) { try insert.insertIfNew(Note(id: 1, title: "")) }
        try insert.insert(Note(id: 1, title: "kept"))
        #expect(throws: ValidationError.emptyTitle) { try db.update(Note(id: 1, title: " ")) }
        #expect(try db.fetchAll(Note.self) == [Note(id: 1, title: "kept")])
        #expect(try insert.insert(Note(id: 2, title: "after")) == 2)  // the statement stays usable
    }

    @Test("Codable models use the same hook")
    func codable() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: CodableNote.self)
        let insert = try db.makeInsertStatement(for: CodableNote.self)
        try insert.insert(CodableNote(id: 1, title: " trimmed "))
        #expect(throws: ValidationError.emptyTitle) { try insert.insert(CodableNote(id: 2, title: " ")) }
        #expect(try db.fetchAll(CodableNote.self) == [CodableNote(id: 1, title: "trimmed")])
    }

    @Test("delete does not run willSave: deleting needs only the key")
    func deleteSkipsHook() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Note.self)
        try db.makeInsertStatement(for: Note.self).insert(Note(id: 1, title: "x"))
        #expect(try db.delete(Note(id: 1, title: "")))
    }
}
