import Foundation
import SQLiteSwiftly
import Testing

/// A book with five columns, as version 1 of an app declared it.
private struct Book: TableModel, Equatable {
    var id: Int64
    var title: String
    var author: String
    var year: Int?
    var rating: Double

    static let tableName = "books"
    static let columns = [
        Column("id", Int64.self, primaryKey: true), Column("title", String.self), Column("author", String.self),
        Column("year", Int?.self), Column("rating", Double.self),
    ]

    init(id: Int64, title: String, author: String, year: Int?, rating: Double) {
        self.id = id
        self.title = title
        self.author = author
        self.year = year
        self.rating = rating
    }

    init(row: borrowing Row) throws {
        id = try row[0]
        title = try row[1]
        author = try row[2]
        year = try row[3]
        rating = try row[4]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(title)
        try encoder.encode(author)
        try encoder.encode(year)
        try encoder.encode(rating)
    }

    static let dune = Book(id: 1, title: "Dune", author: "Frank Herbert", year: 1965, rating: 4.5)
}

private func books() throws -> Connection {
    let db = try Connection.inMemory()
    try db.createTable(for: Book.self)
    try db.makeInsertStatement(for: Book.self).insert(Book.dune)
    return db
}

@Suite struct SchemaGrowthTests {
    @Test("after a migration adds a column, SELECT * still reads the model, through a cached statement too")
    func addedColumn() throws {
        let db = try books()
        #expect(try db.fetchAll(Book.self, "SELECT * FROM books") == [Book.dune])  // cached from here
        var migrator = Migrator()
        migrator.add("v2: shelf") { db in try db.execute("ALTER TABLE books ADD COLUMN shelf TEXT") }
        try migrator.migrate(db)
        #expect(try db.fetchAll(Book.self, "SELECT * FROM books") == [Book.dune])  // re-prepared: 6 columns
        #expect(try db.fetchOne(Book.self, "SELECT * FROM books WHERE id = \(1)") == Book.dune)
        let cursor = try db.fetchCursor(Book.self, "SELECT * FROM books")
        #expect(try cursor.next() == Book.dune)
        #expect(try db.fetchAll(Book.self) == [Book.dune])
        #expect(try db.fetchAll(Book.self, where: "author = \("Frank Herbert")") == [Book.dune])
    }

    @Test("columns in another order, or a column dropped before the model's, read by name in a cached statement")
    func movedColumns() throws {
        let db = try books()
        try db.execute("ALTER TABLE books ADD COLUMN notes TEXT")
        try db.execute("UPDATE books SET notes = 'first read in 1990'")
        let statement = try db.prepare("SELECT * FROM books")
        #expect(try statement.fetchAll(Book.self) == [Book.dune])
        // A rebuild that puts a new column first shifts every position; the prepared statement re-prepares.
        try db.executeScript(
            """
            CREATE TABLE books2 (isbn TEXT, id INTEGER PRIMARY KEY NOT NULL, rating REAL NOT NULL, year INTEGER,
                author TEXT NOT NULL, title TEXT NOT NULL);
            INSERT INTO books2 (isbn, id, rating, year, author, title)
                SELECT 'x', id, rating, year, author, title FROM books;
            DROP TABLE books;
            ALTER TABLE books2 RENAME TO books;
            """)
        #expect(try statement.fetchAll(Book.self) == [Book.dune])
        #expect(try db.fetchAll(Book.self, "SELECT * FROM books") == [Book.dune])
    }

    @Test("a model column the result lacks is a modelMismatch that names it, even through SELECT *")
    func missingColumn() throws {
        let db = try books()
        #expect(try db.fetchAll(Book.self, "SELECT * FROM books") == [Book.dune])
        try db.execute("ALTER TABLE books DROP COLUMN year")
        let error = try #require(throws: SQLiteError.self) { try db.fetchAll(Book.self, "SELECT * FROM books") }
        #expect(error.kind == .modelMismatch)
        #expect(error.column == "year")
        #expect(error.table == "books")
        #expect(error.sql == "SELECT * FROM books")
        let table = try #require(throws: SQLiteError.self) { try db.fetchAll(Book.self) }
        #expect(table.kind == .schemaMismatch)  // a table read verifies the model against the table
    }
}
