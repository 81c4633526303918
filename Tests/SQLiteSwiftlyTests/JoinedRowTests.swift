import Foundation
import Testing

@testable import SQLiteSwiftly

/// Joined rows: each result column goes to the member of the tuple whose table it comes from.
@Suite struct JoinedRowTests {
    typealias Author = RelationsFixture.Author
    typealias Book = RelationsFixture.Book
    typealias Employee = RelationsFixture.Employee

    /// A row type that is not a model: it finds its columns by name.
    struct Count: RowDecodable, Equatable, Sendable {
        var books: Int
        static let expectedColumnNames: [String]? = ["books"]
        init(row: borrowing Row) throws { books = try row[0] }
    }

    static let join: SQL = "FROM books JOIN authors ON authors.id = books.author_id ORDER BY books.id"

    @Test("a join reads each model from its own table's columns, though both tables have an id")
    func sameNames() throws {
        let db = try RelationsFixture.database()
        let rows = try db.fetchAll((Book, Author).self, "SELECT books.*, authors.* \(Self.join)")
        #expect(rows.map(\.0.id) == [10, 11, 12, 14])
        #expect(rows.map(\.1.id) == [1, 2, 1, 2])
        #expect(rows.map(\.1.name) == ["Ursula", "Italo", "Ursula", "Italo"])
        #expect(rows.map(\.0.authorID) == rows.map { Optional($0.1.id) })
    }

    @Test("the order of the SELECT list does not matter")
    func reorderedSelect() throws {
        let db = try RelationsFixture.database()
        let expected = try db.fetchAll((Book, Author).self, "SELECT books.*, authors.* \(Self.join)")
        let reversed = try db.fetchAll((Book, Author).self, "SELECT authors.*, books.* \(Self.join)")
        let shuffled = try db.fetchAll(
            (Book, Author).self,
            "SELECT authors.name, books.year, authors.id, books.title, books.id, books.author_id \(Self.join)")
        let swapped = try db.fetchAll((Author, Book).self, "SELECT books.*, authors.* \(Self.join)")
        #expect(reversed.map(\.0) == expected.map(\.0) && reversed.map(\.1) == expected.map(\.1))
        #expect(shuffled.map(\.0) == expected.map(\.0) && shuffled.map(\.1) == expected.map(\.1))
        #expect(swapped.map(\.1) == expected.map(\.0) && swapped.map(\.0) == expected.map(\.1))
    }

    @Test("a LEFT JOIN gives nil for an absent row, and a non-optional member says to read it as optional")
    func leftJoin() throws {
        let db = try RelationsFixture.database()
        let sql: SQL = "SELECT * FROM books LEFT JOIN authors ON authors.id = books.author_id ORDER BY books.id"
        let rows = try db.fetchAll((Book, Author?).self, sql)
        #expect(rows.count == 5)
        #expect(rows.map { $0.1?.name } == ["Ursula", "Italo", "Ursula", nil, "Italo"])
        let error = try requireSQLiteError { try db.fetchAll((Book, Author).self, sql) }
        #expect(error.kind == .conversionFailed)
        #expect(error.message.contains("read it as Author?"))
        #expect(error.table == "authors" && error.row == 4)
    }

    @Test("an optional member is nil only when its primary key is NULL, not when another column is")
    func absentByPrimaryKey() throws {
        let db = try RelationsFixture.database()
        let rows = try db.fetchAll(
            (Book, Employee?).self,
            "SELECT books.*, employees.* FROM books LEFT JOIN employees ON employees.id = books.author_id "
                + "WHERE books.id IN (10, 13) ORDER BY books.id")
        #expect(rows.map { $0.1?.name } == ["Grace", nil])
        #expect(rows[0].1?.managerID == nil)  // Grace has no manager: a NULL that is not an absent row
    }

    @Test("a self-join through aliases assigns the table's columns to its members in order of appearance")
    func selfJoin() throws {
        let db = try RelationsFixture.database()
        let rows = try db.fetchAll(
            (Employee, Employee?).self,
            "SELECT e.*, m.* FROM employees AS e LEFT JOIN employees AS m ON m.id = e.manager_id ORDER BY e.id")
        #expect(rows.map(\.0.name) == ["Grace", "Alan", "Ada", "Edsger"])
        #expect(rows.map { $0.1?.name } == [nil, "Grace", "Grace", "Alan"])
        let aliased = try db.fetchAll(
            (Employee, Employee).self,
            """
            SELECT e.id, e.name, e.manager_id, m.id AS boss_id, m.name AS boss, m.manager_id AS boss_manager
            FROM employees AS e JOIN employees AS m ON m.id = e.manager_id ORDER BY e.id
            """)
        #expect(aliased.map(\.0.name) == ["Alan", "Ada", "Edsger"])
        #expect(aliased.map(\.1.name) == ["Grace", "Grace", "Alan"])
        // Order of appearance decides, not the aliases: the manager's columns first make the manager the first member.
        let managerFirst = try db.fetchAll(
            (Employee, Employee).self,
            """
            SELECT m.*, e.* FROM employees AS e JOIN employees AS m ON m.id = e.manager_id ORDER BY e.id
            """)
        #expect(managerFirst.map(\.0.name) == ["Grace", "Grace", "Alan"])
    }

    @Test("columns read through a view or a subquery go to the tables they come from")
    func viewsAndSubqueries() throws {
        let db = try RelationsFixture.database()
        try db.execute("CREATE VIEW recent_books AS SELECT * FROM books WHERE year > 1970")
        let throughView = try db.fetchAll(
            (Book, Author).self,
            "SELECT * FROM recent_books AS b JOIN authors AS a ON a.id = b.author_id ORDER BY b.id")
        #expect(throughView.map(\.0.id) == [10, 11, 14])
        #expect(throughView.map(\.1.name) == ["Ursula", "Italo", "Italo"])
        let throughSubquery = try db.fetchAll(
            (Author, Book).self,
            """
            SELECT * FROM (SELECT * FROM authors WHERE name <> 'Jorge') AS a
            JOIN (SELECT id, title, year, author_id FROM books) AS b ON b.author_id = a.id ORDER BY b.id
            """)
        #expect(
            throughSubquery.map(\.1.title) == [
                "The Dispossessed", "Invisible Cities", "A Wizard of Earthsea", "If on a winter's night a traveler",
            ])
        #expect(throughSubquery.map(\.0.id) == [1, 2, 1, 2])
    }

    @Test("an expression goes by its name, or explicitly with a \"table.column\" alias")
    func expressions() throws {
        let db = try RelationsFixture.database()
        let byName = try db.fetchAll(
            (Book, Author).self, "SELECT books.*, authors.id, upper(authors.name) AS name \(Self.join)")
        #expect(byName.map(\.1.name) == ["URSULA", "ITALO", "URSULA", "ITALO"])
        let explicit = try db.fetchAll(
            (Book, Author).self,
            "SELECT books.*, authors.*, lower(authors.name) AS \"authors.name\" \(Self.join)")
        #expect(explicit.map(\.1.name) == ["ursula", "italo", "ursula", "italo"])
        let selfJoin = try db.fetchAll(
            (Employee, Employee).self,
            """
            SELECT upper(e.name) AS "employees.name", e.id, e.manager_id, m.*
            FROM employees AS e JOIN employees AS m ON m.id = e.manager_id ORDER BY e.id
            """)
        // The expression comes first, so it goes to the first member; m.name to the second.
        #expect(selfJoin.map(\.0.name) == ["ALAN", "ADA", "EDSGER"])
        #expect(selfJoin.map(\.1.name) == ["Grace", "Grace", "Alan"])
    }

    @Test("other row types find their columns by name, and one member may take the rest as it comes")
    func otherRowTypes() throws {
        let db = try RelationsFixture.database()
        let counted = try db.fetchAll(
            (Author, Count).self,
            "SELECT authors.*, count(books.id) AS books FROM authors LEFT JOIN books ON books.author_id = authors.id "
                + "GROUP BY authors.id ORDER BY authors.id")
        #expect(counted.map(\.1.books) == [2, 2, 0])
        let rest = try db.fetchAll(
            (Author, UntypedRow).self, "SELECT 'x' AS label, authors.*, 42 AS answer FROM authors ORDER BY id")
        #expect(rest.map(\.0.name) == ["Ursula", "Italo", "Jorge"])
        #expect(rest[0].1.columnNames == ["label", "answer"])
        #expect(rest[0].1.values == [.text("x"), .integer(42)])
    }

    @Test("three members decode through the parameter pack, with an optional among them")
    func threeMembers() throws {
        let db = try RelationsFixture.database()
        let rows = try db.fetchAll(
            (Employee, Employee?, Employee?).self,
            """
            SELECT e.*, m.*, g.* FROM employees AS e
            LEFT JOIN employees AS m ON m.id = e.manager_id LEFT JOIN employees AS g ON g.id = m.manager_id
            ORDER BY e.id
            """)
        #expect(rows.map(\.0.name) == ["Grace", "Alan", "Ada", "Edsger"])
        #expect(rows.map { $0.1?.name } == [nil, "Grace", "Grace", "Alan"])
        #expect(rows.map { $0.2?.name } == [nil, nil, nil, "Grace"])
    }

    @Test("a column no member can have, or too few or too many for the members, is an error naming it")
    func assignmentErrors() throws {
        let db = try RelationsFixture.database()
        let missing = try requireSQLiteError {
            try db.fetchAll((Book, Author).self, "SELECT books.*, authors.id \(Self.join)")
        }
        #expect(missing.kind == .modelMismatch && missing.column == "name" && missing.table == "authors")
        let twice = try requireSQLiteError {
            try db.fetchAll((Author, Author).self, "SELECT authors.* FROM authors")
        }
        #expect(twice.kind == .modelMismatch && twice.column == "id" && twice.message.contains("1 time"))
        let tooMany = try requireSQLiteError {
            try db.fetchAll((Book, Author).self, "SELECT books.*, authors.*, authors.name AS name \(Self.join)")
        }
        #expect(tooMany.kind == .modelMismatch && tooMany.column == "name")
        let positional = try requireSQLiteError {
            try db.fetchAll((UntypedRow, UntypedRow).self, "SELECT 1, 2")
        }
        #expect(positional.kind == .modelMismatch && positional.message.contains("at most one member"))
        // Before any row is read: an empty result fails too.
        let empty = try requireSQLiteError {
            try db.fetchAll((Book, Author).self, "SELECT books.*, authors.id \(Self.join) LIMIT 0")
        }
        #expect(empty.column == "name")
        // The failed statement runs again cleanly.
        #expect(try db.fetchAll((Book, Author).self, "SELECT books.*, authors.* \(Self.join)").count == 4)
    }

    @Test("a prepared statement reads tuples, with arguments or typed values, and other tuple types in turn")
    func statements() throws {
        let db = try RelationsFixture.database()
        let statement = try db.prepare(
            "SELECT * FROM books JOIN authors ON authors.id = books.author_id WHERE books.year > ? ORDER BY books.id")
        #expect(try statement.fetchAll((Book, Author).self, [1970]).map(\.0.id) == [10, 11, 14])
        #expect(try statement.fetchAll((Author, Book).self, binding: 1975).map(\.0.name) == ["Italo"])
        #expect(try statement.fetchOne((Book, Author).self, [1900])?.1.name == "Ursula")
        #expect(try statement.fetchOne((Book, Author).self, binding: 2000) == nil)
        let one = try db.fetchOne((Book, Author).self, "SELECT books.*, authors.* \(Self.join)")
        #expect(one?.0.title == "The Dispossessed" && one?.1.name == "Ursula")
        let wrongCount = try requireSQLiteError { try statement.fetchAll((Book, Author).self, binding: 1, 2) }
        #expect(wrongCount.kind == .parameterMismatch)
    }

    @Test("a cursor decodes one tuple at a time, and ends when its statement runs again")
    func cursors() throws {
        let db = try RelationsFixture.database()
        let cursor = try db.fetchCursor(
            (Book, Author?).self,
            "SELECT * FROM books LEFT JOIN authors ON authors.id = books.author_id ORDER BY books.id")
        var names: [String?] = []
        while let (_, author) = try cursor.next() { names.append(author?.name) }
        #expect(names == ["Ursula", "Italo", "Ursula", nil, "Italo"])
        #expect(try cursor.next() == nil)

        let statement = try db.prepare("SELECT books.*, authors.* \(Self.join)")
        let first = try statement.fetchCursor((Book, Author).self)
        #expect(try first.next()?.0.id == 10)
        _ = try statement.fetchAll(Book.self)
        let restarted = try requireSQLiteError { try first.next() }
        #expect(restarted.kind == .misuse)
        #expect(try first.next() == nil)

        let failing = try requireSQLiteError {
            try db.fetchCursor((Book, Author).self, "SELECT books.* \(Self.join)")
        }
        #expect(failing.kind == .modelMismatch && failing.table == "authors")
    }

    @Test("a statement re-prepared after a schema change assigns its columns again")
    func reprepared() throws {
        let db = try RelationsFixture.database()
        let statement = try db.prepare("SELECT * \(Self.join)")
        #expect(try statement.fetchAll((Book, Author).self).count == 4)
        try db.execute("ALTER TABLE books ADD COLUMN pages INTEGER")
        try db.execute("ALTER TABLE authors ADD COLUMN born INTEGER")
        let rows = try statement.fetchAll((Book, Author).self)
        #expect(rows.map(\.1.name) == ["Ursula", "Italo", "Ursula", "Italo"])
        #expect(statement.columnNames.count == 8)
    }

    @Test("an observation of a join runs again when either table changes, and not for another table")
    func observation() async throws {
        let shared = try SharedConnection(.inMemory)
        try await shared.withConnection { db in
            try db.createTable(for: Author.self)
            try db.createTable(for: Book.self)
            try db.createTable(for: Employee.self)
            try RelationsFixture.insert(RelationsFixture.authors, into: db)
            try RelationsFixture.insert(RelationsFixture.books, into: db)
        }
        let rows = shared.observe((Book, Author).self, "SELECT * \(Self.join)")
        var iterator = rows.makeAsyncIterator()
        #expect(try await iterator.next()?.map(\.1.name) == ["Ursula", "Italo", "Ursula", "Italo"])
        try await shared.write { db in try db.execute("INSERT INTO employees VALUES (9, 'Nobody', NULL)") }
        try await shared.write { db in try db.execute("UPDATE authors SET name = 'Calvino' WHERE id = 2") }
        // The employees commit came first but changed no table of the join: the next result is the authors change.
        #expect(try await iterator.next()?.map(\.1.name) == ["Ursula", "Calvino", "Ursula", "Calvino"])
        try await shared.write { db in try db.execute("UPDATE books SET author_id = 1 WHERE id = 13") }
        #expect(try await iterator.next()?.map(\.0.id) == [10, 11, 12, 13, 14])
    }

    @Test("without column metadata, columns go by name in order of appearance")
    func withoutMetadata() throws {
        typealias Assignment = JoinedColumnAssignment
        let names = ["id", "author_id", "title", "year", "id", "name"]
        let columns = names.map { Assignment.ResultColumn(name: $0, table: nil, origin: nil) }
        let members = [Book.self, Author.self].map { JoinedLayout.shape(of: $0) }
        let assignment = try Assignment(columns: columns, members: members, sql: "")
        #expect(assignment.positions == [[0, 1, 2, 3], [4, 5]])
        #expect(assignment.keyPositions == [[0], [4]])
        let reversed = Array(columns[4...] + columns[..<4])
        let swapped = try Assignment(columns: reversed, members: members, sql: "")
        // The first id goes to the first member, though it is the author's: the SELECT list must follow the tuple.
        #expect(swapped.positions == [[0, 3, 4, 5], [2, 1]])
        let extra = columns + [Assignment.ResultColumn(name: "name", table: nil, origin: nil)]
        let error = try requireSQLiteError { try Assignment(columns: extra, members: members, sql: "") }
        #expect(error.kind == .modelMismatch && error.column == "name")
    }

    @Test("the absent-row test of an optional member reads its primary key, or every column without one")
    func keyPositions() {
        #expect(JoinedLayout.shape(of: Author?.self).keyIndexes == [0])
        #expect(JoinedLayout.shape(of: Author?.self).typeName == "Author?")
        #expect(JoinedLayout.shape(of: Count?.self).keyIndexes == [])  // every column
        #expect(JoinedLayout.shape(of: Count?.self).table == nil)
        #expect(JoinedLayout.shape(of: UntypedRow.self).names == nil)
    }
}
