import Foundation
import SQLiteSwiftly
import Testing

/// The examples of the Queries and Transactions article, run on ``ArticleFixture``'s planets.
@Suite struct QueriesArticleTests {
    typealias Planet = ArticleFixture.Planet

    @Test("the verbs run SQL and decode models, values and untyped rows")
    func verbs() throws {
        let db = try ArticleFixture.database()
        // BEGIN QueriesAndTransactions: verbs
        try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        let changed = try db.execute("UPDATE planets SET moons = 2 WHERE name = 'Mars'")  // 1 row changed
        let inner = try db.fetchAll(Planet.self, "SELECT * FROM planets WHERE au < 2 ORDER BY au")  // [Planet]
        let farthest = try db.fetchOne(Planet.self, "SELECT * FROM planets ORDER BY au DESC")  // Planet?
        let count = try db.fetchValue(Int.self, "SELECT count(*) FROM planets")  // Int? (nil: no row)
        let rows = try db.fetchAll(UntypedRow.self, "SELECT name, moons FROM planets")  // [UntypedRow]
        // END QueriesAndTransactions: verbs
        #expect(changed == 1)
        #expect(inner.map(\.name) == ["Mercury", "Venus", "Earth", "Mars"])
        #expect(farthest?.name == "Saturn")
        #expect(count == 6)
        #expect(rows.first?["moons"] == .integer(0))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM notes") == 0)
    }

    @Test("an untyped row reads its values typed with as:, and names the column when one does not convert")
    func typedUntypedRows() throws {
        let db = try ArticleFixture.database()
        // BEGIN QueriesAndTransactions: typed untyped rows
        for row in try db.fetchAll(UntypedRow.self, "SELECT name, moons FROM planets ORDER BY id") {
            let name = try row["name", as: String.self]  // "Mercury", "Venus", ...
            let moons = try row[1, as: Int?.self]  // nil for Mars: NULL reads as nil only into an optional type
            print(name, moons.map(String.init) ?? "unknown")  // Mercury 0, ..., Mars unknown, ...
        }
        // END QueriesAndTransactions: typed untyped rows
        let rows = try db.fetchAll(UntypedRow.self, "SELECT name, moons FROM planets ORDER BY id")
        #expect(try rows.map { try $0["name", as: String.self] } == ArticleFixture.planets.map(\.name))
        #expect(try rows[3][1, as: Int?.self] == nil)
        let error = try requireSQLiteError { try rows[3]["moons", as: Int.self] }
        #expect(error.kind == .conversionFailed && error.column == "moons")
    }

    @Test("interpolated values are bound: a value, a list, an identifier")
    func interpolation() throws {
        let db = try ArticleFixture.database()
        // BEGIN QueriesAndTransactions: interpolation
        let name = "Mars"
        let mars = try db.fetchOne(Planet.self, "SELECT * FROM planets WHERE name = \(name)")
        // runs SELECT * FROM planets WHERE name = ?, with "Mars" bound to the parameter
        let ids = [1, 3, 4]
        let some = try db.fetchAll(Planet.self, "SELECT * FROM planets WHERE id IN (\(list: ids))")
        let table = "planets"
        let total = try db.fetchValue(Int.self, "SELECT count(*) FROM \(identifier: table)")  // "planets"
        // END QueriesAndTransactions: interpolation
        #expect(mars?.id == 4)
        #expect(some.map(\.name) == ["Mercury", "Earth", "Mars"])
        #expect(total == 6)
        let hostile = "x' OR '1'='1"
        #expect(try db.fetchOne(Planet.self, "SELECT * FROM planets WHERE name = \(hostile)") == nil)
        let sql: SQL = "SELECT * FROM planets WHERE id IN (\(list: ids))"
        #expect(sql.text == "SELECT * FROM planets WHERE id IN (?, ?, ?)")
    }

    @Test("fragments join with their values, and SQL(verbatim:) takes text that is already SQL")
    func fragments() throws {
        let db = try ArticleFixture.database()
        let withMoonsOnly = true
        // BEGIN QueriesAndTransactions: fragments
        var query: SQL = "SELECT * FROM planets WHERE au > \(1.0)"
        if withMoonsOnly { query = query + " AND moons > \(0)" }  // fragments keep their values
        let outer = try db.fetchAll(Planet.self, "\(query) ORDER BY au")  // a fragment in a fragment

        let schema = "CREATE TABLE log (at TEXT NOT NULL, message TEXT NOT NULL)"  // text from elsewhere
        try db.execute(SQL(verbatim: schema))
        // END QueriesAndTransactions: fragments
        #expect(outer.map(\.name) == ["Jupiter", "Saturn"])
        #expect(query.text == "SELECT * FROM planets WHERE au > ? AND moons > ?")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM log") == 0)
    }

    @Test("positional, numbered and named arguments bind the same values")
    func arguments() throws {
        let db = try ArticleFixture.database()
        // BEGIN QueriesAndTransactions: arguments
        try db.execute("UPDATE planets SET moons = ? WHERE name = ?", [2, "Mars"])  // positional
        try db.execute("UPDATE planets SET moons = ?2 WHERE name = ?1", ["Mars", 2])  // numbered
        try db.execute("UPDATE planets SET moons = :moons WHERE name = :name", ["moons": 2, "name": "Mars"])
        // END QueriesAndTransactions: arguments
        #expect(try db.fetchValue(Int.self, "SELECT moons FROM planets WHERE name = 'Mars'") == 2)
        let both = try #require(throws: SQLiteError.self) {
            try db.execute("UPDATE planets SET moons = \(3) WHERE name = ?", ["Mars"])
        }
        #expect(both.kind == .parameterMismatch)
        let missing = try #require(throws: SQLiteError.self) {
            try db.execute("UPDATE planets SET moons = :moons WHERE name = :name", ["moons": 2])
        }
        #expect(missing.kind == .parameterMismatch)
    }

    @Test("a prepared statement runs with typed values or an argument list")
    func preparedStatements() throws {
        let db = try ArticleFixture.database()
        // BEGIN QueriesAndTransactions: prepared statements
        let byID = try db.prepare("SELECT * FROM planets WHERE id = ?")
        let earth = try byID.fetchOne(Planet.self, binding: 3)  // typed values, bound in place
        let mars = try byID.fetchOne(Planet.self, [4])  // or an argument list
        let rename = try db.prepare("UPDATE planets SET name = ? WHERE id = ?")
        try rename.execute(binding: "Terra", 3)
        // END QueriesAndTransactions: prepared statements
        #expect(earth?.name == "Earth")
        #expect(mars?.name == "Mars")
        #expect(try byID.fetchOne(Planet.self, binding: 3)?.name == "Terra")
        let interpolated = try #require(throws: SQLiteError.self) {
            try db.prepare("SELECT * FROM planets WHERE id = \(3)")
        }
        #expect(interpolated.kind == .parameterMismatch)
    }

    @Test("a cursor reads one row at a time and can stop early")
    func cursor() throws {
        let db = try ArticleFixture.database()
        // BEGIN QueriesAndTransactions: cursor
        let cursor = try db.fetchCursor(Planet.self, "SELECT * FROM planets ORDER BY au")
        var inner: [String] = []
        while let planet = try cursor.next() {  // one row at a time, in constant memory
            if planet.au > 2 { break }  // stopping early is fine: the connection stays usable
            inner.append(planet.name)
        }
        // END QueriesAndTransactions: cursor
        #expect(inner == ["Mercury", "Venus", "Earth", "Mars"])
        cursor.close()
        #expect(try db.execute("DELETE FROM planets WHERE id = 6") == 1)
    }

    @Test("insert, insertIfNew, upsert, update and delete write models")
    func writingModels() throws {
        let db = try ArticleFixture.database()
        // BEGIN QueriesAndTransactions: writing models
        let insert = try db.makeInsertStatement(for: Planet.self)
        let uranus = Planet(id: 7, name: "Uranus", au: 19.19, moons: 28)
        let id = try insert.insert(uranus)  // the new row id: 7
        let again = try insert.insertIfNew(uranus)  // nil: a row with id 7 exists, nothing is written

        let upsert = try db.makeInsertStatement(for: Planet.self, onConflict: .update)
        try upsert.insert(Planet(id: 7, name: "Uranus", au: 19.19, moons: 27))  // updates row 7

        let found = try db.update(Planet(id: 4, name: "Mars", au: 1.524, moons: 2))  // false if no row has id 4
        let deleted = try db.delete(uranus)  // by primary key
        // END QueriesAndTransactions: writing models
        #expect(id == 7)
        #expect(again == nil)
        #expect(found)
        #expect(deleted)
        #expect(try db.fetchOne(Planet.self, where: "id = 4")?.moons == 2)
        #expect(try db.fetchOne(Planet.self, where: "id = 7") == nil)
        let duplicate = try #require(throws: SQLiteError.self) { try insert.insert(ArticleFixture.planets[0]) }
        #expect(duplicate.code == .constraintPrimaryKey)
    }

    @Test("a failed savepoint rolls back alone; a deferred transaction reads")
    func transactions() throws {
        let db = try ArticleFixture.database()
        let insert = try db.makeInsertStatement(for: Planet.self)
        let neptune = Planet(id: 8, name: "Neptune", au: 30.07, moons: 16)
        let duplicate = Planet(id: 9, name: "Earth", au: 1.0, moons: 1)
        // BEGIN QueriesAndTransactions: transactions
        try db.transaction {  // BEGIN IMMEDIATE ... COMMIT; rolled back if the body throws
            try insert.insert(neptune)
            do {
                try db.transaction {  // nested: a savepoint, which can fail alone
                    try insert.insert(duplicate)
                }
            } catch {
                // only the savepoint was rolled back: neptune stays inserted
            }
        }
        let total = try db.transaction(.deferred) {  // for reads: no lock until the first read
            try db.fetchValue(Double.self, "SELECT sum(au) FROM planets")
        }
        // END QueriesAndTransactions: transactions
        #expect(try db.fetchOne(Planet.self, where: "id = 8")?.name == "Neptune")
        #expect(try db.fetchOne(Planet.self, where: "id = 9") == nil)
        #expect(total ?? 0 > 48)
        #expect(!db.isInTransaction)
    }

    @Test("the migrator applies each migration once, and rebuilds a referenced table with deferred checks")
    func migrations() throws {
        let db = try Connection.inMemory()
        // BEGIN QueriesAndTransactions: migrations
        var migrator = Migrator()
        migrator.add("v1: create planets") { db in
            try db.createTable(for: Planet.self)
        }
        migrator.add("v2: create moons") { db in
            try db.execute("CREATE TABLE moons (name TEXT NOT NULL, planet INTEGER NOT NULL REFERENCES planets (id))")
        }
        try migrator.migrate(db)  // applies what is pending; a no-op the next time
        // END QueriesAndTransactions: migrations
        let insert = try db.makeInsertStatement(for: Planet.self)
        for planet in ArticleFixture.planets { try insert.insert(planet) }
        try db.execute("INSERT INTO moons VALUES ('Phobos', 4), ('Deimos', 4), ('Moon', 3)")
        #expect(try migrator.migrate(db).isEmpty)

        // BEGIN QueriesAndTransactions: table rebuild
        migrator.add("v3: planets have a positive distance", deferringForeignKeyChecks: true) { db in
            try db.executeScript(
                """
                CREATE TABLE new_planets (
                    id INTEGER PRIMARY KEY NOT NULL, name TEXT NOT NULL UNIQUE,
                    au REAL NOT NULL CHECK (au > 0), moons INTEGER);
                INSERT INTO new_planets SELECT id, name, au, moons FROM planets;
                DROP TABLE planets;
                ALTER TABLE new_planets RENAME TO planets;
                """)
        }
        try migrator.migrate(db)  // the moons still reference their planets
        // END QueriesAndTransactions: table rebuild
        #expect(try migrator.appliedMigrations(in: db).count == 3)
        #expect(db.enforcesForeignKeys)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM moons") == 3)
        try db.verify(Planet.self)
        #expect(throws: SQLiteError.self) { try insert.insert(Planet(id: 9, name: "Vulcan", au: 0, moons: nil)) }
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO moons VALUES ('Orphan', 99)") }
    }

    @Test("scripts, copies and tracing")
    func scriptsCopiesTracing() throws {
        let directory = try TemporaryDirectory()
        let db = try ArticleFixture.database(at: directory.path("planets.sqlite"))
        let templatePath = directory.path("planets.sqlite")
        let userPath = directory.path("user.sqlite")
        let backupPath = directory.path("backup.sqlite")
        // BEGIN QueriesAndTransactions: scripts copies tracing
        try db.executeScript(
            """
            CREATE TABLE rings (planet INTEGER NOT NULL REFERENCES planets (id), name TEXT NOT NULL);
            CREATE INDEX rings_by_planet ON rings (planet);
            """)
        let copy = try Connection(creating: userPath, fromTemplate: templatePath)  // userPath must not exist
        try db.backup(to: backupPath)  // backupPath must not exist

        var log: [String] = []
        db.trace { event in log.append(event.sql) }  // each statement run, with event.duration
        _ = try db.fetchValue(Int.self, "SELECT count(*) FROM rings")
        db.trace(nil)  // off (the default)
        // END QueriesAndTransactions: scripts copies tracing
        #expect(try copy.fetchValue(Int.self, "SELECT count(*) FROM planets") == 6)
        #expect(try Connection(opening: backupPath).fetchValue(Int.self, "SELECT count(*) FROM rings") == 0)
        #expect(log == ["SELECT count(*) FROM rings"])
    }
}
