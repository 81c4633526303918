import SQLiteSwiftly
import Testing

@Suite struct WritingTests {
    @Test("execute returns the changed row count, and 0 for statements that change no rows")
    func executeReturnsChanges() throws {
        let db = try planetsDatabase()
        #expect(try db.execute("UPDATE test_planets SET moons = 0 WHERE au < ?", [1.1]) == 3)
        #expect(db.changes == 3)
        #expect(try db.execute("UPDATE test_planets SET moons = 0 WHERE id = 99") == 0)
        #expect(try db.execute("DELETE FROM test_planets WHERE id = ?", [1]) == 1)
        // Not stale counts of the DELETE above: these statements change no rows.
        #expect(try db.execute("CREATE TABLE other (x)") == 0)
        #expect(try db.execute("SELECT * FROM test_planets") == 0)
        #expect(try db.execute("PRAGMA user_version = 3") == 0)
        #expect(try db.execute("INSERT INTO other VALUES (1), (2)") == 2)
        #expect(db.lastInsertedRowID == 2)
        #expect(try db.execute("DELETE FROM other") == 2)
    }

    @Test("a prepared statement's execute returns the changed row count")
    func preparedExecute() throws {
        let db = try planetsDatabase()
        let statement = try db.prepare("UPDATE test_planets SET moons = moons + 1 WHERE id = ?")
        #expect(try statement.execute([3]) == 1)
        #expect(try statement.execute([4]) == 1)  // NULL + 1 is NULL, still one row changed
        #expect(try statement.execute([99]) == 0)
        #expect(try db.fetchOne(TestPlanet.self, where: "id = 3")?.moons == 2)
    }

    @Test("an update that breaks a constraint throws naming the table and keeps the row")
    func updateConstraint() throws {
        let db = try planetsDatabase()
        let error = try #require(throws: SQLiteError.self) {
            try db.update(TestPlanet(id: 4, name: "Earth", au: 1.5, moons: nil))  // name is UNIQUE
        }
        #expect(error.code.primary == .constraint)
        #expect(error.table == "test_planets")
        #expect(try db.fetchOne(TestPlanet.self, where: "id = 4") == TestPlanet.inner[3])
        #expect(try db.update(TestPlanet(id: 4, name: "Mars", au: 1.6, moons: 2)))  // still usable
    }

    @Test("an update by composite primary key")
    func updateComposite() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: TestMembership.self)
        let insert = try db.makeInsertStatement(for: TestMembership.self)
        try insert.insert(TestMembership(group: "a", member: 1, role: "guest"))
        try insert.insert(TestMembership(group: "a", member: 2, role: "guest"))
        #expect(try db.update(TestMembership(group: "a", member: 2, role: "admin")))
        let roles = try db.fetchAll(TestMembership.self, where: "1 ORDER BY member").map(\.role)
        #expect(roles == ["guest", "admin"])
    }

    @Test("delete uses only the key: the model's other values may differ")
    func deleteByKeyOnly() throws {
        let db = try planetsDatabase()
        #expect(try db.delete(TestPlanet(id: 2, name: "whatever", au: 0, moons: nil)))
        #expect(try db.fetchAll(TestPlanet.self).map(\.name) == ["Mercury", "Earth", "Mars"])
    }

    @Test("insertIfNew skips a row that conflicts on a unique value, but not one that breaks NOT NULL")
    func insertIfNew() throws {
        let db = try planetsDatabase()
        let insert = try db.makeInsertStatement(for: TestPlanet.self)
        #expect(try insert.insertIfNew(TestPlanet(id: 3, name: "Terra", au: 1, moons: 1)) == nil)  // same key
        #expect(try insert.insertIfNew(TestPlanet(id: 9, name: "Earth", au: 1, moons: 1)) == nil)  // same name
        #expect(try insert.insertIfNew(TestPlanet(id: 5, name: "Jupiter", au: 5.2, moons: 95)) == 5)
        #expect(db.changes == 1)
        try db.execute("CREATE TABLE strict_notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        let error = try #require(throws: SQLiteError.self) {
            try db.execute("INSERT INTO strict_notes (id, text) VALUES (1, NULL) ON CONFLICT DO NOTHING")
        }
        #expect(error.code == .constraintNotNull)  // the clause insertIfNew uses skips only uniqueness conflicts
        #expect(try db.fetchOne(TestPlanet.self, where: "id = 3")?.name == "Earth")
        #expect(try db.fetchAll(TestPlanet.self).count == 5)
    }

    @Test("insert OR REPLACE replaces the conflicting row")
    func insertOrReplace() throws {
        let db = try planetsDatabase()
        let insert = try db.makeInsertStatement(for: TestPlanet.self, onConflict: .replace)
        let terra = TestPlanet(id: 3, name: "Terra", au: 1, moons: 1)
        #expect(try insert.insert(terra) == 3)
        #expect(try db.fetchOne(TestPlanet.self, where: "id = 3") == terra)
        // A conflict on the UNIQUE name deletes the other row (id 4) too.
        try insert.insert(TestPlanet(id: 9, name: "Mars", au: 1.5, moons: 2))
        #expect(try db.fetchAll(TestPlanet.self, where: "1 ORDER BY id").map(\.id) == [1, 2, 3, 9])
    }

    @Test("upsert updates the existing row in place, and inserts a new one")
    func upsert() throws {
        let db = try planetsDatabase()
        let upsert = try db.makeInsertStatement(for: TestPlanet.self, onConflict: .update)
        #expect(
            upsert.sql.hasSuffix(
                "ON CONFLICT (\"id\") DO UPDATE SET \"name\" = excluded.\"name\", \"au\" = excluded.\"au\", "
                    + "\"moons\" = excluded.\"moons\" RETURNING rowid"))
        var earth = TestPlanet.inner[2]
        earth.moons = 2
        try upsert.insert(earth)
        try upsert.insert(TestPlanet(id: 5, name: "Jupiter", au: 5.2, moons: 95))
        #expect(try db.fetchOne(TestPlanet.self, where: "id = 3") == earth)
        #expect(try db.fetchAll(TestPlanet.self).count == 5)
        // A conflict on another unique column is still an error.
        let error = try #require(throws: SQLiteError.self) {
            try upsert.insert(TestPlanet(id: 6, name: "Mars", au: 1, moons: 0))
        }
        #expect(error.code.primary == .constraint)
    }

    @Test("a plain insert fails on a conflict and the statement stays usable")
    func insertFailConflict() throws {
        let db = try planetsDatabase()
        let insert = try db.makeInsertStatement(for: TestPlanet.self)
        #expect(insert.conflictPolicy == .fail)
        let error = try #require(throws: SQLiteError.self) { try insert.insert(TestPlanet.inner[0]) }
        #expect(error.code == .constraintPrimaryKey)
        #expect(try insert.insert(TestPlanet(id: 5, name: "Jupiter", au: 5.2, moons: 95)) == 5)
    }
}
