import Foundation
import SQLiteSwiftly
import Testing

/// The quick start's model, for the README's feature examples.
private struct Planet: TableModel, Equatable {
    var id: Int
    var name: String
    var au: Double
    var moons: Int?

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

    init(row: borrowing Row) throws {
        id = try row[0]
        name = try row[1]
        au = try row[2]
        moons = try row[3]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(name)
        try encoder.encode(au)
        try encoder.encode(moons)
    }
}

/// Runs each example of the README's "Beyond reading all rows" section, in order, on one database, and checks
/// what it did; then the README's examples of Codable models, custom value types and schema verification
/// ("Table models without boilerplate") and of SharedConnection and ConnectionPool ("Sharing a database across
/// threads and tasks"). The example lines, from each `// README: ...` marker to the next marker or to
/// `// Checks`, are copied verbatim (re-indented) into README.md: keep the two in sync.
@Suite struct FeatureExamplesTests {
    private func planets(_ directory: TemporaryDirectory) throws -> Connection {
        let db = try Connection(creating: directory.path("planets.sqlite"))
        try db.createTable(for: Planet.self)
        let insert = try db.makeInsertStatement(for: Planet.self)
        for (id, name, au, moons) in [(1, "Mercury", 0.387, 0), (2, "Venus", 0.723, 0), (3, "Earth", 1.0, 1)] {
            try insert.insert(Planet(id: id, name: name, au: au, moons: moons))
        }
        try insert.insert(Planet(id: 4, name: "Mars", au: 1.524, moons: nil))
        return db
    }

    @Test("the transaction and parameter examples run")
    func transactionsAndParameters() throws {
        let directory = try TemporaryDirectory()
        let db = try planets(directory)
        // README: transactions
        let insert = try db.makeInsertStatement(for: Planet.self)
        try db.transaction {  // BEGIN IMMEDIATE ... COMMIT; rolled back if the body throws
            try insert.insert(Planet(id: 5, name: "Jupiter", au: 5.2, moons: 95))
            try insert.insert(Planet(id: 6, name: "Saturn", au: 9.5, moons: 146))
        }
        try db.transaction(.deferred) {  // also .exclusive
            try db.transaction {  // nested: a savepoint, which can fail alone
                try db.execute("UPDATE planets SET moons = moons + 1 WHERE name = ?", ["Saturn"])
            }
        }
        // README: parameters
        try db.execute("UPDATE planets SET moons = ? WHERE name = ?", [2, "Mars"])  // positional
        try db.execute("UPDATE planets SET moons = ?2 WHERE name = ?1", ["Mars", 2])  // numbered
        try db.execute("UPDATE planets SET moons = :moons WHERE name = :name", ["moons": 2, "name": "Mars"])
        let ids = [1, 3, 5]
        let some = try db.fetchAll(Planet.self, "SELECT * FROM planets WHERE id IN (\(list: ids))")
        // Checks
        #expect(try db.fetchOne(Planet.self, where: "id = 6")?.moons == 147)
        #expect(try db.fetchOne(Planet.self, where: "id = 4")?.moons == 2)
        #expect(some.map(\.name) == ["Mercury", "Earth", "Jupiter"])
    }

    @Test("the reading, cursor and writing examples run")
    func readingAndWriting() throws {
        let directory = try TemporaryDirectory()
        let db = try planets(directory)
        // README: reading
        let far = try db.fetchAll(Planet.self, where: "au > ? ORDER BY au", [1.0])  // [Planet]
        let earth = try db.fetchOne(Planet.self, where: "name = ?", ["Earth"])  // Planet?
        let count = try db.fetchValue(Int.self, "SELECT COUNT(*) FROM planets")  // Int?
        let row = try db.fetchOne(UntypedRow.self, "SELECT name, au FROM planets WHERE id = ?", [3])
        // README: cursors
        let cursor = try db.fetchCursor(Planet.self, "SELECT * FROM planets ORDER BY au")
        while let planet = try cursor.next() {  // one row at a time, in constant memory
            if planet.au > 5 { break }  // stopping early is fine: the connection stays usable
        }
        // README: writing models
        let upsert = try db.makeInsertStatement(for: Planet.self, onConflict: .update)  // also .replace
        let found = try db.update(Planet(id: 4, name: "Mars", au: 1.524, moons: 2))  // false if no row has id 4
        try upsert.insert(Planet(id: 7, name: "Uranus", au: 19.2, moons: 28))  // inserts or updates
        let deleted = try db.delete(Planet(id: 7, name: "Uranus", au: 19.2, moons: 28))
        let changed = try db.execute("DELETE FROM planets WHERE moons IS NULL")  // changed row count
        // Checks
        #expect(far.map(\.name) == ["Mars"])
        #expect(earth?.id == 3)
        #expect(count == 4)
        #expect(row?["name"] == .text("Earth"))
        #expect(found)
        #expect(deleted)
        #expect(changed == 0)
        #expect(try db.fetchOne(Planet.self, where: "id = 4")?.moons == 2)
    }

    @Test("the script, cache, migration, backup and tracing examples run")
    func scriptsToTracing() throws {
        let directory = try TemporaryDirectory()
        let db = try planets(directory)
        let userPath = directory.path("user.sqlite")
        let templatePath = directory.path("planets.sqlite")
        let backupPath = directory.path("backup.sqlite")
        // README: scripts
        try db.executeScript(
            """
            CREATE TABLE moons (id INTEGER PRIMARY KEY, planet INTEGER REFERENCES planets (id), name TEXT);
            CREATE INDEX moons_planet ON moons (planet);
            """)
        // README: statement cache
        for id in 1...3 {
            _ = try db.fetchOne(Planet.self, "SELECT * FROM planets WHERE id = ?", [id])  // compiled once
        }
        print(db.cachedStatementCount)
        let cachedBeforeClear = db.cachedStatementCount
        db.clearStatementCache()
        // README: migrations
        var migrator = Migrator()
        migrator.add("v1: create rings") { db in
            try db.execute("CREATE TABLE rings (planet INTEGER NOT NULL, name TEXT NOT NULL)")
        }
        migrator.add("v2: index rings") { db in
            try db.execute("CREATE INDEX rings_planet ON rings (planet)")
        }
        try migrator.migrate(db)  // applies what is pending; a no-op the second time
        print(try migrator.appliedMigrations(in: db))  // ["v1: create rings", "v2: index rings"]
        // README: templates and backups
        let copy = try Connection(creating: userPath, fromTemplate: templatePath)  // userPath must not exist
        try db.backup(to: backupPath)  // backupPath must not exist
        // README: tracing
        db.trace { event in print("\(event.duration) \(event.sql)") }  // "1.2e-05 seconds SELECT ..."
        db.trace(expanded: true) { event in print(event.sql) }  // values written in: may be private data
        db.trace(nil)  // off (the default)
        // Checks
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = 'moons_planet'") == 1)
        #expect(cachedBeforeClear >= 1)
        #expect(try migrator.appliedMigrations(in: db) == ["v1: create rings", "v2: index rings"])
        #expect(try migrator.migrate(db).isEmpty)
        #expect(try copy.fetchAll(Planet.self).count == 4)
        #expect(try Connection(opening: backupPath).fetchValue(Int.self, "SELECT count(*) FROM rings") == 0)
    }

    @Test("the Codable model, custom value type and schema verification examples run")
    func modelsAndValues() throws {
        // README: codable models
        struct Moon: CodableTableModel {
            var id: Int64?  // nil: SQLite assigns it
            var name: String
            var discovered: Date?
            var tags: [String]  // not a column type: stored as JSON text

            static let tableName = "moons"
            static let columns = [
                Column("id", Int64?.self, primaryKey: true, autoIncrement: true),
                Column("name", String.self, unique: true),
                Column("discovered", Date?.self),
                Column("tags", .text),
            ]
        }
        let db = try Connection.inMemory()
        try db.createTable(for: Moon.self)
        let insert = try db.makeInsertStatement(for: Moon.self)
        try insert.insert(Moon(id: nil, name: "Phobos", discovered: nil, tags: ["inner", "irregular"]))
        let phobos = try db.fetchOne(Moon.self, where: "name = ?", ["Phobos"])  // Moon?
        // README: custom value types
        struct Celsius: SQLiteValueConvertible {
            var degrees: Double
            static let declaredType = DeclaredType.real  // the type that CREATE TABLE declares

            init(degrees: Double) {
                self.degrees = degrees
            }

            init(sqliteValue: SQLiteValue) throws(SQLiteError) {
                guard case .real(let value) = sqliteValue else { throw .conversion("expected REAL") }
                degrees = value
            }

            var sqliteValue: SQLiteValue { .real(degrees) }
        }
        enum Status: String, SQLiteValueConvertible {  // stored as its raw value: TEXT
            case active, archived
        }
        try db.execute("CREATE TABLE readings (temperature REAL NOT NULL, status TEXT NOT NULL)")
        try db.execute("INSERT INTO readings VALUES (?, ?)", [Celsius(degrees: 21.5), Status.active])
        let temperature = try db.fetchValue(Celsius.self, "SELECT temperature FROM readings")  // Celsius?
        let status = try db.fetchValue(Status.self, "SELECT status FROM readings")  // Status?
        // README: schema verification
        try db.execute("CREATE TABLE planets (id INTEGER PRIMARY KEY, name TEXT NOT NULL, au TEXT NOT NULL)")
        for difference in try db.schemaDifferences(for: Planet.self) {  // [] when the model matches
            print(difference)
        }
        // declared type at "planets"."au": expected REAL (REAL affinity), found TEXT (TEXT affinity)
        // missing column at "planets"."moons": expected INTEGER, found no column
        do {
            try db.verify(Planet.self)  // also run by readAll, makeInsertStatement, ... once per schema change
        } catch {
            print(error.kind, error.differences.count)  // schemaMismatch 2
        }
        // Checks
        #expect(phobos?.id == 1)
        #expect(phobos?.tags == ["inner", "irregular"])
        #expect(try db.fetchValue(String.self, "SELECT tags FROM moons") == #"["inner","irregular"]"#)
        #expect(temperature?.degrees == 21.5)
        #expect(status == .active)
        #expect(try db.fetchValue(String.self, "SELECT status FROM readings") == "active")
        let differences = try db.schemaDifferences(for: Planet.self)
        #expect(differences.map(\.kind) == [.declaredType, .missingColumn])
        #expect(
            differences.map(\.description) == [
                #"declared type at "planets"."au": expected REAL (REAL affinity), found TEXT (TEXT affinity)"#,
                #"missing column at "planets"."moons": expected INTEGER, found no column"#,
            ])
        #expect(throws: SQLiteError.self) { try db.verify(Planet.self) }
    }

    @Test("the SharedConnection and ConnectionPool examples run")
    func sharing() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.sqlite")
        let poolPath = directory.path("pool.sqlite")
        // README: shared connection
        let shared = try SharedConnection(.create(path: path))  // Sendable: hand it to any task
        try await shared.write { db in  // BEGIN IMMEDIATE ... COMMIT; rolled back if the body throws
            try db.execute("CREATE TABLE notes (text TEXT NOT NULL)")
            try db.transaction {  // nested in the write: a savepoint
                try db.execute("INSERT INTO notes VALUES (?)", ["hello"])
            }
        }
        let count = try await shared.read { db in  // one consistent snapshot; writes are refused
            try db.fetchValue(Int.self, "SELECT count(*) FROM notes")
        }
        // README: connection pool
        let pool = try ConnectionPool(.create(path: poolPath), readerCount: 4)  // WAL: one writer, four readers
        try await pool.write { db in
            try db.execute("CREATE TABLE notes (text TEXT NOT NULL)")
        }
        async let saved: Void = pool.write { db in  // writes run one at a time, on the writer
            try db.execute("INSERT INTO notes VALUES (?)", ["hello"])
        }
        let notes = try await pool.read { db in  // never waits for the writer: sees the last commit
            try db.fetchAll(UntypedRow.self, "SELECT text FROM notes")
        }
        try await saved
        // Checks
        #expect(count == 1)
        #expect(notes.count <= 1)
        let after = try await pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM notes") }
        #expect(after == 1)
        let mode = try await pool.read { db in try db.fetchValue(String.self, "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test("README.md contains every example of this file verbatim")
    func readmeMatches() throws {
        let text = try #require(readme)
        let blocks = try #require(Self.readmeBlocks)
        #expect(blocks.count == 15)
        for (name, block) in blocks {
            let found = text.contains(block)
            #expect(found, "README.md's \"\(name)\" example differs from FeatureExamplesTests.swift")
        }
    }

    /// Each `// README: name` block of this file (up to the next marker or `// Checks`), without its indentation.
    static var readmeBlocks: [(name: String, text: String)]? {
        guard let source = try? String(contentsOfFile: #filePath, encoding: .utf8) else { return nil }
        var blocks: [(name: String, text: String)] = []
        var current: (name: String, indent: Int, lines: [String])?
        func finish() {
            if let current { blocks.append((current.name, current.lines.joined(separator: "\n"))) }
            current = nil
        }
        for line in source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            if trimmed.hasPrefix("// README: ") {
                finish()
                current = (String(trimmed.dropFirst("// README: ".count)), indent, [])
            } else if trimmed.hasPrefix("// Checks") || (current != nil && indent < (current?.indent ?? 0)) {
                finish()
            } else if let indent = current?.indent {
                current?.lines.append(line.isEmpty ? "" : String(line.dropFirst(indent)))
            }
        }
        finish()
        return blocks
    }
}
