import SQLiteSwiftlyMacros
import Testing

/// The column-constraints example of the Table Models article: `@TableColumn` with a collation and foreign keys
/// with their actions, nested so that its types clash with no other.
enum TableModelsConstraintsArticle {
    // BEGIN TableModels: column constraints
    @Table("authors")
    struct Author {
        @TableColumn(primaryKey: true, autoIncrement: true) var id: Int64?  // nil: SQLite assigns it
        @TableColumn(unique: true, collation: "NOCASE") var name: String
        @TableColumn(default: 0) var prizes: Int
    }

    @Table("books")
    struct Book {
        @TableColumn(primaryKey: true, autoIncrement: true) var id: Int64?
        var title: String
        @TableColumn("author_id", references: ForeignKey("authors", "id", onDelete: .cascade, onUpdate: .cascade))
        var authorID: Int64
        @TableColumn("sequel_of", references: ForeignKey("books", "id", onDelete: .setNull))
        var sequelOf: Int64?
    }
    // END TableModels: column constraints
}

@Suite struct TableModelsArticleConstraintTests {
    typealias Author = TableModelsConstraintsArticle.Author
    typealias Book = TableModelsConstraintsArticle.Book

    @Test("the article's @TableColumn constraints become the CREATE TABLE it shows")
    func createTableSQL() throws {
        #expect(
            try Connection.createTableSQL(for: Author.self) == [
                #"CREATE TABLE "authors" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "#
                    + #""name" TEXT NOT NULL UNIQUE COLLATE "NOCASE", "prizes" INTEGER NOT NULL DEFAULT 0)"#
            ])
        #expect(
            try Connection.createTableSQL(for: Book.self) == [
                #"CREATE TABLE "books" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT NOT NULL, "#
                    + #""author_id" INTEGER NOT NULL REFERENCES "authors" ("id") ON DELETE CASCADE "#
                    + #"ON UPDATE CASCADE, "sequel_of" INTEGER REFERENCES "books" ("id") ON DELETE SET NULL)"#
            ])
    }

    @Test("the article's collation, cascade and set-null behave as its comments say")
    func constraintsBehave() throws {
        // BEGIN TableModels: column constraints at work
        let db = try Connection.inMemory()
        try db.createTable(for: Author.self)
        try db.createTable(for: Book.self)
        let ursula = try db.makeInsertStatement(for: Author.self).insert(
            Author(id: nil, name: "Ursula K. Le Guin", prizes: 0))
        let insertBook = try db.makeInsertStatement(for: Book.self)
        let wizard = try insertBook.insert(
            Book(id: nil, title: "A Wizard of Earthsea", authorID: ursula, sequelOf: nil))
        try insertBook.insert(Book(id: nil, title: "The Tombs of Atuan", authorID: ursula, sequelOf: wizard))

        let found = try db.fetchAll(Author.self, where: "name = \("URSULA K. LE GUIN")")  // NOCASE: found
        try db.execute("DELETE FROM books WHERE id = \(wizard)")  // the sequel's sequel_of becomes NULL
        try db.execute("UPDATE authors SET id = 7 WHERE id = \(ursula)")  // books follow: author_id = 7
        try db.execute("DELETE FROM authors WHERE id = 7")  // and her books are deleted with her
        // END TableModels: column constraints at work
        #expect(found.map(\.id) == [ursula])
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM books") == 0)
    }

    @Test("the steps of the article's example, one by one: set null, then cascade on update")
    func stepByStep() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Author.self)
        try db.createTable(for: Book.self)
        let ursula = try db.makeInsertStatement(for: Author.self).insert(Author(id: nil, name: "Ursula", prizes: 0))
        #expect(ursula == 1)
        let insertBook = try db.makeInsertStatement(for: Book.self)
        let wizard = try insertBook.insert(Book(id: nil, title: "Wizard", authorID: ursula, sequelOf: nil))
        let tombs = try insertBook.insert(Book(id: nil, title: "Tombs", authorID: ursula, sequelOf: wizard))
        #expect(try db.fetchAll(Book.self, where: "id = \(tombs)").first?.sequelOf == wizard)
        try db.execute("DELETE FROM books WHERE id = \(wizard)")
        #expect(try db.fetchAll(Book.self).map(\.sequelOf) == [nil])
        try db.execute("UPDATE authors SET id = 7 WHERE id = \(ursula)")
        #expect(try db.fetchAll(Book.self).map(\.authorID) == [7])
        let duplicate = try #require(throws: SQLiteError.self) {
            try db.makeInsertStatement(for: Author.self).insert(Author(id: nil, name: "URSULA", prizes: 1))
        }
        #expect(duplicate.code == .constraintUnique, "UNIQUE compares with the column's NOCASE collation")
        try db.verify(Author.self)
        try db.verify(Book.self)
    }

    @Test("a collation of the model that the live table lacks is a schema difference")
    func collationIsVerified() throws {
        let db = try Connection.inMemory()
        try db.execute(
            "CREATE TABLE authors (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, prizes INTEGER NOT NULL DEFAULT 0)"
        )
        let differences = try db.schemaDifferences(for: Author.self)
        #expect(differences.map(\.kind) == [.collation])
        #expect(differences.first?.column == "name")
    }
}
