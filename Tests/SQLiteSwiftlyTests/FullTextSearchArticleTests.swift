import Foundation
import SQLiteSwiftly
import Testing

/// The notes app's model and tokenizer, as the "Full-Text Search" article shows them.
enum FullTextArticle {
    // BEGIN FullTextSearch: model
    struct Note: FullTextSearchable {
        var id: Int
        var title: String
        var body: String
        var pinned: Bool

        static let tableName = "notes"
        static let columns = [
            Column("id", Int.self, primaryKey: true),
            Column("title", String.self),
            Column("body", String.self),
            Column("pinned", Bool.self, default: false),
        ]
        static let fullTextIndex = FullTextIndex(columns: ["title", "body"], prefixLengths: [2, 3])

        init(id: Int, title: String, body: String, pinned: Bool = false) {
            (self.id, self.title, self.body, self.pinned) = (id, title, body, pinned)
        }

        init(row: borrowing Row) throws {
            (id, title, body, pinned) = (try row[0], try row[1], try row[2], try row[3])
        }

        func encode(to encoder: inout RowEncoder) throws {
            try encoder.encode(id)
            try encoder.encode(title)
            try encoder.encode(body)
            try encoder.encode(pinned)
        }
    }
    // END FullTextSearch: model

    // BEGIN FullTextSearch: tokenizer
    /// unicode61's words, plus "todo" at the place of every "task" or "chore", so that a search for todo finds them.
    struct Chores: TextTokenizer {
        static let name = "chores"
        let words: WrappedTokenizer

        init(arguments: [String], context: borrowing TokenizerContext) throws {
            words = try context.tokenizer(.unicode61())
        }

        func tokenize(_ text: UnsafeBufferPointer<UInt8>, for reason: TokenizationReason, into tokens: inout TokenSink)
            throws
        {
            try words.tokenize(text, for: reason) { word, range, colocated in
                try tokens.add(word, at: range, colocated: colocated)
                if reason == .document && (word.elementsEqual("task".utf8) || word.elementsEqual("chore".utf8)) {
                    try tokens.add("todo", at: range, colocated: true)
                }
            }
        }
    }
    // END FullTextSearch: tokenizer
}

/// The examples of the "Full-Text Search" article, in its order, each continuing from the ones before.
@Suite struct FullTextSearchArticleTests {
    @Test("the notes app of the article: index, search as you type, rank, snippets, a Swift tokenizer")
    func notesApp() throws {
        typealias Note = FullTextArticle.Note
        typealias Chores = FullTextArticle.Chores
        // BEGIN FullTextSearch: create
        let db = try Connection.inMemory()
        try db.createTable(for: Note.self)  // the table, the index "notes_fts" and its three triggers
        let insert = try db.makeInsertStatement(for: Note.self)
        try db.transaction {
            try insert.insert(Note(id: 1, title: "Crème brûlée", body: "Caramelize the sugar with a torch."))
            try insert.insert(
                Note(id: 2, title: "Sea view flat", body: "Two rooms and a balcony, calm at dawn.", pinned: true))
            try insert.insert(
                Note(id: 3, title: "Harbour walk", body: "Along the sea wall to the lighthouse, then back by the sea."))
            try insert.insert(Note(id: 4, title: "Packing list", body: "Sun cream, a towel, a book for the beach."))
            try insert.insert(Note(id: 5, title: "Chores", body: "The plumber's task; one chore: the tax return."))
        }
        // END FullTextSearch: create
        try db.verify(Note.self)

        // BEGIN FullTextSearch: as you type
        func titles(for typed: String) throws -> [String] {
            let pattern = try SearchPattern(typed, mode: .prefixes)  // nil when nothing was typed
            return try db.search(Note.self, matching: pattern).map(\.model.title)
        }
        let typed = try titles(for: "cre")  // ["Crème brûlée", "Packing list"]
        let quote = try titles(for: "\"creme")  // ["Crème brûlée"]
        let syntax = try titles(for: "sea -wall (")  // ["Harbour walk"]: "-wall" is a word to find, not an exclusion
        let nothing = try titles(for: "   ")  // []
        // END FullTextSearch: as you type
        #expect(typed == ["Crème brûlée", "Packing list"])
        #expect(quote == ["Crème brûlée"])
        #expect(syntax == ["Harbour walk"])
        #expect(nothing == [])

        // BEGIN FullTextSearch: ranking
        let sea = try SearchPattern("sea")
        let byRank = try db.search(Note.self, matching: sea).map(\.model.title)
        // ["Harbour walk", "Sea view flat"]: "sea" twice in the body beats once in the title
        let titleFirst = try db.search(Note.self, matching: sea, weights: ["title": 10]).map(\.model.title)
        // ["Sea view flat", "Harbour walk"]
        let pinnedFirst = try db.search(Note.self, matching: sea, orderBy: "pinned DESC, rank").map(\.model.title)
        // ["Sea view flat", "Harbour walk"]
        let page = try db.search(Note.self, matching: sea, where: "pinned = 0", limit: 20, offset: 0).map(\.model.id)
        // [3]
        // END FullTextSearch: ranking
        #expect(byRank == ["Harbour walk", "Sea view flat"])
        #expect(titleFirst == ["Sea view flat", "Harbour walk"])
        #expect(pinnedFirst == ["Sea view flat", "Harbour walk"])
        #expect(page == [3])

        // BEGIN FullTextSearch: snippets
        let results = try db.search(
            Note.self, matching: try SearchPattern("lighthouse"),
            highlight: SearchHighlight(open: "<mark>", close: "</mark>"),
            snippet: SearchSnippet(open: "**", close: "**", ellipsis: "…", wordCount: 5))
        let snippet = results.first?.snippet  // "…to the **lighthouse**, then back…"
        let body = results.first?.highlights["body"]
        // "Along the sea wall to the <mark>lighthouse</mark>, then back by the sea."
        // END FullTextSearch: snippets
        #expect(snippet == "…to the **lighthouse**, then back…")
        #expect(body == "Along the sea wall to the <mark>lighthouse</mark>, then back by the sea.")

        // BEGIN FullTextSearch: raw
        let raw = SearchPattern(rawQuery: "title:sea* OR (torch NOT sugar)")
        let rawTitles = try db.search(Note.self, matching: raw).map(\.model.title)  // ["Sea view flat"]
        // END FullTextSearch: raw
        #expect(rawTitles == ["Sea view flat"])

        // BEGIN FullTextSearch: swift tokenizer
        try db.add(tokenizer: Chores.self)
        let todo = FullTextIndex(columns: ["body"], tokenizer: .swift(Chores.self), name: "notes_todo")
        try db.createFullTextIndex(todo, content: .table("notes", rowID: "id"))  // indexes the notes already there
        let pattern = try SearchPattern("todo")
        let chores = try db.fetchAll(
            Note.self,
            "SELECT notes.* FROM notes JOIN notes_todo ON notes_todo.rowid = notes.id "
                + "WHERE notes_todo MATCH \(pattern) ORDER BY notes_todo.rank")
        // [Note(id: 5, title: "Chores", ...)]
        // END FullTextSearch: swift tokenizer
        #expect(chores.map(\.id) == [5])
        #expect(try db.checkFullTextIndex(named: "notes_todo"))

        // BEGIN FullTextSearch: migration
        let appDatabase = try Connection.inMemory()  // new: the migrations create its schema
        var migrator = Migrator()
        migrator.add("v1: notes, searchable") { db in
            // Printed once by `Connection.createTableSQL(for: Note.self)`, then kept as it was.
            try db.executeScript(
                """
                CREATE TABLE "notes" ("id" INTEGER PRIMARY KEY NOT NULL, "title" TEXT NOT NULL, "body" TEXT NOT NULL,
                    "pinned" INTEGER NOT NULL DEFAULT 0);
                CREATE VIRTUAL TABLE "notes_fts" USING fts5("title", "body",
                    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3', content = 'notes', content_rowid = 'id');
                CREATE TRIGGER "notes_fts_ai" AFTER INSERT ON "notes" BEGIN
                    INSERT INTO "notes_fts" (rowid, "title", "body") VALUES (new."id", new."title", new."body");
                END;
                CREATE TRIGGER "notes_fts_ad" AFTER DELETE ON "notes" BEGIN
                    INSERT INTO "notes_fts" ("notes_fts", rowid, "title", "body")
                        VALUES ('delete', old."id", old."title", old."body");
                END;
                CREATE TRIGGER "notes_fts_au" AFTER UPDATE OF "id", "title", "body" ON "notes" BEGIN
                    INSERT INTO "notes_fts" ("notes_fts", rowid, "title", "body")
                        VALUES ('delete', old."id", old."title", old."body");
                    INSERT INTO "notes_fts" (rowid, "title", "body") VALUES (new."id", new."title", new."body");
                END;
                """)
        }
        try migrator.migrate(appDatabase)
        // END FullTextSearch: migration
        try appDatabase.verify(Note.self)
        let generated = try Connection.createTableSQL(for: Note.self)
        #expect(generated.count == 5)
    }
}
