import SQLiteSwiftlyMacros
import Testing

@Suite struct TableMacroEndToEndTests {
    @Test("a @Table struct creates its table, inserts and reads back equal values")
    func roundTrip() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: MacroPlanet.self)
        let planets = [
            MacroPlanet.earth,
            MacroPlanet(id: 4, name: "Mars", orbit: 1.52, moons: 2, default: false, photo: []),
            MacroPlanet(id: 1, name: "Mercury", orbit: 0.39, moons: nil, default: false, photo: nil),
        ]
        let insert = try db.makeInsertStatement(for: MacroPlanet.self)
        for planet in planets { _ = try insert.insert(planet) }
        let read = try db.fetchAll(MacroPlanet.self, where: "1 ORDER BY \"orbit_au\" DESC")
        #expect(read == planets.sorted { $0.orbit > $1.orbit })
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM planets WHERE photo IS NULL") == 1)
        #expect(read.first?.label == "Mars (4)")
    }

    @Test("columns follow declaration order, renamed and keyword names, and Swift types' nullability")
    func createTableSQL() throws {
        #expect(
            try Connection.createTableSQL(for: MacroPlanet.self) == [
                "CREATE TABLE \"planets\" (\"id\" INTEGER PRIMARY KEY NOT NULL, \"name\" TEXT NOT NULL, "
                    + "\"orbit_au\" REAL NOT NULL, \"moons\" INTEGER, \"default\" INTEGER NOT NULL, \"photo\" BLOB)"
            ])
        #expect(MacroPlanet.columns.map(\.name) == ["id", "name", "orbit_au", "moons", "default", "photo"])
        #expect(MacroPlanet.expectedColumnNames == ["id", "name", "orbit_au", "moons", "default", "photo"])
    }

    @Test("the table name defaults to the type name")
    func defaultTableName() throws {
        #expect(Comet.tableName == "Comet")
        let db = try Connection.inMemory()
        try db.createTable(for: Comet.self)
        let comets = [Comet(designation: "1P/Halley", period: 75.3), Comet(designation: "C/1995 O1", period: nil)]
        let insert = try db.makeInsertStatement(for: Comet.self)
        for comet in comets { _ = try insert.insert(comet) }
        #expect(try db.fetchAll(Comet.self, where: "1 ORDER BY designation") == comets)
    }

    @Test("@TableColumn options become constraints: auto-increment, unique, default, foreign key, index")
    func constraints() throws {
        let sql = try Connection.createTableSQL(for: MacroMoon.self)
        #expect(
            sql == [
                "CREATE TABLE \"moons\" (\"id\" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "
                    + "\"name\" TEXT NOT NULL UNIQUE, \"craters\" INTEGER NOT NULL DEFAULT 0, "
                    + "\"planet_id\" INTEGER NOT NULL REFERENCES \"planets\" (\"id\") ON DELETE CASCADE)",
                "CREATE INDEX \"moons_by_name\" ON \"moons\" (\"name\")",
            ])
        let db = try Connection.inMemory()
        try db.execute("PRAGMA foreign_keys = ON")
        try db.createTable(for: MacroPlanet.self)
        try db.createTable(for: MacroMoon.self)
        _ = try db.makeInsertStatement(for: MacroPlanet.self).insert(.earth)
        let insert = try db.makeInsertStatement(for: MacroMoon.self)
        let moon = MacroMoon(id: 1, name: "Moon", craters: 9137, planetID: 3)
        #expect(try insert.insert(moon) == 1)
        // The UNIQUE name and the foreign key are enforced.
        #expect(throws: SQLiteError.self) { try insert.insert(MacroMoon(id: 2, name: "Moon", craters: 0, planetID: 3)) }
        #expect(throws: SQLiteError.self) { try insert.insert(MacroMoon(id: 3, name: "Io", craters: 0, planetID: 5)) }
        // The DEFAULT applies to rows inserted without the column.
        try db.execute("INSERT INTO moons (name, planet_id) VALUES ('Phobos', 3)")
        let phobos = try #require(try db.fetchOne(MacroMoon.self, where: "name = ?", ["Phobos"]))
        #expect(phobos.craters == 0)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = 'moons_by_name'") == 1)
        // ON DELETE CASCADE removes the moons with their planet.
        _ = try db.delete(MacroPlanet.earth)
        #expect(try db.fetchAll(MacroMoon.self).isEmpty)
    }

    @Test("a composite primary key, several bindings in one declaration and an observed property")
    func compositeKey() throws {
        #expect(Visit.columns.map(\.name) == ["planet", "day", "hours", "minutes", "note"])
        #expect(Visit.columns.filter(\.isPrimaryKey).map(\.name) == ["planet", "day"])
        #expect(
            try Connection.createTableSQL(for: Visit.self).first?.hasSuffix("PRIMARY KEY (\"planet\", \"day\"))")
                == true)
        let db = try Connection.inMemory()
        try db.createTable(for: Visit.self)
        let insert = try db.makeInsertStatement(for: Visit.self)
        var visit = Visit(planet: 4, day: 1, hours: 2, minutes: 30)
        visit.note = "dusty"
        _ = try insert.insert(visit)
        #expect(throws: SQLiteError.self) { try insert.insert(visit) }
        visit.hours = 5
        #expect(try db.update(visit))
        let read = try #require(try db.fetchOne(Visit.self, where: "planet = ? AND day = ?", [4, 1]))
        #expect(read.hours == 5)
        #expect(read.note == "dusty")
        #expect(read.noteEdits == 0)
    }

    @Test("generated members of a public struct are public, and a declared tableName is kept")
    func accessAndDeclaredMembers() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: PublicProbe.self)
        _ = try db.makeInsertStatement(for: PublicProbe.self).insert(PublicProbe(id: 1, name: "Voyager"))
        #expect(try db.fetchAll(PublicProbe.self) == [PublicProbe(id: 1, name: "Voyager")])
        #expect(Asteroid.tableName == "minor_bodies")
        try db.createTable(for: Asteroid.self)
        _ = try db.makeInsertStatement(for: Asteroid.self).insert(Asteroid(id: 433, name: "Eros"))
        #expect(try db.fetchValue(String.self, "SELECT name FROM minor_bodies") == "Eros")
        #expect(try db.fetchAll(Asteroid.self) == [Asteroid(id: 433, name: "Eros")])
    }

    @Test("a struct that already declares TableModel gets only the members")
    func alreadyConforming() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: AlreadyConforming.self)
        _ = try db.makeInsertStatement(for: AlreadyConforming.self).insert(AlreadyConforming(id: 7))
        #expect(try db.fetchAll(AlreadyConforming.self) == [AlreadyConforming(id: 7)])
    }

    @Test("a nested @Table struct works")
    func nestedType() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Catalog.Star.self)
        _ = try db.makeInsertStatement(for: Catalog.Star.self).insert(Catalog.Star(name: "Sirius", magnitude: -1.46))
        #expect(try db.fetchAll(Catalog.Star.self) == [Catalog.Star(name: "Sirius", magnitude: -1.46)])
    }

    @Test("hand-written and derived models work side by side")
    func handWrittenAlongside() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: HandPlanet.self)
        try db.createTable(for: MacroPlanet.self)
        _ = try db.makeInsertStatement(for: HandPlanet.self).insert(HandPlanet(id: 3, name: "Earth"))
        _ = try db.makeInsertStatement(for: MacroPlanet.self).insert(.earth)
        #expect(try db.fetchAll(HandPlanet.self) == [HandPlanet(id: 3, name: "Earth")])
        #expect(try db.fetchAll(MacroPlanet.self) == [.earth])
        let joined = try db.fetchAll(
            HandPlanet.self, "SELECT h.id, p.name FROM hand_planets h JOIN planets p ON p.id = h.id")
        #expect(joined == [HandPlanet(id: 3, name: "Earth")])
    }

    @Test("a NULL read into a non-optional property throws conversionFailed naming the column")
    func nullIntoNonOptional() throws {
        let db = try Connection.inMemory()
        do {
            _ = try db.fetchAll(Comet.self, "SELECT NULL AS designation, 1.0 AS period")
            Issue.record("reading NULL into a String succeeded")
        } catch let error as SQLiteError {
            #expect(error.kind == .conversionFailed)
            #expect(error.column == "designation")
        }
    }

    @Test("generated models read columns by name, in any order; a missing one throws modelMismatch naming it")
    func columnsByName() throws {
        let db = try Connection.inMemory()
        let comets = try db.fetchAll(Comet.self, "SELECT 1.5 AS period, 'x' AS designation, 3 AS other")
        #expect(comets == [Comet(designation: "x", period: 1.5)])
        let error = try #require(throws: SQLiteError.self) {
            try db.fetchAll(Comet.self, "SELECT 1.0 AS period, 'x' AS name")
        }
        #expect(error.kind == .modelMismatch)
        #expect(error.column == "designation")
    }
}

@Suite struct TableMacroRecordHookTests {
    @Test("a @Table model's own willSave runs before inserts and updates, and its error stops the write")
    func recordHook() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Tag.self)
        let insert = try db.makeInsertStatement(for: Tag.self)
        try insert.insert(Tag(id: 1, name: "Swift"))
        #expect(throws: TagError.empty) { try insert.insert(Tag(id: 2, name: "")) }
        #expect(try db.update(Tag(id: 1, name: "SQLite")))
        #expect(try db.fetchAll(Tag.self) == [Tag(id: 1, name: "sqlite")])
    }
}
