import Foundation
import Testing

@testable import SQLiteSwiftly

/// A parent table: auto-increment key, unique name, and a default.
private struct Author: TableModel {
    var id: Int64?
    var name: String
    var country: String

    static let tableName = "authors"
    static let columns = [
        Column("id", Int64?.self, primaryKey: true, autoIncrement: true),
        Column("name", String.self, unique: true),
        Column("country", String.self, default: "unknown"),
    ]

    init(id: Int64? = nil, name: String, country: String = "unknown") {
        self.id = id
        self.name = name
        self.country = country
    }

    init(row: borrowing Row) throws {
        id = try row[0]
        name = try row[1]
        country = try row[2]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(name)
        try encoder.encode(country)
    }
}

/// A child table: composite key, foreign key with cascade, a nullable column, a default, and indexes.
private struct Chapter: TableModel {
    var book: String
    var number: Int
    var author: Int64
    var title: String?
    var pages: Int

    static let tableName = "chapters"
    static let columns = [
        Column("book", String.self, primaryKey: true),
        Column("number", Int.self, primaryKey: true),
        Column("author", Int64.self, references: ForeignKey("authors", "id", onDelete: .cascade, onUpdate: .restrict)),
        Column("title", String?.self),
        Column("pages", Int.self, default: 1),
    ]
    static let indexes = [
        TableIndex("chapters_by_author", on: ["author"]),
        TableIndex("chapters_unique_title", on: ["book", "title"], unique: true),
    ]

    init(book: String, number: Int, author: Int64, title: String? = nil, pages: Int = 1) {
        self.book = book
        self.number = number
        self.author = author
        self.title = title
        self.pages = pages
    }

    init(row: borrowing Row) throws {
        book = try row[0]
        number = try row[1]
        author = try row[2]
        title = try row[3]
        pages = try row[4]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(book)
        try encoder.encode(number)
        try encoder.encode(author)
        try encoder.encode(title)
        try encoder.encode(pages)
    }
}

/// A model whose columns cannot be created as declared.
private struct Impossible: TableModel {
    static let tableName = "impossible"
    static let columns = [Column("a", .text, primaryKey: true, autoIncrement: true), Column("A", .integer)]
    init(row: borrowing Row) throws {}
    func encode(to encoder: inout RowEncoder) throws {}
}

private struct CompositeAutoIncrement: TableModel {
    static let tableName = "composite"
    static let columns = [
        Column("a", .integer, primaryKey: true, autoIncrement: true), Column("b", .integer, primaryKey: true),
    ]
    init(row: borrowing Row) throws {}
    func encode(to encoder: inout RowEncoder) throws {}
}

private func database() throws -> Connection {
    let db = try Connection.inMemory()
    try db.createTable(for: Author.self)
    try db.createTable(for: Chapter.self)
    return db
}

@Suite struct ConstraintTests {
    @Test("every constraint is emitted, with every identifier quoted")
    func pinnedSQL() throws {
        #expect(
            try Connection.createTableSQL(for: Author.self) == [
                #"CREATE TABLE "authors" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL UNIQUE, "#
                    + #""country" TEXT NOT NULL DEFAULT 'unknown')"#
            ])
        #expect(
            try Connection.createTableSQL(for: Chapter.self) == [
                #"CREATE TABLE "chapters" ("book" TEXT NOT NULL, "number" INTEGER NOT NULL, "#
                    + #""author" INTEGER NOT NULL REFERENCES "authors" ("id") ON DELETE CASCADE ON UPDATE RESTRICT, "#
                    + #""title" TEXT, "#
                    + #""pages" INTEGER NOT NULL DEFAULT 1, PRIMARY KEY ("book", "number"))"#,
                #"CREATE INDEX "chapters_by_author" ON "chapters" ("author")"#,
                #"CREATE UNIQUE INDEX "chapters_unique_title" ON "chapters" ("book", "title")"#,
            ])
    }

    @Test("a declared type that is not a type name is refused before any SQL is written or run")
    func declaredTypeIsATypeName() throws {
        struct Typed: TableModel {
            nonisolated(unsafe) static var type = DeclaredType.integer
            static let tableName = "typed"
            static var columns: [Column] { [Column("id", type, primaryKey: true)] }
            var id: Int
            init(row: borrowing Row) throws { id = try row[0] }
            func encode(to encoder: inout RowEncoder) throws { try encoder.encode(id) }
        }
        let db = try Connection.inMemory()
        for text in [
            "INTEGER, \"extra\" TEXT", "TEXT) --", "INT; DROP TABLE x", "(20)", "VARCHAR(20", "2INT",
            "NUMERIC(1, 2, 3)",
        ] {
            Typed.type = DeclaredType(rawValue: text)
            let error = try requireSQLiteError { try db.createTable(for: Typed.self) }
            #expect(error.kind == .misuse, "\(text)")
            #expect(error.column == "id" && error.table == "typed")
            #expect(throws: SQLiteError.self) { try Connection.createTableSQL(for: Typed.self) }
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_schema") == 0)
        for text in ["", "VARCHAR(20)", "DECIMAL(10, 2)", "UNSIGNED BIG INT", "NUMERIC( -5 , +3.5 )", "my_type2"] {
            Typed.type = DeclaredType(rawValue: text)
            #expect(try Connection.createTableSQL(for: Typed.self).count == 1, "\(text)")
        }
    }

    @Test("a single primary key refuses a duplicate; AUTOINCREMENT never reuses a deleted row id")
    func autoIncrementKey() throws {
        let db = try database()
        let insert = try db.makeInsertStatement(for: Author.self)
        #expect(try insert.insert(Author(name: "a")) == 1)
        #expect(try insert.insert(Author(name: "b")) == 2)
        #expect(sqliteError { try insert.insert(Author(id: 2, name: "c")) }?.code == .constraintPrimaryKey)
        try db.execute("DELETE FROM authors WHERE id = 2")
        #expect(try insert.insert(Author(name: "d")) == 3)
        #expect(try insert.insert(Author(id: 10, name: "e")) == 10)
    }

    @Test("a composite primary key refuses a duplicate pair, accepts each half again")
    func compositeKey() throws {
        let db = try database()
        let author = try db.makeInsertStatement(for: Author.self).insert(Author(name: "a"))
        let insert = try db.makeInsertStatement(for: Chapter.self)
        try insert.insert(Chapter(book: "b1", number: 1, author: author))
        try insert.insert(Chapter(book: "b1", number: 2, author: author))
        try insert.insert(Chapter(book: "b2", number: 1, author: author))
        let error = sqliteError { try insert.insert(Chapter(book: "b1", number: 1, author: author)) }
        #expect(error?.code == .constraintPrimaryKey)
        #expect(error?.table == "chapters")
    }

    @Test("UNIQUE columns and unique indexes refuse duplicates")
    func unique() throws {
        let db = try database()
        try db.makeInsertStatement(for: Author.self).insert(Author(name: "same"))
        let duplicate = sqliteError { try db.makeInsertStatement(for: Author.self).insert(Author(name: "same")) }
        #expect(duplicate?.code == .constraintUnique)
        let insert = try db.makeInsertStatement(for: Chapter.self)
        try insert.insert(Chapter(book: "b", number: 1, author: 1, title: "Intro"))
        let title = sqliteError { try insert.insert(Chapter(book: "b", number: 2, author: 1, title: "Intro")) }
        #expect(title?.code == .constraintUnique)
        try insert.insert(Chapter(book: "b", number: 3, author: 1, title: nil))  // NULLs are distinct
        try insert.insert(Chapter(book: "b", number: 4, author: 1, title: nil))
    }

    @Test("NOT NULL columns refuse NULL; nullable ones accept it")
    func notNull() throws {
        let db = try database()
        let error = sqliteError { try db.execute("INSERT INTO authors (name) VALUES (NULL)") }
        #expect(error?.code == .constraintNotNull)
        try db.execute("INSERT INTO authors (name) VALUES ('x')")
        try db.execute("INSERT INTO chapters (book, number, author, title) VALUES ('b', 1, 1, NULL)")
    }

    @Test("DEFAULT values fill omitted columns")
    func defaults() throws {
        let db = try database()
        try db.execute("INSERT INTO authors (name) VALUES ('x')")
        try db.execute("INSERT INTO chapters (book, number, author) VALUES ('b', 1, 1)")
        #expect(try db.fetchValue(String.self, "SELECT country FROM authors") == "unknown")
        #expect(try db.fetchValue(Int.self, "SELECT pages FROM chapters") == 1)
    }

    @Test("foreign keys are enforced with PRAGMA foreign_keys = ON, and cascade on delete")
    func foreignKey() throws {
        let db = try database()
        let insert = try db.makeInsertStatement(for: Chapter.self)
        let orphan = sqliteError { try insert.insert(Chapter(book: "b", number: 1, author: 99)) }
        #expect(orphan?.code == .constraintForeignKey)
        let author = try db.makeInsertStatement(for: Author.self).insert(Author(name: "a"))
        try insert.insert(Chapter(book: "b", number: 1, author: author))
        let update = sqliteError { try db.execute("UPDATE authors SET id = 7 WHERE id = ?", [author]) }
        #expect(update?.code.primary == .constraint)
        #expect(update?.message.contains("FOREIGN KEY") == true)
        try db.execute("DELETE FROM authors WHERE id = ?", [author])
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM chapters") == 0)
    }

    @Test("indexes are created under their names and used by queries")
    func indexes() throws {
        let db = try database()
        let names = try db.fetchAll(
            UntypedRow.self, "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
        #expect(names.map(\.values) == [["chapters_by_author"], ["chapters_unique_title"]])
        let plan = try db.fetchAll(UntypedRow.self, "EXPLAIN QUERY PLAN SELECT * FROM chapters WHERE author = 1")
        #expect(
            plan.contains { row in
                row.values.contains(.text("SEARCH chapters USING INDEX chapters_by_author (author=?)"))
            })
    }

    @Test("columns that cannot be created as declared are refused before any SQL runs")
    func impossibleColumns() throws {
        let db = try Connection.inMemory()
        for error in [
            sqliteError { try db.createTable(for: Impossible.self) },
            sqliteError { try db.createTable(for: CompositeAutoIncrement.self) },
        ] {
            #expect(error?.kind == .misuse)
        }
        #expect(TableSQL.problem(in: Impossible.columns)?.contains("declared twice") == true)
        #expect(TableSQL.problem(in: CompositeAutoIncrement.columns)?.contains("AUTOINCREMENT") == true)
        #expect(TableSQL.problem(in: Author.columns) == nil)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_schema") == 0)
    }
}
