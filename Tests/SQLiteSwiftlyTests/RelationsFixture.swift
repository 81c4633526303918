import SQLiteSwiftly

/// Authors, books, publishers, employees, notes and tags: the tables the joined-row and relation tests read.
enum RelationsFixture {
    struct Author: TableModel, Equatable, Sendable {
        var id: Int
        var name: String

        static let tableName = "authors"
        static let columns = [Column("id", Int.self, primaryKey: true), Column("name", String.self)]
        static let books = ToManyRelation<Author, Book>.hasMany()

        init(id: Int, name: String) {
            self.id = id
            self.name = name
        }

        init(row: borrowing Row) throws {
            id = try row[0]
            name = try row[1]
        }

        func encode(to encoder: inout RowEncoder) throws {
            try encoder.encode(id)
            try encoder.encode(name)
        }
    }

    struct Book: TableModel, Equatable, Sendable {
        var id: Int
        var authorID: Int?
        var title: String
        var year: Int

        static let tableName = "books"
        static let columns = [
            Column("id", Int.self, primaryKey: true),
            Column("author_id", Int?.self, references: ForeignKey("authors", "id")),
            Column("title", String.self),
            Column("year", Int.self),
        ]
        static let author = ToOneRelation<Book, Author>.belongsTo()

        init(id: Int, authorID: Int?, title: String, year: Int) {
            self.id = id
            self.authorID = authorID
            self.title = title
            self.year = year
        }

        init(row: borrowing Row) throws {
            id = try row[0]
            authorID = try row[1]
            title = try row[2]
            year = try row[3]
        }

        func encode(to encoder: inout RowEncoder) throws {
            try encoder.encode(id)
            try encoder.encode(authorID)
            try encoder.encode(title)
            try encoder.encode(year)
        }
    }

    struct Employee: TableModel, Equatable, Sendable {
        var id: Int
        var name: String
        var managerID: Int?

        static let tableName = "employees"
        static let columns = [
            Column("id", Int.self, primaryKey: true),
            Column("name", String.self),
            Column("manager_id", Int?.self, references: ForeignKey("employees", "id")),
        ]
        static let manager = ToOneRelation<Employee, Employee>.belongsTo()
        static let reports = ToManyRelation<Employee, Employee>.hasMany()

        init(id: Int, name: String, managerID: Int?) {
            self.id = id
            self.name = name
            self.managerID = managerID
        }

        init(row: borrowing Row) throws {
            id = try row[0]
            name = try row[1]
            managerID = try row[2]
        }

        func encode(to encoder: inout RowEncoder) throws {
            try encoder.encode(id)
            try encoder.encode(name)
            try encoder.encode(managerID)
        }
    }

    struct Note: TableModel, Equatable, Sendable {
        var id: Int
        var text: String

        static let tableName = "notes"
        static let columns = [Column("id", Int.self, primaryKey: true), Column("text", String.self)]
        static let tags = ToManyRelation<Note, Tag>.hasMany(through: NoteTag.self)

        init(id: Int, text: String) {
            self.id = id
            self.text = text
        }

        init(row: borrowing Row) throws {
            id = try row[0]
            text = try row[1]
        }

        func encode(to encoder: inout RowEncoder) throws {
            try encoder.encode(id)
            try encoder.encode(text)
        }
    }

    struct Tag: TableModel, Equatable, Sendable {
        var name: String

        static let tableName = "tags"
        static let columns = [Column("name", String.self, primaryKey: true)]
        static let notes = ToManyRelation<Tag, Note>.hasMany(through: NoteTag.self)

        init(name: String) {
            self.name = name
        }

        init(row: borrowing Row) throws {
            name = try row[0]
        }

        func encode(to encoder: inout RowEncoder) throws {
            try encoder.encode(name)
        }
    }

    struct NoteTag: TableModel, Equatable, Sendable {
        var noteID: Int
        var tag: String

        static let tableName = "note_tags"
        static let columns = [
            Column("note_id", Int.self, primaryKey: true, references: ForeignKey("notes", "id")),
            Column("tag", String.self, primaryKey: true, references: ForeignKey("tags", "name")),
        ]

        init(noteID: Int, tag: String) {
            self.noteID = noteID
            self.tag = tag
        }

        init(row: borrowing Row) throws {
            noteID = try row[0]
            tag = try row[1]
        }

        func encode(to encoder: inout RowEncoder) throws {
            try encoder.encode(noteID)
            try encoder.encode(tag)
        }
    }

    static let authors = [Author(id: 1, name: "Ursula"), Author(id: 2, name: "Italo"), Author(id: 3, name: "Jorge")]
    static let books = [
        Book(id: 10, authorID: 1, title: "The Dispossessed", year: 1974),
        Book(id: 11, authorID: 2, title: "Invisible Cities", year: 1972),
        Book(id: 12, authorID: 1, title: "A Wizard of Earthsea", year: 1968),
        Book(id: 13, authorID: nil, title: "Beowulf", year: 1000),
        Book(id: 14, authorID: 2, title: "If on a winter's night a traveler", year: 1979),
    ]
    static let employees = [
        Employee(id: 1, name: "Grace", managerID: nil),
        Employee(id: 2, name: "Alan", managerID: 1),
        Employee(id: 3, name: "Ada", managerID: 1),
        Employee(id: 4, name: "Edsger", managerID: 2),
    ]

    /// A database with every table filled: in memory, or created at `path`.
    static func database(at path: String? = nil) throws -> Connection {
        let db = try path.map { path throws(SQLiteError) in try Connection(creating: path) } ?? Connection.inMemory()
        try db.transaction {
            for model in [Author.self, Book.self, Employee.self, Note.self, Tag.self, NoteTag.self]
                as [any TableModel.Type]
            {
                try db.createTable(for: model)
            }
            try insert(authors, into: db)
            try insert(books, into: db)
            try insert(employees, into: db)
            try insert(
                [Note(id: 1, text: "groceries"), Note(id: 2, text: "ideas"), Note(id: 3, text: "empty")], into: db)
            try insert([Tag(name: "home"), Tag(name: "work"), Tag(name: "urgent")], into: db)
            try insert(
                [NoteTag(noteID: 1, tag: "home"), NoteTag(noteID: 1, tag: "urgent"), NoteTag(noteID: 2, tag: "work")],
                into: db)
        }
        return db
    }

    static func insert<Model: TableModel>(_ models: [Model], into db: Connection) throws {
        let insert = try db.makeInsertStatement(for: Model.self)
        for model in models { try insert.insert(model) }
    }
}
