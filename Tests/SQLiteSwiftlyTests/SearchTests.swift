import Foundation
import SQLiteSwiftly
import Testing

@Suite struct SearchTests {
    @Test("results are the model's rows, ranked by bm25, and column weights change the order")
    func rankingAndWeights() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: SearchFolder.self)
        try db.createTable(for: SearchNote.self)
        let insert = try db.makeInsertStatement(for: SearchNote.self)
        try insert.insert(SearchNote(id: 1, title: "Harbour", body: "sea sea sea, and the sea again"))
        try insert.insert(SearchNote(id: 2, title: "Sea", body: "a walk along the cliffs"))
        let pattern = try #require(try SearchPattern("sea"))
        let plain = try db.search(SearchNote.self, matching: pattern)
        #expect(plain.map(\.model.id) == [1, 2])
        #expect(
            plain.map(\.model) == [
                try db.fetchOne(SearchNote.self, where: "id = 1"), try db.fetchOne(SearchNote.self, where: "id = 2"),
            ])
        #expect(plain[0].rank < plain[1].rank)
        #expect(plain.allSatisfy { $0.rank < 0 && $0.snippet == nil && $0.highlights.isEmpty })
        let weighted = try db.search(SearchNote.self, matching: pattern, weights: ["title": 50])
        #expect(weighted.map(\.model.id) == [2, 1])
        let error = try requireSQLiteError { try db.search(SearchNote.self, matching: pattern, weights: ["pinned": 2]) }
        #expect(error.kind == .misuse)
        #expect(error.message.contains("\"pinned\""))
        #expect(
            try requireSQLiteError { try db.search(SearchNote.self, matching: pattern, weights: ["body": .nan]) }.kind
                == .misuse)
    }

    @Test("highlights and snippets use the caller's markers, which are bound, not written into SQL")
    func highlightsAndSnippets() throws {
        let db = try SearchNote.database()
        let pattern = try #require(try SearchPattern("creme"))
        let results = try db.search(
            SearchNote.self, matching: pattern, highlight: SearchHighlight(open: "<b>'", close: "'</b>"),
            snippet: SearchSnippet(open: "[", close: "]", ellipsis: "…", wordCount: 4, column: "body"))
        let result = try #require(results.first)
        #expect(
            result.highlights == [
                "title": "<b>'Crème'</b> brûlée", "body": "Caramelize the sugar on the <b>'crème'</b> with a torch",
            ])
        #expect(result.snippet == "…the [crème] with a…")
        let sea = try db.search(
            SearchNote.self, matching: try SearchPattern("sea"), highlight: SearchHighlight(open: "«", close: "»"))
        let empty = try #require(try db.fetchOne(SearchNote.self, where: "id = 6"))
        #expect(empty.body == nil)
        #expect(sea.allSatisfy { $0.highlights.keys.contains("title") })
        #expect(
            try requireSQLiteError {
                try db.search(
                    SearchNote.self, matching: pattern, snippet: SearchSnippet(open: "", close: "", wordCount: 65))
            }.kind == .misuse)
        #expect(
            try requireSQLiteError {
                try db.search(
                    SearchNote.self, matching: pattern, snippet: SearchSnippet(open: "", close: "", column: "x"))
            }.kind == .misuse)
    }

    @Test("the order mixes the rank with the model's columns, the condition filters by them, and pages follow")
    func orderConditionAndPaging() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: SearchFolder.self)
        try db.createTable(for: SearchNote.self)
        try db.execute("INSERT INTO folders VALUES (1, 'Kitchen'), (2, 'Travel')")
        let insert = try db.makeInsertStatement(for: SearchNote.self)
        try db.transaction {
            for id in 1...30 {
                let body = String(repeating: "salt ", count: id % 7 + 1) + "and pepper \(id)"
                try insert.insert(
                    SearchNote(id: id, title: "Note \(id)", body: body, pinned: id % 10 == 0, folder: id % 2 + 1))
            }
        }
        let pattern = try #require(try SearchPattern("salt"))
        let all = try db.search(SearchNote.self, matching: pattern, orderBy: "pinned DESC, rank, id")
        #expect(all.count == 30)
        #expect(all.prefix(3).map(\.model.id).sorted() == [10, 20, 30])
        #expect(all.dropFirst(3).map(\.rank) == all.dropFirst(3).map(\.rank).sorted())
        let folder = 2
        let kitchen = try db.search(SearchNote.self, matching: pattern, where: "folder = \(folder)", orderBy: "id")
        #expect(kitchen.map(\.model.id) == Array(stride(from: 1, through: 29, by: 2)))
        var pages: [[Int]] = []
        for page in 0..<4 {
            pages.append(
                try db.search(SearchNote.self, matching: pattern, orderBy: "rank, id", limit: 8, offset: page * 8)
                    .map(\.model.id))
        }
        #expect(pages.map(\.count) == [8, 8, 8, 6])
        #expect(pages.flatMap { $0 } == all.sorted { ($0.rank, $0.model.id) < ($1.rank, $1.model.id) }.map(\.model.id))
        #expect(try db.search(SearchNote.self, matching: pattern, limit: 0) == [])
        #expect(
            try requireSQLiteError { try db.search(SearchNote.self, matching: pattern, offset: -1) }.kind == .misuse)
        #expect(try db.search(SearchNote.self, matching: nil) == [])
    }

    @Test("a raw FTS5 query uses the full syntax; a bad one is an invalid pattern with FTS5's message")
    func rawQueries() throws {
        let db = try SearchNote.database()
        let raw = SearchPattern(rawQuery: "title:sea OR (sugar NOT cream)")
        #expect(try db.search(SearchNote.self, matching: raw).map(\.model.id).sorted() == [1, 2])
        for bad in ["\"unterminated", "AND", "nosuchcolumn:word", "(sea", "sea NEAR/x sugar"] {
            let error = try requireSQLiteError {
                try db.search(SearchNote.self, matching: SearchPattern(rawQuery: bad))
            }
            #expect(error.kind == .invalidSearchPattern, "\(bad): \(error)")
            #expect(!error.message.isEmpty)
            #expect(error.sql?.contains("MATCH ?") == true)
        }
        // The same statement runs again afterwards.
        #expect(try db.searchIDs("sea").sorted() == [2, 5])
    }

    @Test("sorted by rank alone, the query is answered by FTS5's own sort")
    func rankOrderUsesFTS5() throws {
        let db = try SearchNote.database()
        let plan = try db.fetchAll(
            UntypedRow.self,
            """
            EXPLAIN QUERY PLAN SELECT "notes"."id", "search"."rank" FROM (SELECT rowid AS "search: rowid", rank AS \
            "rank" FROM "notes_fts" WHERE "notes_fts" MATCH 'sea') AS "search" JOIN "notes" ON "notes"."id" = \
            "search"."search: rowid" ORDER BY rank LIMIT 5
            """
        ).map { "\($0.values[3])" }
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    @Test("an index over a table of a database the library did not create, searched with SQL")
    func foreignTable() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE mail (subject TEXT, sender TEXT, body TEXT)")  // no INTEGER PRIMARY KEY
        try db.execute("INSERT INTO mail VALUES ('Quarterly report', 'ana@example.com', 'Les résultats du trimestre')")
        try db.execute("INSERT INTO mail VALUES ('Lunch?', 'bo@example.com', 'Noodles at noon')")
        let index = FullTextIndex(columns: ["subject", "body"], tokenizer: .porter())
        try db.createFullTextIndex(index, content: .table("mail", rowID: nil))
        let pattern = try #require(try SearchPattern("resultat"))  // porter: résultats → resultat
        let found = try db.fetchAll(
            UntypedRow.self,
            "SELECT subject FROM mail WHERE rowid IN (SELECT rowid FROM mail_fts WHERE mail_fts MATCH \(pattern))")
        #expect(found.map(\.values) == [[.text("Quarterly report")]])
        try db.execute("UPDATE mail SET body = 'Ramen instead' WHERE rowid = 2")
        #expect(try db.checkFullTextIndex(named: "mail_fts"))
        let ramen = try #require(try SearchPattern("ramen"))
        #expect(try db.fetchValue(Int.self, "SELECT rowid FROM mail_fts WHERE mail_fts MATCH \(ramen)") == 2)
        #expect(try Connection.createFullTextIndexSQL(index, content: .table("mail", rowID: nil)).count == 5)
    }

    @Test("a contentless index keeps only the index: rows are added and removed with their text")
    func contentless() throws {
        let db = try Connection.inMemory()
        let index = FullTextIndex(columns: ["text"], name: "files_fts")
        #expect(
            try requireSQLiteError { try db.createFullTextIndex(FullTextIndex(columns: ["text"]), content: .none) }.kind
                == .misuse)
        try db.createFullTextIndex(index, content: .none)
        #expect(
            try Connection.createFullTextIndexSQL(index, content: .none) == [
                "CREATE VIRTUAL TABLE \"files_fts\" USING fts5(\"text\", tokenize = 'unicode61 remove_diacritics 2', content = '')"
            ])
        try db.execute("INSERT INTO files_fts (rowid, text) VALUES (\(7), \("Straße nach Köln"))")
        try db.execute("INSERT INTO files_fts (rowid, text) VALUES (\(8), \("Route de Paris"))")
        let pattern = try #require(try SearchPattern("koln"))
        #expect(
            try db.fetchAll(UntypedRow.self, "SELECT rowid, text FROM files_fts WHERE files_fts MATCH \(pattern)").map(
                \.values) == [[.integer(7), .null]])
        try db.execute("INSERT INTO files_fts (files_fts, rowid, text) VALUES ('delete', \(7), \("Straße nach Köln"))")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM files_fts WHERE files_fts MATCH \(pattern)") == 0)
        #expect(try db.checkFullTextIndex(named: "files_fts"))
        #expect(try requireSQLiteError { try db.rebuildFullTextIndex(named: "files_fts") }.table == "files_fts")
    }

    @Test("a Codable model is searchable too: its rows decode from the search's result columns")
    func codableModel() throws {
        struct Recipe: CodableTableModel, FullTextSearchable, Equatable {
            var id: Int
            var name: String
            var steps: [String]
            static let tableName = "recipes"
            static let columns = [
                Column("id", Int.self, primaryKey: true), Column("name", String.self), Column("steps", .text),
            ]
            static let fullTextIndex = FullTextIndex(columns: ["name", "steps"], tokenizer: .porter())
        }
        let db = try Connection.inMemory()
        try db.createTable(for: Recipe.self)
        let insert = try db.makeInsertStatement(for: Recipe.self)
        let soup = Recipe(id: 1, name: "Onion soup", steps: ["Slice the onions", "Simmer for an hour"])
        try insert.insert(soup)
        try insert.insert(Recipe(id: 2, name: "Salad", steps: ["Wash", "Toss"]))
        let found = try db.search(
            Recipe.self, matching: try SearchPattern("simmering"), highlight: SearchHighlight(open: "[", close: "]"))
        #expect(found.map(\.model) == [soup])
        #expect(found.first?.highlights["steps"] == "[\"Slice the onions\",\"[Simmer] for an hour\"]")
    }

    @Test("foreign keys and record hooks keep working on the indexed table")
    func foreignKeysAndHooks() throws {
        struct Trimmed: FullTextSearchable, Equatable {
            var id: Int
            var text: String
            static let tableName = "trimmed"
            static let columns = [Column("id", Int.self, primaryKey: true), Column("text", String.self)]
            static let fullTextIndex = FullTextIndex(columns: ["text"])
            init(id: Int, text: String) { (self.id, self.text) = (id, text) }
            init(row: borrowing Row) throws { (id, text) = (try row[0], try row[1]) }
            func encode(to encoder: inout RowEncoder) throws {
                try encoder.encode(id)
                try encoder.encode(text)
            }
            mutating func willSave() throws {
                text = text.trimmingCharacters(in: .whitespaces).uppercased()
                if text.isEmpty { throw CancellationError() }
            }
        }
        let db = try SearchNote.database()
        try db.execute("INSERT INTO folders VALUES (1, 'Kitchen')")
        try db.execute("UPDATE notes SET folder = 1 WHERE id IN (1, 5)")
        let orphan = try requireSQLiteError { try db.execute("UPDATE notes SET folder = 9 WHERE id = 2") }
        #expect(orphan.code == .constraintForeignKey)
        #expect(try db.searchIDs("sea").sorted() == [2, 5])
        try db.execute("DELETE FROM folders WHERE id = 1")  // cascades to notes 1 and 5, and to their index entries
        #expect(try db.searchIDs("sugar") == [])
        #expect(try db.checkFullTextIndex(for: SearchNote.self))

        try db.createTable(for: Trimmed.self)
        let insert = try db.makeInsertStatement(for: Trimmed.self)
        try insert.insert(Trimmed(id: 1, text: "  quiet harbour "))
        #expect(throws: CancellationError.self) { try insert.insert(Trimmed(id: 2, text: "   ")) }
        let found = try db.search(Trimmed.self, matching: try SearchPattern("harbour"))
        #expect(found.map(\.model) == [Trimmed(id: 1, text: "QUIET HARBOUR")])
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM trimmed") == 1)
    }
}
