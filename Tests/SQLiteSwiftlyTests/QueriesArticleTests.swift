import Foundation
import SQLiteSwiftly
import Testing

/// The examples of the Queries and Transactions article, in its order, continuing (as it says) from Getting
/// Started's planets at `path`.
@Suite struct QueriesArticleTests {
    typealias Planet = ArticleFixture.Planet

    @Test("the article's examples run in order on Getting Started's planets, with the results they show")
    func walkthrough() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("planets.sqlite")
        let db = try ArticleFixture.database(at: path)
        let userPath = directory.path("user.sqlite")  // the article: "paths where no file exists yet"
        let backupPath = directory.path("backup.sqlite")
        var printed: [String] = []
        func print(_ items: String...) { printed.append(items.joined(separator: " ")) }  // what the article prints
        // BEGIN QueriesAndTransactions: verbs
        try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        let changed = try db.execute("UPDATE planets SET au = 5.2 WHERE name = 'Jupiter'")  // 1 row changed
        let inner = try db.fetchAll(Planet.self, "SELECT * FROM planets WHERE au < 2 ORDER BY au")  // [Planet]
        let farthest = try db.fetchOne(Planet.self, "SELECT * FROM planets ORDER BY au DESC")  // Planet?
        let count = try db.fetchValue(Int.self, "SELECT count(*) FROM planets")  // Int? (nil: no row)
        let rows = try db.fetchAll(UntypedRow.self, "SELECT name, moons FROM planets")  // [UntypedRow]
        // END QueriesAndTransactions: verbs
        #expect(changed == 1)
        #expect(inner.map(\.name) == ["Mercury", "Venus", "Earth", "Mars"])
        #expect(farthest?.name == "Saturn" && count == 6)
        #expect(rows.first?["moons"] == .integer(0))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM notes") == 0)

        // BEGIN QueriesAndTransactions: typed untyped rows
        for row in try db.fetchAll(UntypedRow.self, "SELECT name, moons FROM planets ORDER BY id") {
            let name = try row["name", as: String.self]  // "Mercury", "Venus", ...
            let moons = try row[1, as: Int?.self]  // nil for Mars: NULL reads as nil only into an optional type
            print(name, moons.map(String.init) ?? "unknown")  // Mercury 0, ..., Mars unknown, ...
        }
        // END QueriesAndTransactions: typed untyped rows
        #expect(printed == ["Mercury 0", "Venus 0", "Earth 1", "Mars unknown", "Jupiter 95", "Saturn 146"])
        let untyped = try db.fetchAll(UntypedRow.self, "SELECT name, moons FROM planets ORDER BY id")
        #expect(try untyped.map { try $0["name", as: String.self] } == inner.map(\.name) + ["Jupiter", "Saturn"])
        #expect(try untyped[3][1, as: Int?.self] == nil)
        let error = try requireSQLiteError { try untyped[3]["moons", as: Int.self] }
        #expect(error.kind == .conversionFailed && error.column == "moons")

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

        // BEGIN QueriesAndTransactions: fragments
        let withMoonsOnly = true  // a choice of the user's
        var query: SQL = "SELECT * FROM planets WHERE au > \(1.0)"
        if withMoonsOnly { query = query + " AND moons > \(0)" }  // fragments keep their values
        let outer = try db.fetchAll(Planet.self, "\(query) ORDER BY au")  // Jupiter, Saturn: Mars's moons are NULL

        let schema = "CREATE TABLE log (at TEXT NOT NULL, message TEXT NOT NULL)"  // text from elsewhere
        try db.execute(SQL(verbatim: schema))
        // END QueriesAndTransactions: fragments
        #expect(outer.map(\.name) == ["Jupiter", "Saturn"])
        #expect(query.text == "SELECT * FROM planets WHERE au > ? AND moons > ?")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM log") == 0)

        // BEGIN QueriesAndTransactions: arguments
        try db.execute("UPDATE planets SET moons = ? WHERE name = ?", [2, "Mars"])  // positional
        try db.execute("UPDATE planets SET moons = ?2 WHERE name = ?1", ["Mars", 2])  // numbered
        try db.execute("UPDATE planets SET moons = :moons WHERE name = :name", ["moons": 2, "name": "Mars"])
        // END QueriesAndTransactions: arguments
        #expect(try db.fetchValue(Int.self, "SELECT moons FROM planets WHERE name = 'Mars'") == 2)
        let both = try requireSQLiteError { try db.execute("UPDATE planets SET moons = \(3) WHERE name = ?", ["Mars"]) }
        #expect(both.kind == .parameterMismatch)
        let missing = try requireSQLiteError {
            try db.execute("UPDATE planets SET moons = :moons WHERE name = :name", ["moons": 2])
        }
        #expect(missing.kind == .parameterMismatch)

        // BEGIN QueriesAndTransactions: prepared statements
        let byID = try db.prepare("SELECT * FROM planets WHERE id = ?")
        let earth = try byID.fetchOne(Planet.self, binding: 3)  // typed values, bound in place
        let fourth = try byID.fetchOne(Planet.self, [4])  // or an argument list: Mars
        let rename = try db.prepare("UPDATE planets SET name = ? WHERE id = ?")
        try rename.execute(binding: "Terra", 3)  // Earth is now Terra
        // END QueriesAndTransactions: prepared statements
        #expect(earth?.name == "Earth" && fourth?.name == "Mars")
        #expect(try byID.fetchOne(Planet.self, binding: 3)?.name == "Terra")
        let interpolated = try requireSQLiteError { try db.prepare("SELECT * FROM planets WHERE id = \(3)") }
        #expect(interpolated.kind == .parameterMismatch)

        // BEGIN QueriesAndTransactions: cursor
        let cursor = try db.fetchCursor(Planet.self, "SELECT * FROM planets ORDER BY au")
        var near: [String] = []
        while let planet = try cursor.next() {  // one row at a time, in constant memory
            if planet.au > 2 { break }  // stopping early is fine: the connection stays usable
            near.append(planet.name)
        }
        cursor.close()  // near: Mercury, Venus, Terra, Mars
        // END QueriesAndTransactions: cursor
        #expect(near == ["Mercury", "Venus", "Terra", "Mars"])

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
        #expect(id == 7 && again == nil && found && deleted)
        #expect(try db.fetchOne(Planet.self, id: 4)?.moons == 2)
        #expect(try db.fetchOne(Planet.self, id: 7) == nil)

        // BEGIN QueriesAndTransactions: transactions
        let neptune = Planet(id: 8, name: "Neptune", au: 30.07, moons: 16)
        let duplicate = Planet(id: 3, name: "Earth", au: 1.0, moons: 1)  // id 3 is taken
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
        let totalAU = try db.transaction(.deferred) {  // for reads: no lock until the first read
            try db.fetchValue(Double.self, "SELECT sum(au) FROM planets")
        }
        // END QueriesAndTransactions: transactions
        #expect(try db.fetchOne(Planet.self, id: 8)?.name == "Neptune")
        #expect(try db.fetchOne(Planet.self, id: 3)?.name == "Terra" && !db.isInTransaction)
        #expect(totalAU == (try db.fetchValue(Double.self, "SELECT sum(au) FROM planets")) && (totalAU ?? 0) > 48)

        // BEGIN QueriesAndTransactions: migrations
        let appDatabase = try Connection.inMemory()  // new: the migrations create its schema
        var migrator = Migrator()
        migrator.add("v1: create planets") { db in
            // What Connection.createTableSQL(for: Planet.self) returned when v1 shipped, kept as it was.
            try db.execute(
                """
                CREATE TABLE "planets" ("id" INTEGER PRIMARY KEY NOT NULL, "name" TEXT NOT NULL UNIQUE, \
                "au" REAL NOT NULL, "moons" INTEGER)
                """)
        }
        migrator.add("v2: create moons") { db in
            try db.execute("CREATE TABLE moons (name TEXT NOT NULL, planet INTEGER NOT NULL REFERENCES planets (id))")
        }
        try migrator.migrate(appDatabase)  // applies what is pending; a no-op the next time

        try appDatabase.insert(Planet(id: 4, name: "Mars", au: 1.524, moons: 2))
        try appDatabase.execute("INSERT INTO moons VALUES ('Phobos', 4), ('Deimos', 4)")
        // END QueriesAndTransactions: migrations
        let frozen = try appDatabase.fetchValue(String.self, "SELECT sql FROM sqlite_schema WHERE name = 'planets'")
        #expect(try Connection.createTableSQL(for: Planet.self) == [frozen])  // v1's text is still the model's
        #expect(try migrator.migrate(appDatabase).isEmpty)

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
        try migrator.migrate(appDatabase)  // the moons still reference their planets
        // END QueriesAndTransactions: table rebuild
        #expect(try migrator.appliedMigrations(in: appDatabase).count == 3 && appDatabase.enforcesForeignKeys)
        #expect(try appDatabase.fetchValue(Int.self, "SELECT count(*) FROM moons") == 2)
        try appDatabase.verify(Planet.self)
        #expect(throws: SQLiteError.self) { try appDatabase.insert(Planet(id: 9, name: "Vulcan", au: 0, moons: nil)) }
        #expect(throws: SQLiteError.self) { try appDatabase.execute("INSERT INTO moons VALUES ('Orphan', 99)") }

        // BEGIN QueriesAndTransactions: scripts copies tracing
        try db.executeScript(
            """
            CREATE TABLE rings (planet INTEGER NOT NULL REFERENCES planets (id), name TEXT NOT NULL);
            CREATE INDEX rings_by_planet ON rings (planet);
            """)
        let copy = try Connection(creating: userPath, fromTemplate: path)  // a copy of the database at path
        try db.backup(to: backupPath)  // backupPath must not exist

        var log: [String] = []
        db.trace { event in log.append(event.sql) }  // each statement run, with event.duration
        _ = try db.fetchValue(Int.self, "SELECT count(*) FROM rings")
        db.trace(nil)  // off (the default)
        // END QueriesAndTransactions: scripts copies tracing
        #expect(try copy.fetchValue(Int.self, "SELECT count(*) FROM planets") == 7)
        #expect(try Connection(opening: backupPath).fetchValue(Int.self, "SELECT count(*) FROM rings") == 0)
        #expect(log == ["SELECT count(*) FROM rings"])
    }
}
