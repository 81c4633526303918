import Foundation
import Testing

@testable import SQLiteSwiftly

/// Related rows of many parents, in one query per relation, from the models' foreign keys.
@Suite struct RelationTests {
    typealias Author = RelationsFixture.Author
    typealias Book = RelationsFixture.Book
    typealias Employee = RelationsFixture.Employee
    typealias Note = RelationsFixture.Note
    typealias Tag = RelationsFixture.Tag
    typealias NoteTag = RelationsFixture.NoteTag

    @Test("to-many: each parent gets its children, in the parents' order, and an empty array without any")
    func toMany() throws {
        let db = try RelationsFixture.database()
        let authors = try db.fetchAll(Author.self, "SELECT * FROM authors ORDER BY name DESC")
        let books = try db.fetchRelated(Author.books, of: authors, orderBy: "year")
        #expect(authors.map(\.name) == ["Ursula", "Jorge", "Italo"])
        #expect(books.map { $0.map(\.id) } == [[12, 10], [], [11, 14]])
        let recent = try db.fetchRelated(Author.books, of: authors, where: "year > \(1973)", orderBy: "title DESC")
        #expect(recent.map { $0.map(\.id) } == [[10], [], [14]])
        #expect(try db.fetchRelated(Author.books, of: []).isEmpty)
        // A parent listed twice gets its children twice.
        #expect(try db.fetchRelated(Author.books, of: [authors[0], authors[0]]).map(\.count) == [2, 2])
    }

    @Test("to-one: each book gets the author its foreign key references, nil for a NULL key")
    func toOne() throws {
        let db = try RelationsFixture.database()
        let books = try db.fetchAll(Book.self, "SELECT * FROM books ORDER BY id")
        let authors = try db.fetchRelated(Book.author, of: books)
        #expect(authors.map { $0?.name } == ["Ursula", "Italo", "Ursula", nil, "Italo"])
        let filtered = try db.fetchRelated(Book.author, of: books, where: "name <> \("Italo")")
        #expect(filtered.map { $0?.name } == ["Ursula", nil, "Ursula", nil, nil])
    }

    @Test("has-one takes the first matching child in the query's order")
    func hasOne() throws {
        let db = try RelationsFixture.database()
        let firstBook = ToOneRelation<Author, Book>.hasOne()
        let authors = try db.fetchAll(Author.self, "SELECT * FROM authors ORDER BY id")
        let oldest = try db.fetchRelated(firstBook, of: authors, orderBy: "year")
        let newest = try db.fetchRelated(firstBook, of: authors, orderBy: "year DESC")
        #expect(oldest.map { $0?.id } == [12, 11, nil])
        #expect(newest.map { $0?.id } == [10, 14, nil])
    }

    @Test("a relation of a table to itself: managers and reports")
    func selfRelation() throws {
        let db = try RelationsFixture.database()
        let staff = try db.fetchAll(Employee.self, "SELECT * FROM employees ORDER BY id")
        #expect(try db.fetchRelated(Employee.manager, of: staff).map { $0?.name } == [nil, "Grace", "Grace", "Alan"])
        let reports = try db.fetchRelated(Employee.reports, of: staff, orderBy: "name")
        #expect(reports.map { $0.map(\.name) } == [["Ada", "Alan"], ["Edsger"], [], []])
    }

    @Test("many-to-many through a link table, in both directions, filtered on the link table")
    func manyToMany() throws {
        let db = try RelationsFixture.database()
        let notes = try db.fetchAll(Note.self, "SELECT * FROM notes ORDER BY id")
        let tags = try db.fetchRelated(Note.tags, of: notes, orderBy: "tags.name")
        #expect(tags.map { $0.map(\.name) } == [["home", "urgent"], ["work"], []])
        let allTags = try db.fetchAll(Tag.self, "SELECT * FROM tags ORDER BY name")
        let tagged = try db.fetchRelated(Tag.notes, of: allTags, where: "note_tags.note_id > \(1)")
        #expect(tagged.map { $0.map(\.id) } == [[], [], [2]])
    }

    @Test("a link between rows of one table needs its side named, and takes the other key for the other side")
    func selfLink() throws {
        struct Follow: TableModel {
            var follower: Int
            var followed: Int
            static let tableName = "follows"
            static let columns = [
                Column("follower", Int.self, primaryKey: true, references: ForeignKey("employees", "id")),
                Column("followed", Int.self, primaryKey: true, references: ForeignKey("employees", "id")),
            ]
            init(follower: Int, followed: Int) {
                self.follower = follower
                self.followed = followed
            }
            init(row: borrowing Row) throws {
                follower = try row[0]
                followed = try row[1]
            }
            func encode(to encoder: inout RowEncoder) throws {
                try encoder.encode(follower)
                try encoder.encode(followed)
            }
        }
        let db = try RelationsFixture.database()
        try db.createTable(for: Follow.self)
        try RelationsFixture.insert([Follow(follower: 2, followed: 1), Follow(follower: 3, followed: 1)], into: db)
        let staff = try db.fetchAll(Employee.self, "SELECT * FROM employees ORDER BY id")
        let followers = ToManyRelation<Employee, Employee>.hasMany(through: Follow.self, from: "followed")
        let following = ToManyRelation<Employee, Employee>.hasMany(through: Follow.self, to: "followed")
        #expect(
            try db.fetchRelated(followers, of: staff, orderBy: "name").map { $0.map(\.name) } == [
                ["Ada", "Alan"], [], [], [],
            ])
        #expect(try db.fetchRelated(following, of: staff).map { $0.map(\.name) } == [[], ["Grace"], ["Grace"], []])
        let unnamed = try requireSQLiteError {
            try db.fetchRelated(ToManyRelation<Employee, Employee>.hasMany(through: Follow.self), of: staff)
        }
        #expect(unnamed.kind == .unsupportedRelation && unnamed.table == "follows")
    }

    @Test("a relation the foreign keys do not support is an error at the call, even with no parents")
    func unsupported() throws {
        struct Review: TableModel {
            var id: Int
            var bookID: Int
            var editorID: Int?
            var reviewerID: Int?
            static let tableName = "reviews"
            static let columns = [
                Column("id", Int.self, primaryKey: true),
                Column("book_id", Int.self),
                Column("editor_id", Int?.self, references: ForeignKey("authors", "id")),
                Column("reviewer_id", Int?.self, references: ForeignKey("authors", "code")),
            ]
            init(row: borrowing Row) throws {
                id = try row[0]
                bookID = try row[1]
                editorID = try row[2]
                reviewerID = try row[3]
            }
            func encode(to encoder: inout RowEncoder) throws {
                try encoder.encode(id)
                try encoder.encode(bookID)
                try encoder.encode(editorID)
                try encoder.encode(reviewerID)
            }
        }
        let db = try RelationsFixture.database()
        try db.execute(
            "CREATE TABLE reviews (id INTEGER PRIMARY KEY, book_id INTEGER NOT NULL, editor_id INTEGER, reviewer_id INTEGER)"
        )
        let noKey = try requireSQLiteError { try db.fetchRelated(ToManyRelation<Book, Review>.hasMany(), of: []) }
        #expect(noKey.kind == .unsupportedRelation && noKey.table == "reviews")
        #expect(noKey.message.contains("declares no foreign key to \"books\""))
        let twoKeys = try requireSQLiteError { try db.fetchRelated(ToManyRelation<Author, Review>.hasMany(), of: []) }
        #expect(twoKeys.message.contains("2 foreign keys") && twoKeys.message.contains("\"editor_id\""))
        let wrongColumn = try requireSQLiteError {
            try db.fetchRelated(ToManyRelation<Author, Review>.hasMany(via: "book_id"), of: [])
        }
        #expect(wrongColumn.column == "book_id" && wrongColumn.message.contains("declares no foreign key"))
        let unknownColumn = try requireSQLiteError {
            try db.fetchRelated(ToManyRelation<Author, Review>.hasMany(via: "nothing"), of: [])
        }
        #expect(unknownColumn.message.contains("has no column \"nothing\""))
        let missingTarget = try requireSQLiteError {
            try db.fetchRelated(ToManyRelation<Author, Review>.hasMany(via: "reviewer_id"), of: [])
        }
        #expect(missingTarget.column == "code" && missingTarget.table == "authors")
        let chosen = try db.fetchRelated(
            ToManyRelation<Author, Review>.hasMany(via: "EDITOR_ID"), of: RelationsFixture.authors
        )
        .map(\.count)
        #expect(chosen == [0, 0, 0])  // the table is empty, and the query ran
        let backwards = try requireSQLiteError { try db.fetchRelated(ToOneRelation<Author, Book>.belongsTo(), of: []) }
        #expect(backwards.kind == .unsupportedRelation && backwards.table == "authors")
    }

    @Test("thousands of parents take one statement, whatever the parameter limit: their keys are one JSON array")
    func manyParents() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Author.self)
        try db.createTable(for: Book.self)
        let authors = (1...3000).map { Author(id: $0, name: "author \($0)") }
        try db.transaction {
            try RelationsFixture.insert(authors, into: db)
            let books = (1...3000).flatMap { author in
                (0..<author % 3).map { Book(id: author * 10 + $0, authorID: author, title: "t", year: $0) }
            }
            try RelationsFixture.insert(books, into: db)
        }
        let expected = authors.map { author in (0..<author.id % 3).map { author.id * 10 + $0 } }
        #expect(try db.setLimit(.parameterNumber, to: 3) > 3)
        let all = try db.fetchRelated(Author.books, of: authors, where: "year >= \(0)", orderBy: "year")
        #expect(all.map { $0.map(\.id) } == expected)
        // To-one: a child many parents share is read once and given to each.
        let books = try db.fetchAll(Book.self, "SELECT * FROM books ORDER BY id")
        let owners = try db.fetchRelated(Book.author, of: books)
        #expect(owners.map { $0?.id } == books.map(\.authorID))
    }

    /// A model whose primary key is a `UUID`, stored as a 16-byte blob: keys JSON cannot hold.
    struct Shelf: TableModel, Equatable {
        var id: UUID
        static let tableName = "shelves"
        static let columns = [Column("id", UUID.self, primaryKey: true)]
        static let items = ToManyRelation<Shelf, Item>.hasMany()
        init(id: UUID) { self.id = id }
        init(row: borrowing Row) throws { id = try row[0] }
        func encode(to encoder: inout RowEncoder) throws { try encoder.encode(id) }
    }

    struct Item: TableModel, Equatable {
        var id: Int
        var shelf: UUID
        static let tableName = "items"
        static let columns = [
            Column("id", Int.self, primaryKey: true),
            Column("shelf", UUID.self, references: ForeignKey("shelves", "id")),
        ]
        init(id: Int, shelf: UUID) {
            self.id = id
            self.shelf = shelf
        }
        init(row: borrowing Row) throws {
            id = try row[0]
            shelf = try row[1]
        }
        func encode(to encoder: inout RowEncoder) throws {
            try encoder.encode(id)
            try encoder.encode(shelf)
        }
    }

    @Test("blob keys are bound one parameter each, in chunks under the parameter limit, reading one snapshot")
    func blobKeysInChunks() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Shelf.self)
        try db.createTable(for: Item.self)
        let shelves = (0..<1500).map { _ in Shelf(id: UUID()) }
        try db.transaction {
            try RelationsFixture.insert(shelves, into: db)
            let items = shelves.enumerated().flatMap { offset, shelf in
                (0..<offset % 3).map { Item(id: offset * 10 + $0, shelf: shelf.id) }
            }
            try RelationsFixture.insert(items, into: db)
        }
        let expected = shelves.indices.map { offset in (0..<offset % 3).map { offset * 10 + $0 } }
        let all = try db.fetchRelated(Shelf.items, of: shelves, orderBy: "id")
        #expect(all.map { $0.map(\.id) } == expected)
        #expect(try db.setLimit(.parameterNumber, to: 100) > 100)
        let limited = try db.fetchRelated(Shelf.items, of: shelves, where: "id >= \(0)", orderBy: "id")
        #expect(limited.map { $0.map(\.id) } == expected)
        // The chunks ran in a transaction of their own, which is over.
        #expect(!db.isInTransaction)
        // Two values in the condition leave one parameter a statement for the keys: one key a statement.
        #expect(try db.setLimit(.parameterNumber, to: 3) == 100)
        let single = try db.fetchRelated(Shelf.items, of: shelves, where: "id >= \(0) AND id < \(1_000_000)")
        #expect(single.map(\.count) == expected.map(\.count))
        let noRoom = try requireSQLiteError {
            try db.fetchRelated(Shelf.items, of: shelves, where: "id >= \(0) AND id < \(9) AND id <> \(5)")
        }
        #expect(noRoom.message.contains("too many SQL variables"))
    }

    @Test("a key SQLite compares as a number in another storage class (a REAL foreign key) still finds its parent")
    func convertedKeys() throws {
        struct Note: TableModel {
            var id: Int
            var author: Double
            static let tableName = "author_notes"
            static let columns = [
                Column("id", Int.self, primaryKey: true),
                Column("author", Double.self, references: ForeignKey("authors", "id")),
            ]
            init(row: borrowing Row) throws {
                id = try row[0]
                author = try row[1]
            }
            func encode(to encoder: inout RowEncoder) throws {
                try encoder.encode(id)
                try encoder.encode(author)
            }
        }
        let db = try RelationsFixture.database()
        try db.createTable(for: Note.self)
        try db.setForeignKeyEnforcement(false)  // SQLite's own check does not take 2.0 for the key 2
        try db.execute("INSERT INTO author_notes VALUES (1, 2.0), (2, 1.0), (3, 2.0)")
        let notes = try db.fetchRelated(
            ToManyRelation<Author, Note>.hasMany(), of: RelationsFixture.authors, orderBy: "id")
        #expect(notes.map { $0.map(\.id) } == [[2], [1, 3], []])
        let back = try db.fetchRelated(
            ToOneRelation<Note, Author>.belongsTo(),
            of: db.fetchAll(Note.self, "SELECT * FROM author_notes ORDER BY id"))
        #expect(back.map { $0?.name } == ["Italo", "Ursula", "Italo"])
    }

    @Test("keys of any type are bound as they are: text keys, and a NULL key that matches nothing")
    func keyTypes() throws {
        let db = try RelationsFixture.database()
        let tags = [Tag(name: "urgent"), Tag(name: "home"), Tag(name: "nothing")]
        let notes = try db.fetchRelated(Tag.notes, of: tags)
        #expect(notes.map { $0.map(\.text) } == [["groceries"], ["groceries"], []])
        let orphan = Book(id: 99, authorID: nil, title: "x", year: 0)
        #expect(try db.fetchRelated(Book.author, of: [orphan]) == [nil])
    }

    @Test("a parent's encode(to:) error reaches the caller unchanged, and a stray parameter is refused")
    func bindingErrors() throws {
        struct Refused: Error, Equatable {}
        struct Picky: TableModel {
            var id: Int
            static let tableName = "authors"
            static let columns = [Column("id", Int.self, primaryKey: true), Column("name", String.self)]
            static let books = ToManyRelation<Picky, Book>.hasMany()
            init(id: Int) { self.id = id }
            init(row: borrowing Row) throws { id = try row[0] }
            func encode(to encoder: inout RowEncoder) throws {
                try encoder.encode(id)
                if id == 2 { throw Refused() }
                try encoder.encode("name")
            }
        }
        let db = try RelationsFixture.database()
        #expect(throws: Refused()) { try db.fetchRelated(Picky.books, of: [Picky(id: 1), Picky(id: 2)]) }
        #expect(try db.fetchRelated(Picky.books, of: [Picky(id: 1)]).map(\.count) == [2])
        let stray = try requireSQLiteError {
            try db.fetchRelated(RelationsFixture.Author.books, of: RelationsFixture.authors, where: "year > ?")
        }
        #expect(stray.kind == .parameterMismatch)
    }

    @Test("on a pool, parents and children read in one read see one snapshot, whatever commits in between")
    func snapshot() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("library.sqlite")
        _ = try RelationsFixture.database(at: path)
        let pool = try ConnectionPool(.open(path: path))
        let (authors, books) = try await pool.read { db in
            let authors = try db.fetchAll(Author.self, "SELECT * FROM authors ORDER BY id")
            // Another connection commits between the two reads: neither sees it.
            let other = try Connection(.open(path: path))
            try other.execute("INSERT INTO books VALUES (20, 3, 'Ficciones', 1944)")
            return (authors, try db.fetchRelated(Author.books, of: authors))
        }
        #expect(books.map(\.count) == [2, 2, 0])
        let after = try await pool.read { db in try db.fetchRelated(Author.books, of: authors) }
        #expect(after.map(\.count) == [2, 2, 1])
    }

    @Test("an observation of parents and children runs again when either table changes")
    func observation() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("library.sqlite")
        _ = try RelationsFixture.database(at: path)
        let pool = try ConnectionPool(.open(path: path))
        let shelves = pool.observe { db in
            let authors = try db.fetchAll(Author.self, "SELECT * FROM authors ORDER BY id")
            return try db.fetchRelated(Author.books, of: authors).map(\.count)
        }
        var iterator = shelves.makeAsyncIterator()
        #expect(try await iterator.next() == [2, 2, 0])
        try await pool.write { db in try db.execute("INSERT INTO books VALUES (20, 3, 'Ficciones', 1944)") }
        #expect(try await iterator.next() == [2, 2, 1])
        try await pool.write { db in try db.execute("INSERT INTO authors VALUES (4, 'Virginia')") }
        #expect(try await iterator.next() == [2, 2, 1, 0])
    }
}
