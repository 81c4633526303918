import Foundation
import SQLiteSwiftly
import Testing

/// A row type that is not a table model: it reads one column as an `Int`.
private struct Count: RowDecodable {
    var value: Int
    init(row: borrowing Row) throws { value = try row[0] }
}

private func catalog() throws -> Connection {
    let db = try Connection.inMemory()
    try db.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT, amount)")
    try db.execute("INSERT INTO items (label, amount) VALUES ('ok', 1), ('bad', 'not a number'), ('none', NULL)")
    return db
}

@Suite struct ErrorLocationTests {
    @Test("a conversion error from fetchAll, fetchOne, fetchValue and a cursor carries the SQL, table, column and row")
    func conversionErrorsSayWhere() throws {
        let db = try catalog()
        let sql: SQL = "SELECT amount FROM items ORDER BY id"
        var errors: [(String, SQLiteError)] = []
        func record(_ label: String, _ body: () throws -> Void) {
            do {
                try body()
                Issue.record("\(label) succeeded")
            } catch let error as SQLiteError {
                errors.append((label, error))
            } catch {
                Issue.record("\(label) threw \(error)")
            }
        }
        record("fetchAll") { _ = try db.fetchAll(Count.self, sql) }
        record("fetchOne") { _ = try db.fetchOne(Count.self, "SELECT amount FROM items WHERE id = \(2)") }
        record("fetchValue") { _ = try db.fetchValue(Int.self, "SELECT amount FROM items WHERE id = \(3)") }
        record("cursor") {
            let cursor = try db.fetchCursor(Count.self, sql)
            while try cursor.next() != nil {}
        }
        record("statement") { _ = try db.prepare(sql).fetchAll(Count.self) }
        #expect(errors.count == 5)
        for (label, error) in errors {
            #expect(error.kind == .conversionFailed, "\(label)")
            #expect(error.sql?.hasPrefix("SELECT amount FROM items") == true, "\(label)")
            #expect(error.table == "items", "\(label): the column's table, from SQLite")
            #expect(error.column == "amount", "\(label)")
            #expect(error.row != nil, "\(label)")
            #expect(error.description.contains("in SQL: SELECT amount FROM items"), "\(label)")
        }
    }

    @Test("localizedDescription prints the same text as description")
    func localizedDescription() throws {
        let db = try catalog()
        let error = try #require(throws: SQLiteError.self) { try db.fetchAll(Count.self, "SELECT label FROM items") }
        let erased: any Error = error
        #expect(erased.localizedDescription == error.description)
        #expect(erased.localizedDescription.contains("column \"label\""))
    }

    @Test("opening a directory is a typed notADatabase error naming the path, and creating over one is refused")
    func directory() throws {
        let directory = try TemporaryDirectory()
        let opened = try #require(throws: SQLiteError.self) { try Connection(opening: directory.url.path) }
        #expect(opened.kind == .notADatabase)
        #expect(opened.path == directory.url.path)
        #expect(opened.message.contains("is a directory"))
        let readOnly = try #require(throws: SQLiteError.self) {
            try Connection(opening: directory.url.path, readOnly: true)
        }
        #expect(readOnly.kind == .notADatabase)
        let created = try #require(throws: SQLiteError.self) { try Connection(creating: directory.url.path) }
        #expect(created.kind == .databaseAlreadyExists)
    }

    @Test("a step error carries the SQL; a model write error the table; a bind error the parameter")
    func otherErrorsSayWhere() throws {
        let db = try catalog()
        let step = try #require(throws: SQLiteError.self) {
            try db.execute("INSERT INTO items (id, label) VALUES (\(1), 'dup')")
        }
        #expect(step.code == .constraintPrimaryKey)
        #expect(step.sql == "INSERT INTO items (id, label) VALUES (?, 'dup')")
        let bind = try #require(throws: SQLiteError.self) { try db.execute("UPDATE items SET amount = \(Double.nan)") }
        #expect(bind.parameter == "?1")
        #expect(bind.sql == "UPDATE items SET amount = ?")
    }
}

@Suite struct ConstraintLocationTests {
    @Test("a UNIQUE or NOT NULL violation from plain SQL names the table and column SQLite reports")
    func constraintFromSQL() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, code TEXT UNIQUE, label TEXT NOT NULL)")
        try db.execute("INSERT INTO items VALUES (1, 'a', 'x')")
        let unique = try requireSQLiteError { try db.execute("INSERT INTO items VALUES (2, 'a', 'y')") }
        #expect(unique.code == .constraintUnique)
        #expect(unique.table == "items")
        #expect(unique.column == "code")
        let notNull = try requireSQLiteError { try db.execute("INSERT INTO items VALUES (3, 'b', NULL)") }
        #expect(notNull.table == "items")
        #expect(notNull.column == "label")
        try db.execute("CREATE TABLE pairs (a, b, UNIQUE (a, b))")
        try db.execute("INSERT INTO pairs VALUES (1, 1)")
        let pair = try requireSQLiteError { try db.execute("INSERT INTO pairs VALUES (1, 1)") }
        #expect(pair.table == nil)  // two columns: SQLite names both, the error names neither rather than guess
    }

    @Test("a CHECK failure names no table or column: its message holds the expression, not a place")
    func checkConstraintIsNoPlace() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE accounts (amount REAL CHECK (amount >= 0.5))")
        let error = try requireSQLiteError { try db.execute("INSERT INTO accounts VALUES (\(0.1))") }
        #expect(error.code.primary == .constraint && error.message.contains("CHECK constraint failed"))
        #expect(error.table == nil && error.column == nil)
        try db.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        let notNull = try requireSQLiteError { try db.execute("INSERT INTO items (name) VALUES (NULL)") }
        #expect(notNull.table == "items" && notNull.column == "name")
    }
}

/// A custom type conforming the documented way, whose conversion fails.
struct Temperature: SQLiteValueConvertible, Sendable {
    var kelvin: Double
    static var declaredType: DeclaredType { .real }
    init(kelvin: Double) { self.kelvin = kelvin }
    init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        guard case .real(let value) = sqliteValue else { throw .conversion("not a temperature") }
        kelvin = value
    }
    var sqliteValue: SQLiteValue {
        get throws(SQLiteError) {
            guard kelvin >= 0 else { throw .conversion("a temperature below absolute zero cannot be stored") }
            return .real(kelvin)
        }
    }
}

/// A model with a custom-typed and a Foundation-typed column.
struct Reading: TableModel, Sendable {
    var id: Int
    var temperature: Temperature
    var amount: Decimal
    static let tableName = "readings"
    static let columns = [
        Column("id", Int.self, primaryKey: true), Column("temperature", Temperature.self),
        Column("amount", Decimal.self),
    ]
    init(id: Int, temperature: Temperature, amount: Decimal) {
        (self.id, self.temperature, self.amount) = (id, temperature, amount)
    }
    init(row: borrowing Row) throws {
        (id, temperature, amount) = (try row[0], try row[1], try row[2])
    }
    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(temperature)
        try encoder.encode(amount)
    }
}

@Suite struct CustomTypeErrorLocationTests {
    @Test("a custom or Foundation type's bind error names the table, column and parameter, like Double's")
    func customTypeLocated() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Reading.self)
        let insert = try db.makeInsertStatement(for: Reading.self)
        let cold = try requireSQLiteError {
            try insert.insert(Reading(id: 1, temperature: .init(kelvin: -1), amount: 1))
        }
        #expect(cold.kind == .conversionFailed)
        #expect((cold.table, cold.column, cold.parameter) == ("readings", "temperature", "?2"))
        #expect(cold.sql?.hasPrefix("INSERT") == true)
        let nan = try requireSQLiteError {
            try insert.insert(Reading(id: 1, temperature: .init(kelvin: 1), amount: .nan))
        }
        #expect((nan.table, nan.column, nan.parameter) == ("readings", "amount", "?3"))
        // Bound as an argument, the error names the parameter and the SQL.
        let argument = try requireSQLiteError {
            try db.execute("INSERT INTO readings VALUES (2, :t, 0)", [":t": Temperature(kelvin: -5)])
        }
        #expect(argument.parameter == ":t")
        #expect(argument.sql == "INSERT INTO readings VALUES (2, :t, 0)")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM readings") == 0)
    }
}
