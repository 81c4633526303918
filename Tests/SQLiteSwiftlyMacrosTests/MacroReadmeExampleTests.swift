import SQLiteSwiftlyMacros
import Testing

// The README's "Table models without boilerplate" example, verbatim (keep the two in sync).

@Table("books", indexes: [TableIndex("books_by_author", on: ["author"])])
struct Book: Equatable {
    @TableColumn(primaryKey: true, autoIncrement: true) var id: Int64?  // nil: SQLite assigns it
    var title: String
    var author: String
    @TableColumn("published") var year: Int?
    @TableColumn(default: 0) var rating: Int
    @Transient var isSelected = false  // not stored
}

@Suite struct MacroReadmeExampleTests {
    @Test("the README's @Table example runs and reads back what it inserted")
    func readmeExample() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Book.self)  // CREATE TABLE "books" (...) and CREATE INDEX "books_by_author"

        let insert = try db.makeInsertStatement(for: Book.self)
        var dune = Book(title: "Dune", author: "Frank Herbert", year: 1965, rating: 5)
        dune.id = try insert.insert(dune)  // the new row id
        _ = try insert.insert(Book(title: "Children of Dune", author: "Frank Herbert", year: nil, rating: 4))

        let books = try db.fetchAll(Book.self, where: "author = ? ORDER BY id", ["Frank Herbert"])
        #expect(books.map(\.title) == ["Dune", "Children of Dune"])
        #expect(books.first == dune)
        #expect(books.map(\.id) == [1, 2])
        #expect(Book.columns.map(\.name) == ["id", "title", "author", "published", "rating"])
        #expect(
            try Connection.createTableSQL(for: Book.self) == [
                "CREATE TABLE \"books\" (\"id\" INTEGER PRIMARY KEY AUTOINCREMENT, \"title\" TEXT NOT NULL, "
                    + "\"author\" TEXT NOT NULL, \"published\" INTEGER, \"rating\" INTEGER NOT NULL DEFAULT 0)",
                "CREATE INDEX \"books_by_author\" ON \"books\" (\"author\")",
            ])
    }
}
