import SQLiteSwiftlyMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// A note made searchable by `@Table(fullTextIndex:)`.
@Table("macro_notes", fullTextIndex: FullTextIndex(columns: ["title", "text"], tokenizer: .porter()))
struct MacroNote: Equatable {
    @TableColumn(primaryKey: true) var id: Int
    var title: String
    @TableColumn("text") var body: String
    var stars: Int
}

@Suite struct TableMacroSearchTests {
    @Test("@Table(fullTextIndex:) adds the index and the FullTextSearchable conformance")
    func expansion() {
        assertTableExpansion(
            """
            @Table("notes", fullTextIndex: FullTextIndex(columns: ["body"]))
            struct Note {
                var id: Int
                var body: String
            }
            """,
            expandedSource: """
                struct Note {
                    var id: Int
                    var body: String
                }

                extension Note: SQLiteSwiftly.TableModel, SQLiteSwiftly.FullTextSearchable {
                    static let tableName: String = "notes"

                    static let columns: [SQLiteSwiftly.Column] = [
                        SQLiteSwiftly.Column("id", Int.self),
                        SQLiteSwiftly.Column("body", String.self),
                    ]

                    static let fullTextIndex: SQLiteSwiftly.FullTextIndex = FullTextIndex(columns: ["body"])

                    init(row: borrowing SQLiteSwiftly.Row) throws {
                        let column0: Int = try row[0]
                        let column1: String = try row[1]
                        self.init(id: column0, body: column1)
                    }

                    func encode(to encoder: inout SQLiteSwiftly.RowEncoder) throws {
                        try encoder.encode(self.id)
                        try encoder.encode(self.body)
                    }
                }
                """)
    }

    @Test("an indexed column that is not a column of the struct is an error at the name")
    func unknownColumn() {
        assertTableExpansion(
            """
            @Table(fullTextIndex: FullTextIndex(columns: ["title", "bdy"]))
            struct Note {
                var id: Int
                @TableColumn("title") var heading: String
                var body: String
            }
            """,
            expandedSource: """
                struct Note {
                    var id: Int
                    var heading: String
                    var body: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "the full-text index names \"bdy\", which is not a column of this struct", line: 1,
                    column: 56)
            ])
    }

    @Test("a derived searchable model creates its index and is searched by rank")
    func endToEnd() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: MacroNote.self)
        let insert = try db.makeInsertStatement(for: MacroNote.self)
        try insert.insert(MacroNote(id: 1, title: "Running", body: "Shoes for runners", stars: 4))
        try insert.insert(MacroNote(id: 2, title: "Walking", body: "A long run along the river", stars: 5))
        let pattern = try #require(try SearchPattern("run"))
        let found = try db.search(MacroNote.self, matching: pattern, orderBy: "stars DESC")
        #expect(found.map(\.model.id) == [2, 1])
        #expect(MacroNote.fullTextIndex.tokenizer == .porter())
        try db.verify(MacroNote.self)
    }
}
