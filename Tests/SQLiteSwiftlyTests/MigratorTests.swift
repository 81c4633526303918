import SQLiteSwiftly
import Testing

/// An error thrown by migrations in these tests.
private struct MigrationFailure: Error, Equatable {}

@Suite struct MigratorTests {
    /// Three migrations: create `planets`, add a column, add an index.
    private func standardMigrator() -> Migrator {
        var migrator = Migrator()
        migrator.add("v1: create planets") { db in
            try db.execute("CREATE TABLE planets (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try db.execute("INSERT INTO planets (name) VALUES ('Mercury')")
        }
        migrator.add("v2: add moons") { db in
            try db.execute("ALTER TABLE planets ADD COLUMN moons INTEGER")
        }
        migrator.add("v3: index names") { db in
            try db.execute("CREATE UNIQUE INDEX planets_name ON planets (name)")
        }
        return migrator
    }

    private func schema(_ db: Connection) throws -> [String] {
        try db.fetchAll(
            UntypedRow.self, "SELECT name FROM sqlite_master WHERE name NOT GLOB 'sqlite_*' ORDER BY name"
        ).compactMap { row in
            if case .text(let name) = row.values[0] { return name }
            return nil
        }
    }

    @Test("migrate applies every migration once, in order, and records them")
    func appliesAll() throws {
        let db = try Connection.inMemory()
        let migrator = standardMigrator()
        #expect(try migrator.appliedMigrations(in: db).isEmpty)
        #expect(try migrator.pendingMigrations(in: db) == migrator.migrationNames)
        let applied = try migrator.migrate(db)
        #expect(applied == ["v1: create planets", "v2: add moons", "v3: index names"])
        #expect(try migrator.appliedMigrations(in: db) == applied)
        #expect(try migrator.pendingMigrations(in: db).isEmpty)
        #expect(try schema(db) == ["planets", "planets_name", Migrator.tableName])
        try db.execute("INSERT INTO planets (name, moons) VALUES ('Earth', 1)")
    }

    @Test("re-running is a no-op: no migration body runs again")
    func rerunIsNoOp() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        var runs = 0
        var migrator = standardMigrator()
        migrator.add("v4: count runs") { _ in runs += 1 }
        do {
            let db = try Connection(creating: path)
            #expect(try migrator.migrate(db).count == 4)
        }
        let db = try Connection(opening: path)
        #expect(try migrator.migrate(db).isEmpty)
        #expect(try migrator.migrate(db).isEmpty)
        #expect(runs == 1)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM planets") == 1)
    }

    @Test("a new app version applies only its new migrations")
    func appliesOnlyNew() throws {
        let db = try Connection.inMemory()
        var old = Migrator()
        old.add("v1: create planets") { db in try db.execute("CREATE TABLE planets (id INTEGER PRIMARY KEY)") }
        try old.migrate(db)
        var new = old
        new.add("v2: add name") { db in try db.execute("ALTER TABLE planets ADD COLUMN name TEXT") }
        #expect(try new.pendingMigrations(in: db) == ["v2: add name"])
        #expect(try new.migrate(db) == ["v2: add name"])
        #expect(try new.appliedMigrations(in: db) == ["v1: create planets", "v2: add name"])
    }

    @Test("a failed migration leaves the database as before it, earlier ones applied, and names it")
    func failedMigrationRollsBack() throws {
        let db = try Connection.inMemory()
        var migrator = Migrator()
        migrator.add("v1: create planets") { db in
            try db.execute("CREATE TABLE planets (id INTEGER PRIMARY KEY, name TEXT)")
        }
        migrator.add("v2: broken") { db in
            try db.execute("CREATE TABLE moons (id INTEGER PRIMARY KEY)")
            try db.execute("INSERT INTO planets (name) VALUES ('Venus')")
            try db.execute("ALTER TABLE planets ADD COLUMN name TEXT")  // duplicate column: fails
        }
        migrator.add("v3: never reached") { db in try db.execute("CREATE TABLE rings (id)") }
        let error = try #require(throws: SQLiteError.self) { try migrator.migrate(db) }
        #expect(error.kind == .sqlite)
        #expect(error.message.contains("migration \"v2: broken\" failed"))
        #expect(try migrator.appliedMigrations(in: db) == ["v1: create planets"])
        #expect(try schema(db) == ["planets", Migrator.tableName])
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM planets") == 0)
        #expect(!db.isInTransaction)
    }

    @Test("a migration that throws its own error is rolled back and the error is rethrown unchanged")
    func failedWithOwnError() throws {
        let db = try Connection.inMemory()
        var migrator = Migrator()
        migrator.add("v1") { db in
            try db.execute("CREATE TABLE planets (id)")
            throw MigrationFailure()
        }
        #expect(throws: MigrationFailure()) { try migrator.migrate(db) }
        #expect(try schema(db).isEmpty)  // not even the migrations table
        #expect(try migrator.appliedMigrations(in: db).isEmpty)
        // Once fixed, it applies.
        var fixed = Migrator()
        fixed.add("v1") { db in try db.execute("CREATE TABLE planets (id)") }
        #expect(try fixed.migrate(db) == ["v1"])
    }

    @Test("a migration whose body ends its transaction (ROLLBACK, INSERT OR ROLLBACK) is not recorded as applied")
    func bodyRollsBack() throws {
        for ending in ["ROLLBACK", "INSERT OR ROLLBACK INTO u VALUES (1)"] {
            let db = try Connection.inMemory()
            try db.execute("CREATE TABLE u (x UNIQUE)")
            try db.execute("INSERT INTO u VALUES (1)")
            var migrator = Migrator()
            migrator.add("v1: add notes") { db in
                try db.execute("CREATE TABLE notes (text TEXT)")
                _ = try? db.execute(SQL(verbatim: ending))
            }
            let error = try requireSQLiteError { try migrator.migrate(db) }
            #expect(error.kind == .transactionRolledBack, "\(ending)")
            #expect(try migrator.appliedMigrations(in: db).isEmpty)
            #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_schema WHERE name = 'notes'") == 0)
            // Fixed, it applies on the next run.
            var fixed = Migrator()
            fixed.add("v1: add notes") { db in try db.execute("CREATE TABLE notes (text TEXT)") }
            #expect(try fixed.migrate(db) == ["v1: add notes"])
        }
    }

    @Test("a migration whose body runs COMMIT is refused before the commit: neither recorded nor half applied")
    func bodyCommits() throws {
        let db = try Connection.inMemory()
        var migrator = Migrator()
        migrator.add("v1: add notes and tags") { db in
            try db.execute("CREATE TABLE notes (text TEXT)")
            try db.execute("COMMIT")
            try db.execute("CREATE TABLE tags (name TEXT)")
        }
        let error = try requireSQLiteError { try migrator.migrate(db) }
        #expect(error.kind == .misuse && error.message.contains("COMMIT inside a transaction body"))
        #expect(error.message.contains("v1: add notes and tags"))
        #expect(try migrator.appliedMigrations(in: db).isEmpty)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_schema WHERE name IN ('notes', 'tags')") == 0)
        #expect(!db.isInTransaction)
    }

    @Test("duplicate and empty names are refused before anything runs")
    func invalidNames() throws {
        let db = try Connection.inMemory()
        var ran = false
        var duplicate = Migrator()
        duplicate.add("v1") { _ in ran = true }
        duplicate.add("v1") { _ in ran = true }
        let error = try #require(throws: SQLiteError.self) { try duplicate.migrate(db) }
        #expect(error.kind == .misuse)
        #expect(error.message.contains("\"v1\""))
        var empty = Migrator()
        empty.add("") { _ in ran = true }
        #expect(throws: SQLiteError.self) { try empty.migrate(db) }
        #expect(!ran)
        #expect(try schema(db).isEmpty)
    }

    @Test("a database that applied a migration the migrator does not know is refused")
    func databaseNewerThanApp() throws {
        let db = try Connection.inMemory()
        try standardMigrator().migrate(db)
        var older = Migrator()
        var ran = false
        older.add("v1: create planets") { _ in ran = true }
        older.add("v2: add moons") { _ in ran = true }
        let error = try #require(throws: SQLiteError.self) { try older.migrate(db) }
        #expect(error.kind == .migrationMismatch)
        #expect(error.message.contains("v3: index names"))
        #expect(throws: SQLiteError.self) { try older.pendingMigrations(in: db) }
        #expect(!ran)
    }

    @Test("a migration added before already applied ones is refused, not run out of order")
    func insertedInTheMiddle() throws {
        let db = try Connection.inMemory()
        var first = Migrator()
        first.add("a") { db in try db.execute("CREATE TABLE a (x)") }
        first.add("c") { db in try db.execute("CREATE TABLE c (x)") }
        try first.migrate(db)
        var reordered = Migrator()
        var ran = false
        reordered.add("a") { _ in }
        reordered.add("b") { _ in ran = true }
        reordered.add("c") { _ in }
        let error = try #require(throws: SQLiteError.self) { try reordered.migrate(db) }
        #expect(error.kind == .migrationMismatch)
        #expect(!ran)
    }

    @Test("migrate refuses to run inside a transaction")
    func insideTransaction() throws {
        let db = try Connection.inMemory()
        let migrator = standardMigrator()
        try db.execute("BEGIN")
        let error = try #require(throws: SQLiteError.self) { try migrator.migrate(db) }
        #expect(error.kind == .misuse)
        try db.execute("ROLLBACK")
        #expect(try migrator.migrate(db).count == 3)
    }

    @Test("each migration runs in its own IMMEDIATE transaction")
    func ownTransaction() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let db = try Connection(creating: path)
        var migrator = Migrator()
        var observed: [Bool] = []
        migrator.add("v1") { db in observed.append(db.isInTransaction) }
        migrator.add("v2") { db in observed.append(db.isInTransaction) }
        try migrator.migrate(db)
        #expect(observed == [true, true])
        // A busy database fails at BEGIN IMMEDIATE, before the migration body runs.
        let holder = try Connection(opening: path)
        try holder.execute("BEGIN IMMEDIATE")
        let busy = try Connection(opening: path, options: .init(busyTimeout: .milliseconds(50)))
        var ran = false
        migrator.add("v3") { _ in ran = true }
        let error = try #require(throws: SQLiteError.self) { try migrator.migrate(busy) }
        #expect(error.isBusy)
        #expect(error.message.contains("v3"))
        #expect(!ran)
        try holder.execute("ROLLBACK")
        #expect(try migrator.migrate(busy) == ["v3"])
    }
}
