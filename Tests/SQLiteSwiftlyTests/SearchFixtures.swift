import SQLiteSwiftly

/// A folder of notes, referenced by ``SearchNote``.
struct SearchFolder: TableModel, Equatable {
    var id: Int
    var name: String

    static let tableName = "folders"
    static let columns = [Column("id", Int.self, primaryKey: true), Column("name", String.self)]

    init(id: Int, name: String) {
        (self.id, self.name) = (id, name)
    }

    init(row: borrowing Row) throws {
        (id, name) = (try row[0], try row[1])
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(name)
    }
}

/// A note whose title and body are searched; `pinned` and `folder` are not indexed.
struct SearchNote: FullTextSearchable, Equatable, Sendable {
    var id: Int
    var title: String
    var body: String?
    var pinned: Bool
    var folder: Int?

    static let tableName = "notes"
    static let columns = [
        Column("id", Int.self, primaryKey: true),
        Column("title", String.self),
        Column("body", String?.self),
        Column("pinned", Bool.self, default: false),
        Column("folder", Int?.self, references: ForeignKey("folders", "id", onDelete: .cascade)),
    ]
    static let fullTextIndex = FullTextIndex(columns: ["title", "body"], prefixLengths: [2])

    init(id: Int, title: String, body: String?, pinned: Bool = false, folder: Int? = nil) {
        (self.id, self.title, self.body, self.pinned, self.folder) = (id, title, body, pinned, folder)
    }

    init(row: borrowing Row) throws {
        (id, title, body, pinned, folder) = (try row[0], try row[1], try row[2], try row[3], try row[4])
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(title)
        try encoder.encode(body)
        try encoder.encode(pinned)
        try encoder.encode(folder)
    }

    /// Notes in several scripts and with accents.
    static let samples = [
        SearchNote(id: 1, title: "Crème brûlée", body: "Caramelize the sugar on the crème with a torch", pinned: true),
        SearchNote(id: 2, title: "Sea view", body: "The sea was calm at dawn; a boat crossed the bay"),
        SearchNote(id: 3, title: "Москва", body: "Красная площадь и Кремль"),
        SearchNote(id: 4, title: "Ελληνικά", body: "Η θάλασσα είναι ήρεμη"),
        SearchNote(id: 5, title: "Groceries 🛒", body: "sugar, eggs, cream; no sea salt"),
        SearchNote(id: 6, title: "Empty", body: nil),
    ]

    /// An in-memory database with the folders and notes tables and ``samples``.
    static func database() throws -> Connection {
        let db = try Connection.inMemory()
        try db.createTable(for: SearchFolder.self)
        try db.createTable(for: SearchNote.self)
        let insert = try db.makeInsertStatement(for: SearchNote.self)
        try db.transaction {
            for note in samples { try insert.insert(note) }
        }
        return db
    }
}

extension Connection {
    /// The ids of the notes a pattern finds, best first.
    func searchIDs(_ text: String, mode: SearchPattern.Mode = .allWords) throws -> [Int] {
        try search(SearchNote.self, matching: try SearchPattern(text, mode: mode)).map(\.model.id)
    }
}
