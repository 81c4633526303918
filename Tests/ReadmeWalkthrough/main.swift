// Generated from README.md: its Swift blocks, in order, as a reader pastes them into one main.swift.
// ReadmeWalkthroughTests checks that this file is the README's blocks, runs it, and compares what it prints
// with the README's comments. Edit README.md, then regenerate this file with:
//     SQLITESWIFTLY_WRITE_README_WALKTHROUGH=1 swift test --filter ReadmeWalkthroughTests
// (Not linted: the README's second block imports the macro product where a reader pastes it, mid-file.)
// swift-format-ignore-file

import Foundation
import SQLiteSwiftly

struct Planet: TableModel, Equatable {
    var id: Int
    var name: String
    var au: Double  // mean distance from the Sun, in astronomical units
    var moons: Int?  // nil: unknown

    static let tableName = "planets"
    static let columns = [
        Column("id", Int.self, primaryKey: true),
        Column("name", String.self, unique: true),
        Column("au", Double.self),
        Column("moons", Int?.self),
    ]

    init(id: Int, name: String, au: Double, moons: Int?) {
        self.id = id
        self.name = name
        self.au = au
        self.moons = moons
    }

    init(row: borrowing Row) throws {  // columns by index, in the order of `columns`
        id = try row[0]
        name = try row[1]
        au = try row[2]
        moons = try row[3]
    }

    func encode(to encoder: inout RowEncoder) throws {  // one value per column, same order
        try encoder.encode(id)
        try encoder.encode(name)
        try encoder.encode(au)
        try encoder.encode(moons)
    }
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let path = directory.appendingPathComponent("planets.sqlite").path

// A new database: this fails if anything at all exists at `path`.
let db = try Connection(creating: path)
try db.createTable(for: Planet.self)

// One prepared INSERT, run once per row, in one transaction.
let insert = try db.makeInsertStatement(for: Planet.self)
try db.transaction {
    try insert.insert(Planet(id: 1, name: "Mercury", au: 0.387, moons: 0))
    try insert.insert(Planet(id: 3, name: "Earth", au: 1.0, moons: 1))
    try insert.insert(Planet(id: 4, name: "Mars", au: 1.524, moons: nil))
}
let planets: [Planet] = try db.fetchAll(Planet.self)
print(planets.map(\.name))  // ["Mercury", "Earth", "Mars"]

// The same file again: this fails if nothing, or something that is not a database, is at `path`.
let again = try Connection(opening: path)
let beyondEarth = try again.fetchAll(Planet.self, where: "au > ?", [1.0])
print(beyondEarth.map(\.name))  // ["Mars"]

import SQLiteSwiftlyMacros

@Table("authors")
struct Author: Equatable {
    @TableColumn(primaryKey: true) var id: Int64?  // nil: SQLite assigns it
    var name: String

    static let books = ToManyRelation<Author, Book>.hasMany()  // books.author_id references authors.id
}

@Table("books", indexes: [TableIndex("books_by_author", on: ["author_id"])])
struct Book: Equatable {
    @TableColumn(primaryKey: true, autoIncrement: true) var id: Int64?
    var title: String
    @TableColumn("author_id", references: ForeignKey("authors", "id", onDelete: .cascade)) var authorID: Int64
    @TableColumn("published") var year: Int?
    @TableColumn(default: 0) var rating: Int
    @Transient var isSelected = false  // not stored
}

try db.createTable(for: Author.self)
try db.createTable(for: Book.self)
let herbert = try db.insert(Author(name: "Frank Herbert"))  // the new row id
let leGuin = try db.insert(Author(name: "Ursula K. Le Guin"))
var dune = Book(title: "Dune", authorID: herbert, year: 1965, rating: 5)
dune.id = try db.insert(dune)
try db.insert(Book(title: "The Dispossessed", authorID: leGuin, year: 1974, rating: 5))
try db.insert(Book(title: "A Wizard of Earthsea", authorID: leGuin, year: 1968, rating: 4))
print(try db.fetchOne(Book.self, id: dune.id) == dune)  // true

let name = "Mars"
let mars = try db.fetchOne(Planet.self, "SELECT * FROM planets WHERE name = \(name)")
// runs SELECT * FROM planets WHERE name = ?, with "Mars" bound to the parameter
let ids = [1, 3, 4]
let some = try db.fetchAll(Planet.self, "SELECT * FROM planets WHERE id IN (\(list: ids))")
let table = "planets"
let total = try db.fetchValue(Int.self, "SELECT count(*) FROM \(identifier: table)")  // "planets", quoted
print(mars?.au ?? 0, some.map(\.name), total ?? 0)  // 1.524 ["Mercury", "Earth", "Mars"] 3

let rows = try db.fetchAll(
    (Book, Author).self,
    "SELECT books.*, authors.* FROM books JOIN authors ON authors.id = books.author_id ORDER BY books.published")
print(rows.map { book, author in "\(book.title) by \(author.name)" })
// ["Dune by Frank Herbert", "A Wizard of Earthsea by Ursula K. Le Guin", "The Dispossessed by Ursula K. Le Guin"]

let authors = try db.fetchAll(Author.self, "SELECT * FROM authors ORDER BY name")
let books = try db.fetchRelated(Author.books, of: authors, orderBy: "published")  // [[Book]], one per author
print(zip(authors, books).map { author, books in "\(author.name): \(books.count)" })
// ["Frank Herbert: 1", "Ursula K. Le Guin: 2"]

let shared = try SharedConnection(.open(path: path))  // Sendable: hand it to any task
try await shared.write { db in  // BEGIN IMMEDIATE ... COMMIT; rolled back if the body throws
    try db.execute("CREATE TABLE notes (body TEXT NOT NULL)")
    try db.transaction {  // nested in the write: a savepoint
        try db.execute("INSERT INTO notes VALUES (\("hello"))")
    }
}
let count = try await shared.read { db in  // one consistent snapshot; writes are refused; nil: no row
    try db.fetchValue(Int.self, "SELECT count(*) FROM notes")
}
print(count ?? 0)  // 1

let pool = try ConnectionPool(.open(path: path))
let withMoons = pool.observe(Planet.self, "SELECT * FROM planets WHERE moons > \(0) ORDER BY id")
    .removingDuplicates()  // a commit that leaves the result as it was delivers nothing
var results: [[String]] = []  // Mercury has no moons, and Mars's are unknown
for try await current in withMoons {  // the current result first, then one after each commit that changes it
    results.append(current.map(\.name))
    if results.count == 2 { break }  // leaving the loop ends the observation
    try await pool.write { db in
        try db.execute("UPDATE planets SET au = 0.39 WHERE name = 'Mercury'")  // same result: skipped
    }
    try await pool.write { db in
        try db.execute("UPDATE planets SET moons = 2 WHERE name = 'Mars'")
    }
}
print(results)  // [["Earth"], ["Earth", "Mars"]]

let editor = try Connection.inMemory()  // an app's own database
try editor.execute("CREATE TABLE drafts (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT)")
try editor.execute("INSERT INTO drafts (id, title, body) VALUES (1, 'Groceries', 'milk')")

let (_, changeset) = try editor.recordingChangeset {
    try editor.execute("UPDATE drafts SET body = 'bread' WHERE id = 1")
    try editor.execute("INSERT INTO drafts (id, title) VALUES (2, 'Ideas')")
}
let saved = changeset.bytes  // SQLite's format, the same everywhere: save it, send it
let changes = try Changeset(bytes: saved).changes()  // an update has its key and changed columns; "-": no value
print(changes[0])  // UPDATE drafts old [INTEGER 1, -, TEXT "milk"] new [-, -, TEXT "bread"]
print(changes[1])  // INSERT drafts new [INTEGER 2, TEXT "Ideas", NULL]
