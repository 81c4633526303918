import Foundation
import SQLiteSwiftly
import Testing

/// An author: the parent table.
private struct Writer: TableModel, Equatable {
    var id: Int64
    var name: String

    static let tableName = "writers"
    static let columns = [Column("id", Int64.self, primaryKey: true), Column("name", String.self)]

    init(id: Int64, name: String) {
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

/// A book: the child table, deleted with its writer.
private struct Novel: TableModel, Equatable {
    var id: Int64
    var title: String
    var writer: Int64

    static let tableName = "novels"
    static let columns = [
        Column("id", Int64.self, primaryKey: true),
        Column("title", String.self),
        Column("writer", Int64.self, references: ForeignKey("writers", "id", onDelete: .cascade)),
    ]

    init(id: Int64, title: String, writer: Int64) {
        self.id = id
        self.title = title
        self.writer = writer
    }

    init(row: borrowing Row) throws {
        id = try row[0]
        title = try row[1]
        writer = try row[2]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(title)
        try encoder.encode(writer)
    }
}

/// Creates both tables, one writer and one of their novels.
private func library(_ db: Connection) throws {
    try db.createTable(for: Writer.self)
    try db.createTable(for: Novel.self)
    try db.makeInsertStatement(for: Writer.self).insert(Writer(id: 1, name: "Le Guin"))
    try db.makeInsertStatement(for: Novel.self).insert(Novel(id: 1, title: "The Dispossessed", writer: 1))
}

@Suite struct ForeignKeyTests {
    @Test("foreign keys are enforced by default: an orphan insert fails naming the table, nothing is written")
    func enforcedByDefault() throws {
        let db = try Connection.inMemory()
        #expect(db.enforcesForeignKeys)
        #expect(try db.fetchValue(Int.self, "PRAGMA foreign_keys") == 1)
        try library(db)
        let insert = try db.makeInsertStatement(for: Novel.self)
        let error = try #require(throws: SQLiteError.self) {
            try insert.insert(Novel(id: 2, title: "Orphan", writer: 99))
        }
        #expect(error.code == .constraintForeignKey)
        #expect(error.table == "novels")
        #expect(error.description.contains("table \"novels\""))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM novels") == 1)
    }

    @Test("ON DELETE CASCADE declared on a model deletes the children")
    func cascade() throws {
        let db = try Connection.inMemory()
        try library(db)
        #expect(try db.delete(Writer(id: 1, name: "Le Guin")))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM novels") == 0)
    }

    @Test("through a pool's writer: orphans are refused and cascades delete, on every connection of the pool")
    func pool() async throws {
        let directory = try TemporaryDirectory()
        let pool = try ConnectionPool(.create(path: directory.path("pool.sqlite")), readerCount: 2)
        try await pool.write { db in try library(db) }
        await #expect(throws: SQLiteError.self) {
            try await pool.write { db in
                _ = try db.makeInsertStatement(for: Novel.self).insert(Novel(id: 2, title: "Orphan", writer: 99))
            }
        }
        try await pool.write { db in _ = try db.delete(Writer(id: 1, name: "Le Guin")) }
        let left = try await pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM novels") }
        #expect(left == 0)
        let enforced = try await pool.read { db in db.enforcesForeignKeys }
        #expect(enforced)
    }

    @Test("the opt-out at open time turns enforcement off, for a connection and a pool")
    func optOut() async throws {
        let options = ConnectionOptions(enforcesForeignKeys: false)
        let db = try Connection.inMemory(options: options)
        #expect(!db.enforcesForeignKeys)
        try library(db)
        try db.makeInsertStatement(for: Novel.self).insert(Novel(id: 2, title: "Orphan", writer: 99))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM novels") == 2)

        let directory = try TemporaryDirectory()
        let pool = try ConnectionPool(.create(path: directory.path("loose.sqlite")), options: options)
        let written = try await pool.write { db in
            try library(db)
            return try db.makeInsertStatement(for: Novel.self).insert(Novel(id: 2, title: "Orphan", writer: 99))
        }
        #expect(written == 2)
    }

    @Test("enforcement cannot change inside a transaction: refused, where SQLite would ignore it")
    func switchInsideTransaction() throws {
        let db = try Connection.inMemory()
        try db.setForeignKeyEnforcement(false)
        #expect(!db.enforcesForeignKeys)
        try db.setForeignKeyEnforcement(true)
        try db.transaction {
            let error = try #require(throws: SQLiteError.self) { try db.setForeignKeyEnforcement(false) }
            #expect(error.kind == .misuse)
        }
        #expect(db.enforcesForeignKeys)
    }

    @Test("a table rebuild runs as a migration with deferred foreign-key checks, SQLite's 12-step procedure")
    func rebuildMigration() throws {
        let db = try Connection.inMemory()
        try library(db)
        var migrator = Migrator()
        // Make "title" UNIQUE: a table rebuild. With enforcement on, dropping "writers"-referencing tables or
        // renaming would fail or cascade; the migration turns enforcement off around its transaction.
        migrator.add("v1: unique titles", deferringForeignKeyChecks: true) { db in
            try db.executeScript(
                """
                CREATE TABLE new_novels (
                    id INTEGER PRIMARY KEY NOT NULL, title TEXT NOT NULL UNIQUE,
                    writer INTEGER NOT NULL REFERENCES writers (id) ON DELETE CASCADE);
                INSERT INTO new_novels SELECT id, title, writer FROM novels;
                DROP TABLE novels;
                ALTER TABLE new_novels RENAME TO novels;
                """)
        }
        #expect(try migrator.migrate(db) == ["v1: unique titles"])
        #expect(db.enforcesForeignKeys)  // back on after the migration
        #expect(try db.fetchAll(Novel.self) == [Novel(id: 1, title: "The Dispossessed", writer: 1)])
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM pragma_foreign_key_check") == 0)
    }

    @Test("a rebuild that leaves an orphan fails foreign_key_check before commit: rolled back, enforcement back on")
    func rebuildMigrationViolation() throws {
        let db = try Connection.inMemory()
        try library(db)
        var migrator = Migrator()
        migrator.add("v1: lose the writers", deferringForeignKeyChecks: true) { db in
            try db.execute("DELETE FROM writers")  // no cascade while enforcement is off: the novel is orphaned
        }
        let error = try #require(throws: SQLiteError.self) { try migrator.migrate(db) }
        #expect(error.code == .constraintForeignKey)
        #expect(error.table == "novels")
        #expect(error.message.contains("v1: lose the writers"))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM writers") == 1)  // rolled back
        #expect(try migrator.appliedMigrations(in: db).isEmpty)
        #expect(db.enforcesForeignKeys)
    }
}
