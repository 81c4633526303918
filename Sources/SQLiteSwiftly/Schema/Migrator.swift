/// An ordered list of named schema migrations, each applied once, each in its own transaction.
///
/// Register migrations in the order they must run, then call ``migrate(_:)`` every time the app opens its
/// database. Migrations already applied are skipped, so re-running is a no-op; a new app version appends new
/// migrations at the end of the list and never edits or reorders applied ones.
///
/// ```swift
/// var migrator = Migrator()
/// migrator.add("v1: create planets") { db in
///     try db.createTable(for: Planet.self)
/// }
/// migrator.add("v2: index planets by distance") { db in
///     try db.execute("CREATE INDEX planets_au ON planets (au)")
/// }
/// try migrator.migrate(db)
/// ```
///
/// Each migration runs in its own `BEGIN IMMEDIATE` transaction, together with the row that records it in the
/// `sqliteswiftly_migrations` table (created by the first migration's transaction). A migration that throws
/// is rolled back alone: the database is exactly as it was before that migration, and the migrations before
/// it stay applied.
///
/// A migrator is not `Sendable`: its migrations are closures that take a ``Connection``.
public struct Migrator {
    /// The table that records applied migrations: one row per migration, with its name and position.
    public static let tableName = "sqliteswiftly_migrations"

    private var migrations: [Migration] = []

    private struct Migration {
        var name: String
        var defersForeignKeyChecks: Bool
        var body: (Connection) throws -> Void
    }

    /// Creates an empty migrator.
    public init() {}

    /// The names of the registered migrations, in the order they run.
    public var migrationNames: [String] {
        migrations.map(\.name)
    }

    /// Appends a migration to the list.
    ///
    /// A name identifies the migration in the database forever: never rename or remove a migration that has
    /// shipped. Duplicate or empty names are reported by ``migrate(_:)``, before anything runs.
    ///
    /// - Parameters:
    ///   - name: A unique, non-empty name, such as `"v2: add moons"`.
    ///   - deferringForeignKeyChecks: Whether foreign keys go unenforced while the migration runs and are checked
    ///     once before it commits: for a migration that rebuilds a table (SQLite's 12-step procedure, see
    ///     <https://www.sqlite.org/lang_altertable.html#otheralter>). Enforcement cannot change inside a
    ///     transaction, so it is turned off before `BEGIN` and back on after the commit or rollback.
    ///     `PRAGMA foreign_key_check` runs before the commit: any violation fails the migration, which is then
    ///     rolled back, with an error naming the first violating table and row.
    ///   - body: The schema change. It runs inside the migration's transaction; throwing rolls it back.
    public mutating func add(
        _ name: String, deferringForeignKeyChecks: Bool = false, _ body: @escaping (Connection) throws -> Void
    ) {
        migrations.append(Migration(name: name, defersForeignKeyChecks: deferringForeignKeyChecks, body: body))
    }

    /// Applies, in order, every migration the database has not applied yet.
    ///
    /// Each pending migration runs in its own IMMEDIATE transaction that also records it, so a crash or an
    /// error never leaves a migration half applied. The applied list is re-read inside each transaction, so
    /// two processes migrating the same file at once do not apply a migration twice.
    ///
    /// - Parameter db: The connection to migrate. It must not be inside a transaction.
    /// - Returns: The names of the migrations applied by this call, empty when the database was up to date.
    /// - Throws: ``SQLiteError`` of kind ``SQLiteError/Kind/misuse`` for duplicate or empty names or when `db`
    ///   is inside a transaction; ``SQLiteError/Kind/migrationMismatch`` when the database has applied a
    ///   migration this migrator does not know, or applied them in another order; for a failed migration,
    ///   the migration's error after rolling it back: an ``SQLiteError`` gets the migration's name prefixed to
    ///   its message, any other error is rethrown unchanged.
    @discardableResult
    public func migrate(_ db: Connection) throws -> [String] {
        try validateNames()
        guard !db.isInTransaction else {
            throw SQLiteError(.misuse, message: "migrate(_:) cannot run inside a transaction")
        }
        // Fails early, before any transaction, when the database is newer than the app; applied migrations
        // are skipped without taking a write lock.
        let alreadyApplied = try checkedAppliedNames(in: db).count
        var applied: [String] = []
        for (position, migration) in migrations.enumerated() where position >= alreadyApplied {
            do {
                if try apply(migration, at: position, in: db) { applied.append(migration.name) }
            } catch var error as SQLiteError {
                if error.kind != .migrationMismatch {
                    error.message = "migration \"\(migration.name)\" failed: " + error.message
                }
                throw error
            }
        }
        return applied
    }

    /// Runs one migration in its own transaction with the row that records it; `false` when another process
    /// applied it meanwhile.
    private func apply(_ migration: Migration, at position: Int, in db: Connection) throws -> Bool {
        let enforced = db.enforcesForeignKeys
        if migration.defersForeignKeyChecks && enforced { try db.setForeignKeyEnforcement(false) }
        defer { if migration.defersForeignKeyChecks && enforced { try? db.setForeignKeyEnforcement(true) } }
        return try db.transaction(.immediate) { () throws -> Bool in
            let done = try checkedAppliedNames(in: db)
            guard done.count <= position else { return false }
            // The record first: a body that ends the transaction (a ROLLBACK, an INSERT OR ROLLBACK) undoes it
            // with the rest, where a record written after the body would commit on its own in autocommit mode and
            // mark a migration applied whose changes were rolled back.
            let table = Self.tableName.quotedSQLIdentifier
            try db.execute(
                SQL(verbatim: "CREATE TABLE IF NOT EXISTS \(table) ")
                    + "(\"position\" INTEGER PRIMARY KEY NOT NULL, \"name\" TEXT NOT NULL UNIQUE)")
            try db.execute(
                SQL(verbatim: "INSERT INTO \(table) ")
                    + "(\"position\", \"name\") VALUES (\(position + 1), \(migration.name))")
            try migration.body(db)
            // Ended by the body: the transaction reports it on return; nothing more is written outside it.
            guard db.isInTransaction else { return true }
            if migration.defersForeignKeyChecks { try Self.checkForeignKeys(db) }
            return true
        }
    }

    /// Fails with the first row `PRAGMA foreign_key_check` reports, if any.
    private static func checkForeignKeys(_ db: Connection) throws(SQLiteError) {
        let statement = try db.prepare(
            "SELECT \"table\", rowid, parent, count(*) OVER () FROM pragma_foreign_key_check")
        var first: (table: String, rowid: Int64?, parent: String, count: Int)?
        try db.forEachRow(
            statement.raw, as: UntypedRow.self, limit: 1, binding: { _ throws(SQLiteError) in }, lift: { $0 }
        ) {
            (row: borrowing Row) throws(SQLiteError) in
            first = (try row[0], try row[1], try row[2], try row[3])
        }
        guard let first else { return }
        var error = SQLiteError(
            .sqlite, code: .constraintForeignKey,
            message: "the migration leaves \(first.count) row(s) that break a foreign key; the first is row "
                + "\(first.rowid.map(String.init) ?? "?") of \"\(first.table)\", whose parent in \"\(first.parent)\" is missing"
        )
        error.table = first.table
        throw error
    }

    /// The names of the migrations the database has applied, in the order they were applied.
    ///
    /// - Parameter db: The connection to look at.
    /// - Returns: The applied names; empty for a database no migrator has touched.
    /// - Throws: ``SQLiteError`` if the migrations table cannot be read.
    public func appliedMigrations(in db: Connection) throws(SQLiteError) -> [String] {
        let exists = try db.fetchValue(
            Int.self, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = \(Self.tableName)")
        guard exists == 1 else { return [] }
        let statement = try db.prepare(
            SQL(verbatim: "SELECT \"name\" FROM \(Self.tableName.quotedSQLIdentifier) ORDER BY \"position\""))
        var names: [String] = []
        try db.forEachRow(statement.raw, as: UntypedRow.self, binding: { _ throws(SQLiteError) in }, lift: { $0 }) {
            (row: borrowing Row) throws(SQLiteError) in names.append(try row[0])
        }
        return names
    }

    /// The names of the registered migrations the database has not applied yet, in the order they will run.
    ///
    /// - Parameter db: The connection to look at.
    /// - Returns: The pending names; empty when the database is up to date.
    /// - Throws: ``SQLiteError`` of kind ``SQLiteError/Kind/migrationMismatch`` when the database has applied a
    ///   migration this migrator does not know, or applied them in another order; ``SQLiteError/Kind/misuse``
    ///   for duplicate or empty names.
    public func pendingMigrations(in db: Connection) throws(SQLiteError) -> [String] {
        try validateNames()
        let done = try checkedAppliedNames(in: db)
        return Array(migrationNames.dropFirst(done.count))
    }

    /// The applied names, checked to be a prefix of this migrator's list.
    private func checkedAppliedNames(in db: Connection) throws(SQLiteError) -> [String] {
        let done = try appliedMigrations(in: db)
        let known = migrationNames
        for (index, name) in done.enumerated() where index >= known.count || known[index] != name {
            let message: String
            if known.contains(name) {
                message =
                    "the database applied migration \"\(name)\" at position \(index + 1), but this migrator "
                    + "has it elsewhere in its list"
            } else {
                message =
                    "the database applied migration \"\(name)\", which this migrator does not know: the database "
                    + "is newer than the app"
            }
            var error = SQLiteError(.migrationMismatch, message: message)
            error.path = db.path
            error.table = Self.tableName
            throw error
        }
        return done
    }

    private func validateNames() throws(SQLiteError) {
        var seen = Set<String>()
        for name in migrationNames {
            guard !name.isEmpty else {
                throw SQLiteError(.misuse, message: "a migration has an empty name")
            }
            guard seen.insert(name).inserted else {
                throw SQLiteError(.misuse, message: "the migration name \"\(name)\" is registered twice")
            }
        }
    }
}

@available(*, unavailable, message: "A Migrator holds closures that take a non-Sendable Connection")
extension Migrator: Sendable {}
