import Foundation
import SQLiteSwiftly
import Testing

@Suite struct FullTextIndexTests {
    @Test("createTable creates the table, the index and its triggers, and the SQL names them all")
    func createsIndexWithTable() throws {
        let sql = try Connection.createTableSQL(for: SearchNote.self)
        #expect(sql.count == 5)
        #expect(
            sql[1] == "CREATE VIRTUAL TABLE \"notes_fts\" USING fts5(\"title\", \"body\", "
                + "tokenize = 'unicode61 remove_diacritics 2', prefix = '2', content = 'notes', content_rowid = 'id')")
        #expect(
            sql[2] == "CREATE TRIGGER \"notes_fts_ai\" AFTER INSERT ON \"notes\" BEGIN INSERT INTO \"notes_fts\" "
                + "(rowid, \"title\", \"body\") VALUES (new.\"id\", new.\"title\", new.\"body\"); END")
        #expect(
            sql[4] == "CREATE TRIGGER \"notes_fts_au\" AFTER UPDATE OF \"id\", \"title\", \"body\" ON \"notes\" BEGIN "
                + "INSERT INTO \"notes_fts\" (\"notes_fts\", rowid, \"title\", \"body\") VALUES ('delete', old.\"id\", "
                + "old.\"title\", old.\"body\"); INSERT INTO \"notes_fts\" (rowid, \"title\", \"body\") VALUES "
                + "(new.\"id\", new.\"title\", new.\"body\"); END")
        let db = try SearchNote.database()
        let names = try db.fetchAll(
            UntypedRow.self,
            "SELECT name FROM sqlite_schema WHERE name LIKE 'notes_fts%' AND type <> 'table' ORDER BY 1"
        ).map { $0.values[0] }
        #expect(names == [.text("notes_fts_ad"), .text("notes_fts_ai"), .text("notes_fts_au")])
        try db.verify(SearchNote.self)
        #expect(try db.checkFullTextIndex(for: SearchNote.self))
    }

    @Test("inserts, updates and deletes keep the index in step, in any script")
    func triggersKeepStep() throws {
        let db = try SearchNote.database()
        #expect(try db.searchIDs("creme") == [1])
        #expect(try db.searchIDs("МОСКВА") == [3])
        #expect(try db.searchIDs("ΘΆΛΑΣΣΑ") == [4])  // unicode61 folds Greek case, not its tonos
        var note = try #require(try db.fetchOne(SearchNote.self, where: "id = 2"))
        note.title = "Mountain view"
        note.body = "Snow on the peaks"
        try db.update(note)
        #expect(try db.searchIDs("sea") == [5])
        #expect(try db.searchIDs("snow") == [2])
        try db.delete(note)
        #expect(try db.searchIDs("snow") == [])
        // An update of a column that is not indexed does not touch the index.
        try db.execute("UPDATE notes SET pinned = 1 WHERE id = 5")
        #expect(try db.searchIDs("sugar").sorted() == [1, 5])
        // The row id changes: the index follows.
        try db.execute("UPDATE notes SET id = 50 WHERE id = 5")
        #expect(try db.searchIDs("eggs") == [50])
        // An upsert is an update.
        let upsert = try db.makeInsertStatement(for: SearchNote.self, onConflict: .update)
        try upsert.insert(SearchNote(id: 50, title: "Hardware", body: "nails and screws"))
        #expect(try db.searchIDs("eggs") == [])
        #expect(try db.searchIDs("nails") == [50])
        #expect(try db.checkFullTextIndex(for: SearchNote.self))
    }

    @Test("createTable with ifNotExists over an existing table without its index indexes the rows it holds")
    func ifNotExistsFillsIndex() throws {
        let db = try SearchNote.database()
        try db.dropFullTextIndex(for: SearchNote.self)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_schema WHERE name LIKE 'notes_fts%'") == 0)
        try db.execute(
            "INSERT INTO notes (id, title, body) VALUES (7, 'Late note', 'written while the index was gone')")
        try db.createTable(for: SearchNote.self, ifNotExists: true)
        #expect(try db.searchIDs("gone") == [7])
        #expect(try db.searchIDs("creme") == [1])
        // Once there, the index is not rebuilt again.
        try db.createTable(for: SearchNote.self, ifNotExists: true)
        #expect(try db.checkFullTextIndex(for: SearchNote.self))
    }

    @Test("a REPLACE insert is refused while recursive triggers are off, and keeps the index in step when on")
    func replaceNeedsRecursiveTriggers() throws {
        let db = try SearchNote.database()
        let error = try requireSQLiteError { try db.makeInsertStatement(for: SearchNote.self, onConflict: .replace) }
        #expect(error.kind == .misuse)
        #expect(error.table == "notes")
        #expect(error.message.contains("recursive_triggers"))
        try db.execute("PRAGMA recursive_triggers = ON")
        let replace = try db.makeInsertStatement(for: SearchNote.self, onConflict: .replace)
        try replace.insert(SearchNote(id: 1, title: "Flan", body: "vanilla"))
        #expect(try db.searchIDs("creme") == [])
        #expect(try db.searchIDs("vanilla") == [1])
        #expect(try db.checkFullTextIndex(for: SearchNote.self))
    }

    @Test("a change made behind the triggers is found by the check and repaired by a rebuild")
    func checkAndRebuild() throws {
        let db = try SearchNote.database()
        try db.execute("DROP TRIGGER notes_fts_au")
        try db.execute("UPDATE notes SET title = 'Renamed' WHERE id = 2")
        #expect(try db.checkFullTextIndex(for: SearchNote.self) == false)
        let error = try requireSQLiteError { try db.verify(SearchNote.self) }
        #expect(error.kind == .schemaMismatch)
        #expect(error.differences.map(\.kind) == [.fullTextTrigger])
        #expect(error.differences.first?.column == "notes_fts_au")
        try db.createFullTextIndex(for: SearchNote.self, ifNotExists: true)  // the missing trigger only
        try db.rebuildFullTextIndex(for: SearchNote.self)
        #expect(try db.checkFullTextIndex(for: SearchNote.self))
        #expect(try db.searchIDs("renamed") == [2])
        try db.verify(SearchNote.self)
    }

    @Test("an index dropped behind the library's back: typed errors, and the rows stay as they were")
    func droppedIndex() throws {
        let db = try SearchNote.database()
        try db.execute("DROP TABLE notes_fts")
        let insert = try requireSQLiteError {
            try db.execute("INSERT INTO notes (id, title) VALUES (9, 'After the drop')")
        }
        #expect(insert.kind == .sqlite)
        #expect(insert.message.contains("notes_fts"))
        let search = try requireSQLiteError { try db.searchIDs("sea") }
        #expect(search.kind == .schemaMismatch)
        #expect(search.differences.map(\.kind) == [.fullTextIndex])
        #expect(search.differences.first?.actual == "no table")
        let check = try requireSQLiteError { try db.checkFullTextIndex(for: SearchNote.self) }
        #expect(check.table == "notes_fts")
        // The table's rows are untouched; reading them through the model reports the missing index.
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM notes") == SearchNote.samples.count)
        #expect(try requireSQLiteError { try db.fetchAll(SearchNote.self) }.kind == .schemaMismatch)
        try db.createFullTextIndex(for: SearchNote.self, ifNotExists: true)
        #expect(try db.searchIDs("sea").sorted() == [2, 5])
        try db.verify(SearchNote.self)
    }

    @Test("verification names each difference of the live index from the declared one")
    func verificationDifferences() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: SearchFolder.self)
        try db.execute(
            """
            CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, pinned INTEGER NOT NULL \
            DEFAULT 0, folder INTEGER)
            """)
        try db.execute("CREATE VIRTUAL TABLE notes_fts USING fts5(title, tokenize = porter, content = 'other')")
        let differences = try db.schemaDifferences(for: SearchNote.self)
        #expect(differences.filter { $0.kind == .fullTextIndex }.count == 4)
        #expect(differences.filter { $0.kind == .fullTextTrigger }.count == 3)
        #expect(
            differences.contains { $0.expected == "columns \"title\", \"body\"" && $0.actual == "columns \"title\"" })
        #expect(differences.contains { $0.actual == "tokenize = 'porter'" })
        #expect(differences.contains { $0.actual == "prefix lengths []" })
        #expect(differences.contains { $0.actual == "content \"other\" by \"rowid\"" })
        // Hand-written SQL that says the same, spelled differently, matches.
        try db.execute("DROP TABLE notes_fts")
        try db.executeScript(
            SQL(
                verbatim: """
                    create virtual table NOTES_FTS using FTS5(Title, "body", tokenize="unicode61 remove_diacritics 2",
                        prefix=2, content=notes, content_rowid=id);
                    """))
        for sql in try Connection.createTableSQL(for: SearchNote.self).dropFirst(2) {
            try db.execute(SQL(verbatim: sql.replacingOccurrences(of: "\"", with: "").lowercased()))
        }
        #expect(try db.schemaDifferences(for: SearchNote.self) == [])
    }

    @Test("a model whose index FTS5 could not create as declared is refused before anything runs")
    func refusesBadDeclarations() throws {
        struct Bad: FullTextSearchable {
            @TaskLocal static var index = FullTextIndex(columns: ["text"])
            @TaskLocal static var keyType = DeclaredType.integer
            static let tableName = "bad"
            static var columns: [Column] { [Column("id", keyType, primaryKey: true), Column("text", .text)] }
            static var fullTextIndex: FullTextIndex { index }
            init(row: borrowing Row) throws {}
            func encode(to encoder: inout RowEncoder) throws {}
        }
        let cases: [(FullTextIndex, DeclaredType, String)] = [
            (FullTextIndex(columns: []), .integer, "declares no column"),
            (FullTextIndex(columns: ["rank"]), .integer, "FTS5 reserves it"),
            (FullTextIndex(columns: ["missing"]), .integer, "not a column of its table"),
            (FullTextIndex(columns: ["text", "TEXT"]), .integer, "twice"),
            (FullTextIndex(columns: ["text"], prefixLengths: [0]), .integer, "prefix length of 0"),
            (FullTextIndex(columns: ["text"], tokenizer: FullTextTokenizer("")), .integer, "empty name"),
            (FullTextIndex(columns: ["text"], tokenizer: .unicode61(separators: "a\0b")), .integer, "NUL"),
            (FullTextIndex(columns: ["text"]), .text, "INTEGER primary key"),
        ]
        for (index, keyType, message) in cases {
            try Bad.$index.withValue(index) {
                try Bad.$keyType.withValue(keyType) {
                    let db = try Connection.inMemory()
                    let error = try requireSQLiteError { try db.createTable(for: Bad.self) }
                    #expect(error.kind == .misuse)
                    #expect(error.message.contains(message), "\(error.message)")
                    #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_schema") == 0)
                }
            }
        }
    }
}
