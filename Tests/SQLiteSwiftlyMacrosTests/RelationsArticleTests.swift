import Foundation
import SQLiteSwiftlyMacros
import Testing

/// The models of the Relations article, `@Table` structs that declare their relations, nested so that they clash
/// with no other type.
enum RelationsArticle {
    // BEGIN Relations: models
    @Table("authors")
    struct Author: Equatable {
        @TableColumn(primaryKey: true) var id: Int
        var name: String

        static let books = ToManyRelation<Author, Book>.hasMany()  // books.author_id references authors.id
    }

    @Table("books")
    struct Book: Equatable {
        @TableColumn(primaryKey: true) var id: Int
        @TableColumn("author_id", references: ForeignKey("authors", "id")) var authorID: Int?
        var title: String
        var year: Int

        static let author = ToOneRelation<Book, Author>.belongsTo()
    }
    // END Relations: models

    // BEGIN Relations: employees
    @Table("employees")
    struct Employee {
        @TableColumn(primaryKey: true) var id: Int
        var name: String
        @TableColumn("manager_id", references: ForeignKey("employees", "id")) var managerID: Int?
    }
    // END Relations: employees

    // BEGIN Relations: tags
    @Table("tags")
    struct Tag {
        @TableColumn(primaryKey: true) var name: String

        static let books = ToManyRelation<Tag, Book>.hasMany(through: BookTag.self)
    }

    @Table("book_tags")
    struct BookTag {
        @TableColumn("book_id", primaryKey: true, references: ForeignKey("books", "id")) var bookID: Int
        @TableColumn(primaryKey: true, references: ForeignKey("tags", "name")) var tag: String
    }
    // END Relations: tags
}

/// The Relations article's examples, run in the article's order on one database, with the results its comments
/// show.
@Suite struct RelationsArticleTests {
    typealias Author = RelationsArticle.Author
    typealias Book = RelationsArticle.Book
    typealias Employee = RelationsArticle.Employee
    typealias Tag = RelationsArticle.Tag
    typealias BookTag = RelationsArticle.BookTag

    @Test("the article runs from its first block to its last, with the results its comments show")
    func article() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sqliteswiftly-relations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("library.sqlite").path

        // BEGIN Relations: setup
        let db = try Connection(creating: path)
        try db.createTable(for: Author.self)
        try db.createTable(for: Book.self)
        try db.execute("INSERT INTO authors VALUES (1, 'Ursula'), (2, 'Italo'), (3, 'Jorge')")
        try db.execute(
            """
            INSERT INTO books VALUES (10, 1, 'The Dispossessed', 1974), (11, 2, 'Invisible Cities', 1972),
                (12, 1, 'A Wizard of Earthsea', 1968), (13, NULL, 'Beowulf', 1000)
            """)
        // END Relations: setup

        // BEGIN Relations: join
        let rows = try db.fetchAll(
            (Book, Author).self,
            "SELECT books.*, authors.* FROM books JOIN authors ON authors.id = books.author_id ORDER BY books.year")
        let titles = rows.map { book, author in "\(book.title) by \(author.name)" }
        // ["A Wizard of Earthsea by Ursula", "Invisible Cities by Italo", "The Dispossessed by Ursula"]
        // END Relations: join
        #expect(
            titles == ["A Wizard of Earthsea by Ursula", "Invisible Cities by Italo", "The Dispossessed by Ursula"])
        let reversed = try db.fetchAll(
            (Book, Author).self,
            "SELECT authors.*, books.* FROM books JOIN authors ON authors.id = books.author_id ORDER BY books.year")
        #expect(reversed.map(\.0) == rows.map(\.0) && reversed.map(\.1) == rows.map(\.1))

        // BEGIN Relations: left join
        let all = try db.fetchAll(
            (Book, Author?).self,
            "SELECT * FROM books LEFT JOIN authors ON authors.id = books.author_id ORDER BY books.id")
        let authorNames = all.map { _, author in author?.name }  // ["Ursula", "Italo", "Ursula", nil]
        // END Relations: left join
        #expect(authorNames == ["Ursula", "Italo", "Ursula", nil])
        let absent = try #require(throws: SQLiteError.self) {
            try db.fetchAll(
                (Book, Author).self,
                "SELECT * FROM books LEFT JOIN authors ON authors.id = books.author_id ORDER BY books.id")
        }
        #expect(absent.row == 4 && absent.message.contains("read it as Author?"))

        // BEGIN Relations: self-join
        try db.createTable(for: Employee.self)
        try db.execute("INSERT INTO employees VALUES (1, 'Grace', NULL), (2, 'Alan', 1), (3, 'Ada', 1)")
        let staff = try db.fetchAll(
            (Employee, Employee?).self,
            "SELECT e.*, m.* FROM employees AS e LEFT JOIN employees AS m ON m.id = e.manager_id ORDER BY e.id")
        let managers = staff.map { employee, manager in "\(employee.name): \(manager?.name ?? "-")" }
        // ["Grace: -", "Alan: Grace", "Ada: Grace"]
        // END Relations: self-join
        #expect(managers == ["Grace: -", "Alan: Grace", "Ada: Grace"])

        // BEGIN Relations: expressions
        let shouted = try db.fetchAll(
            (Book, Author).self,
            """
            SELECT books.*, authors.*, upper(authors.name) AS "authors.name"
            FROM books JOIN authors ON authors.id = books.author_id ORDER BY books.id
            """)
        // shouted[0].1.name == "URSULA"
        // END Relations: expressions
        #expect(shouted[0].1.name == "URSULA")

        // BEGIN Relations: list screen
        let authors = try db.fetchAll(Author.self, "SELECT * FROM authors ORDER BY name")
        let books = try db.fetchRelated(Author.books, of: authors, orderBy: "year")  // [[Book]], one per author
        let shelves = zip(authors, books).map { author, books in "\(author.name): \(books.map(\.title))" }
        // ["Italo: [\"Invisible Cities\"]", "Jorge: []", "Ursula: [\"A Wizard of Earthsea\", \"The Dispossessed\"]"]
        // END Relations: list screen
        #expect(
            shelves == [
                "Italo: [\"Invisible Cities\"]", "Jorge: []",
                "Ursula: [\"A Wizard of Earthsea\", \"The Dispossessed\"]",
            ])

        // BEGIN Relations: filter and to-one
        let recent = try db.fetchRelated(Author.books, of: authors, where: "year > \(1970)", orderBy: "year DESC")
        let bookAuthors = try db.fetchRelated(Book.author, of: books.flatMap { $0 })  // [Author?], one per book
        // END Relations: filter and to-one
        #expect(recent.map { $0.map(\.id) } == [[11], [], [10]])
        #expect(bookAuthors.map { $0?.name } == ["Italo", "Ursula", "Ursula"])

        // BEGIN Relations: snapshot
        let pool = try ConnectionPool(.open(path: path))
        let (list, children) = try await pool.read { db in
            let authors = try db.fetchAll(Author.self, "SELECT * FROM authors ORDER BY name")
            return (authors, try db.fetchRelated(Author.books, of: authors))
        }
        // END Relations: snapshot
        #expect(list == authors && children.map(\.count) == [1, 0, 2])

        // BEGIN Relations: observation
        let catalog = pool.observe(
            (Book, Author).self, "SELECT * FROM books JOIN authors ON authors.id = books.author_id ORDER BY books.id")
        // END Relations: observation
        var iterator = catalog.makeAsyncIterator()
        #expect(try await iterator.next()?.map(\.1.name) == ["Ursula", "Italo", "Ursula"])
        try await pool.write { db in try db.execute("UPDATE authors SET name = 'Calvino' WHERE id = 2") }
        #expect(try await iterator.next()?.map(\.1.name) == ["Ursula", "Calvino", "Ursula"])
        try await pool.write { db in try db.execute("UPDATE books SET author_id = 3 WHERE id = 13") }
        #expect(try await iterator.next()?.map(\.1.name) == ["Ursula", "Calvino", "Ursula", "Jorge"])

        // After the last block: the many-to-many relation of the tags models, which the article declares only.
        try db.createTable(for: Tag.self)
        try db.createTable(for: BookTag.self)
        try db.execute("INSERT INTO tags VALUES ('fantasy'), ('classic')")
        try db.execute("INSERT INTO book_tags VALUES (12, 'fantasy'), (12, 'classic'), (13, 'classic')")
        let tagged = try db.fetchRelated(
            ToManyRelation<Book, Tag>.hasMany(through: BookTag.self), of: books.flatMap { $0 }, orderBy: "tags.name")
        #expect(tagged.map { $0.map(\.name) } == [[], ["classic", "fantasy"], []])
        let classics = try db.fetchRelated(Tag.books, of: [Tag(name: "classic")], orderBy: "books.id")
        #expect(classics.map { $0.map(\.id) } == [[12, 13]])
        let unsupported = try #require(throws: SQLiteError.self) {
            try db.fetchRelated(ToManyRelation<Tag, Employee>.hasMany(), of: [])
        }
        #expect(unsupported.kind == .unsupportedRelation)
    }
}
