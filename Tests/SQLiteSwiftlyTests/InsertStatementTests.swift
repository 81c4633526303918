import Foundation
import SQLiteSwiftly
import Testing

/// A model with only primary-key columns: there is nothing to update.
private struct KeyOnly: TableModel {
    var id: Int
    static let tableName = "key_only"
    static let columns = [Column("id", Int.self, primaryKey: true)]
    init(id: Int) { self.id = id }
    init(row: borrowing Row) throws { id = try row[0] }
    func encode(to encoder: inout RowEncoder) throws { try encoder.encode(id) }
}

/// A connection with empty `test_planets` and `test_notes` tables.
private func database() throws -> Connection {
    let db = try Connection.inMemory()
    try db.createTable(for: TestPlanet.self)
    try db.createTable(for: TestNote.self)
    return db
}

@Suite struct InsertStatementTests {
    @Test("one insert statement, reused for many rows, returns increasing row ids")
    func reusedForManyRows() throws {
        let db = try database()
        let insert = try db.makeInsertStatement(for: TestNote.self)
        var ids: [Int64?] = []
        try db.transaction {
            for index in 0..<500 { ids.append(try insert.insert(TestNote(text: "note \(index)"))) }
        }
        #expect(ids == Array(1...500))
        #expect(db.lastInsertedRowID == 500)
        let notes = try db.fetchAll(TestNote.self)
        #expect(notes.count == 500)
        #expect(notes.last == TestNote(text: "note 499"))
    }

    @Test("the row id of an INTEGER PRIMARY KEY model is its key")
    func rowIDIsKey() throws {
        let db = try database()
        let insert = try db.makeInsertStatement(for: TestPlanet.self)
        #expect(try insert.insert(TestPlanet(id: 42, name: "Far", au: 99, moons: nil)) == 42)
        #expect(try insert.insert(TestPlanet(id: 7, name: "Near", au: 0.1, moons: 0)) == 7)
    }

    @Test("the insert SQL is pinned, with quoted identifiers, for each conflict policy")
    func pinnedSQL() throws {
        let db = try database()
        let columns = #"("id", "name", "au", "moons") VALUES (?, ?, ?, ?)"#
        #expect(try db.makeInsertStatement(for: TestPlanet.self).sql == #"INSERT INTO "test_planets" "# + columns)
        #expect(
            try db.makeInsertStatement(for: TestPlanet.self, onConflict: .replace).sql
                == #"INSERT OR REPLACE INTO "test_planets" "# + columns)
        #expect(
            try db.makeInsertStatement(for: TestPlanet.self, onConflict: .update).sql
                == #"INSERT INTO "test_planets" "# + columns
                + #" ON CONFLICT ("id") DO UPDATE SET "name" = excluded."name", "au" = excluded."au", "#
                + #""moons" = excluded."moons" RETURNING rowid"#)
        #expect(try db.makeInsertStatement(for: TestPlanet.self).conflictPolicy == .fail)
    }

    @Test("a constraint failure in the middle keeps earlier rows and leaves the statement reusable")
    func constraintFailureMidway() throws {
        let db = try database()
        let insert = try db.makeInsertStatement(for: TestPlanet.self)
        try insert.insert(TestPlanet.inner[0])
        try insert.insert(TestPlanet.inner[1])
        let duplicateKey = TestPlanet(id: 2, name: "Other", au: 5, moons: 1)
        do {
            try insert.insert(duplicateKey)
            Issue.record("a duplicate primary key was inserted")
        } catch let error as SQLiteError {
            #expect(error.kind == .sqlite)
            #expect(error.code == .constraintPrimaryKey)
            #expect(error.code.primary == .constraint)
            #expect(error.table == "test_planets")
            #expect(error.sql == insert.sql)
        }
        let duplicateName = TestPlanet(id: 9, name: "Mercury", au: 5, moons: 1)
        do {
            try insert.insert(duplicateName)
            Issue.record("a duplicate unique name was inserted")
        } catch let error as SQLiteError {
            #expect(error.code == .constraintUnique)
            #expect(error.message.contains("test_planets.name"))
        }
        #expect(try insert.insert(TestPlanet.inner[2]) == 3)
        #expect(try insert.insert(TestPlanet.inner[3]) == 4)
        #expect(try db.fetchAll(TestPlanet.self) == TestPlanet.inner)
    }

    @Test("a failure inside a transaction rolls back the whole batch when the body throws")
    func failureRollsBackBatch() throws {
        let db = try database()
        let insert = try db.makeInsertStatement(for: TestPlanet.self)
        #expect(throws: SQLiteError.self) {
            try db.transaction {
                try insert.insert(TestPlanet.inner[0])
                try insert.insert(TestPlanet.inner[0])
            }
        }
        #expect(try db.fetchAll(TestPlanet.self).isEmpty)
        try insert.insert(TestPlanet.inner[0])
        #expect(try db.fetchAll(TestPlanet.self).count == 1)
    }

    @Test(
        "a model encoding too few or too many values is a parameter mismatch naming the table; nothing is inserted",
        arguments: [0, 3, 5, 6])
    func miscountedEncode(count: Int) throws {
        let db = try database()
        let insert = try db.makeInsertStatement(for: TestMiscountedPlanet.self)
        do {
            try insert.insert(TestMiscountedPlanet(id: 1, name: "Odd", encodedCount: count))
            Issue.record("a model encoding \(count) of 4 values was inserted")
        } catch let error as SQLiteError {
            #expect(error.kind == .parameterMismatch)
            #expect(error.table == "test_planets")
            #expect(error.sql == insert.sql)
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets") == 0)
        // The statement is still usable, and no value of the failed run is left bound.
        try insert.insert(TestMiscountedPlanet(id: 2, name: "Even", encodedCount: 4))
        #expect(try db.fetchAll(TestPlanet.self) == [TestPlanet(id: 2, name: "Even", au: 1, moons: nil)])
    }

    @Test("an error thrown by the model's own encode(to:) half-way is rethrown; nothing is inserted")
    func encodeThrows() throws {
        struct Refusal: Error, Equatable {}
        struct Refusing: TableModel {
            var refuse: Bool
            static let tableName = TestPlanet.tableName
            static let columns = TestPlanet.columns
            init(refuse: Bool) { self.refuse = refuse }
            init(row: borrowing Row) throws { refuse = false }
            func encode(to encoder: inout RowEncoder) throws {
                try encoder.encode(1)
                try encoder.encode("Half")
                if refuse { throw Refusal() }
                try encoder.encode(2.0)
                try encoder.encode(Int?.none)
            }
        }
        let db = try database()
        let insert = try db.makeInsertStatement(for: Refusing.self)
        #expect(throws: Refusal()) { try insert.insert(Refusing(refuse: true)) }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets") == 0)
        try insert.insert(Refusing(refuse: false))
        #expect(try db.fetchAll(TestPlanet.self) == [TestPlanet(id: 1, name: "Half", au: 2, moons: nil)])
    }

    @Test("NOT NULL is enforced by the table the model created")
    func notNullEnforced() throws {
        let db = try database()
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO test_planets (id, name) VALUES (1, 'x')") }
    }

    @Test("insertIfNew skips a conflicting row, replace replaces, update upserts")
    func conflictPolicies() throws {
        let db = try database()
        let insert = try db.makeInsertStatement(for: TestPlanet.self)
        #expect(try insert.insert(TestPlanet.inner[0]) == 1)  // the row id, no unwrap needed
        let changed = TestPlanet(id: 1, name: "Mercury", au: 0.4, moons: 3)
        #expect(try insert.insertIfNew(changed) == nil)  // skipped: not the row id of the earlier insert
        #expect(db.changes == 0)
        #expect(try db.fetchAll(TestPlanet.self) == [TestPlanet.inner[0]])
        let replace = try db.makeInsertStatement(for: TestPlanet.self, onConflict: .replace)
        #expect(try replace.insert(changed) == 1)
        #expect(try db.fetchAll(TestPlanet.self) == [changed])
        let upsert = try db.makeInsertStatement(for: TestPlanet.self, onConflict: .update)
        let again = TestPlanet(id: 1, name: "Mercury", au: 0.39, moons: nil)
        #expect(try upsert.insert(TestPlanet.inner[1]) == 2)  // inserted
        #expect(try upsert.insert(again) == 1)  // updated in place: its own id, not the last inserted one
        #expect(try db.fetchAll(TestPlanet.self, where: "1 ORDER BY id") == [again, TestPlanet.inner[1]])
        #expect(try insert.insertIfNew(TestPlanet.inner[2]) == 3)  // no conflict: inserted
    }

    @Test("update changes the row with the model's key, reports whether it found one, and runs UPDATE by key")
    func update() throws {
        let db = try database()
        let insert = try db.makeInsertStatement(for: TestPlanet.self)
        for planet in TestPlanet.inner { try insert.insert(planet) }
        var traced: [String] = []
        db.trace { traced.append($0.sql) }
        var mars = TestPlanet.inner[3]
        mars.moons = 2
        #expect(try db.update(mars))
        #expect(traced.last == #"UPDATE "test_planets" SET "name" = ?2, "au" = ?3, "moons" = ?4 WHERE "id" = ?1"#)
        db.trace(nil)
        #expect(try !db.update(TestPlanet(id: 99, name: "Nowhere", au: 1, moons: nil)))
        #expect(try db.fetchOne(TestPlanet.self, where: "id = 4") == mars)
        #expect(try db.fetchAll(TestPlanet.self).count == 4)
        // A constraint failure leaves the cached statement usable.
        #expect(throws: SQLiteError.self) { try db.update(TestPlanet(id: 1, name: "Venus", au: 1, moons: nil)) }
        mars.au = 1.6
        #expect(try db.update(mars))
        #expect(try db.fetchOne(TestPlanet.self, where: "id = 4")?.au == 1.6)
    }

    @Test("delete removes the row with the model's key, reports whether it found one, and runs DELETE by key")
    func delete() throws {
        let db = try database()
        let insert = try db.makeInsertStatement(for: TestPlanet.self)
        for planet in TestPlanet.inner { try insert.insert(planet) }
        var traced: [String] = []
        db.trace { traced.append($0.sql) }
        #expect(try db.delete(TestPlanet.inner[1]))
        #expect(traced.last == #"DELETE FROM "test_planets" WHERE "id" = ?"#)
        #expect(try !db.delete(TestPlanet.inner[1]))
        #expect(try db.fetchAll(TestPlanet.self).map(\.id) == [1, 3, 4])
    }

    @Test("delete by a composite key uses every key column")
    func deleteComposite() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: TestMembership.self)
        let insert = try db.makeInsertStatement(for: TestMembership.self)
        try insert.insert(TestMembership(group: "a", member: 1, role: "x"))
        try insert.insert(TestMembership(group: "a", member: 2, role: "x"))
        #expect(try db.delete(TestMembership(group: "a", member: 2, role: "ignored")))
        #expect(try !db.delete(TestMembership(group: "b", member: 1, role: "x")))
        #expect(try db.fetchAll(TestMembership.self).map(\.member) == [1])
    }

    @Test("update, delete and upsert need a primary key: without one they are misuse naming the table")
    func noPrimaryKey() throws {
        let db = try database()
        let note = TestNote(text: "a")
        let attempts: [(String, () throws -> Void)] = [
            ("update", { _ = try db.update(note) }),
            ("delete", { _ = try db.delete(note) }),
            ("upsert", { _ = try db.makeInsertStatement(for: TestNote.self, onConflict: .update) }),
        ]
        for (label, attempt) in attempts {
            let error = try #require(throws: SQLiteError.self, "\(label)") { try attempt() }
            #expect(error.kind == .misuse, "\(label)")
            #expect(error.table == "test_notes", "\(label)")
            #expect(error.message.contains("primary key"), "\(label)")
        }
        try db.createTable(for: KeyOnly.self)
        let error = try #require(throws: SQLiteError.self) { try db.update(KeyOnly(id: 1)) }
        #expect(error.kind == .misuse)
        #expect(error.table == "key_only")
        #expect(try !db.delete(KeyOnly(id: 1)))
    }

    @Test("making an insert statement for a missing table fails at once, not at the first insert")
    func missingTable() throws {
        let db = try Connection.inMemory()
        #expect(throws: SQLiteError.self) { try db.makeInsertStatement(for: TestPlanet.self) }
        #expect(throws: SQLiteError.self) { try db.update(TestPlanet.inner[0]) }
        #expect(throws: SQLiteError.self) { try db.delete(TestPlanet.inner[0]) }
    }
}
