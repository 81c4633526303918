import SQLiteSwiftly
import SQLiteSwiftlyModelGenerator
import Testing

@Suite struct FullTextIndexGenerationTests {
    /// A database with `notes` and an index over it as the library writes it.
    private func notesDatabase(_ index: FullTextIndex = FullTextIndex(columns: ["body"])) throws -> Connection {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL, stars INTEGER)")
        try db.execute("INSERT INTO notes VALUES (1, 'Crème brûlée', 5)")
        try db.createFullTextIndex(index, content: .table("notes", rowID: "id"))
        return db
    }

    @Test("an index the library writes over a generated table becomes the model's fullTextIndex, also when asked for")
    func attached() throws {
        let db = try notesDatabase(FullTextIndex(columns: ["body"], tokenizer: .trigram(), name: "search"))
        for tables in [nil, ["notes"]] {
            let generated = try ModelGenerator(connection: db).generate(tables: tables)
            #expect(generated.source.contains("extension Note: TableModel, FullTextSearchable {"))
            #expect(
                generated.source.contains(
                    #"static let fullTextIndex = FullTextIndex(columns: ["body"], tokenizer: .trigram(), name: "search")"#
                ))
            #expect(!generated.source.contains(#"trigger "search_"#), "the index's triggers are declared, not listed")
            #expect(generated.summary.first == #"table "notes" -> Note: 3 columns; full-text index "search""#)
        }
        let defaultName = try notesDatabase()
        #expect(
            try ModelGenerator(connection: defaultName).generate().source.contains(
                #"static let fullTextIndex = FullTextIndex(columns: ["body"])"#))
    }

    @Test(
        "other FTS5 tables are skipped with what they are",
        arguments: [
            ("DROP TRIGGER notes_fts_au", "without the triggers the library writes"),
            ("DROP TABLE notes_fts; CREATE VIRTUAL TABLE notes_fts USING fts5(body, content='')", "contentless"),
            (
                "DROP TABLE notes_fts; CREATE VIRTUAL TABLE notes_fts USING fts5(body)",
                "which keeps its own copy of the text"
            ),
            (
                "DROP TABLE notes_fts; CREATE VIRTUAL TABLE notes_fts USING fts5(body, content=notes)",
                "not by a single INTEGER"
            ),
            (
                "DROP TABLE notes_fts; CREATE VIRTUAL TABLE notes_fts USING fts5(body, content=other)",
                "which is not generated"
            ),
        ])
    func skipped(change: String, reason: String) throws {
        let db = try notesDatabase()
        try db.executeScript(SQL(verbatim: change))
        let generated = try ModelGenerator(connection: db).generate()
        #expect(generated.source.contains("extension Note: TableModel {"))
        let line = try #require(generated.skipped.first)
        #expect(line.hasPrefix(#"Skipped virtual table "notes_fts" (fts5 on "body", "#))
        #expect(line.contains(reason), "\(line)")
    }
}
