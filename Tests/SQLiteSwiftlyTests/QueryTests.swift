import SQLiteSwiftly
import Testing

@Suite struct QueryTests {
    /// A database with `test_planets` holding the four inner planets.
    private func planets() throws -> Connection {
        let db = try Connection.inMemory()
        try db.createTable(for: TestPlanet.self)
        let insert = try db.makeInsertStatement(for: TestPlanet.self)
        for planet in TestPlanet.inner { try insert.insert(planet) }
        return db
    }

    private func names(_ db: Connection, _ sql: String, _ arguments: StatementArguments) throws -> [String] {
        try db.fetchAll(TestPlanet.self, sql, arguments).map(\.name)
    }

    @Test("positional ? arguments bind in order")
    func positional() throws {
        let db = try planets()
        let found = try names(db, "SELECT * FROM test_planets WHERE au > ? AND au < ? ORDER BY id", [0.5, 1.2])
        #expect(found == ["Venus", "Earth"])
    }

    @Test("numbered ?NNN arguments bind by number, and a repeated number binds once")
    func numbered() throws {
        let db = try planets()
        let row = try #require(try db.fetchOne(UntypedRow.self, "SELECT ?2, ?1, ?2", ["a", "b"]))
        #expect(row.values == [.text("b"), .text("a"), .text("b")])
        let found = try names(db, "SELECT * FROM test_planets WHERE id = ?1 OR id = ?1 + 1 ORDER BY id", [2])
        #expect(found == ["Venus", "Earth"])
    }

    @Test("named arguments bind to :name, @name and $name, keyed with or without the prefix")
    func named() throws {
        let db = try planets()
        let colon = try names(db, "SELECT * FROM test_planets WHERE name = :name", ["name": "Mars"])
        let at = try names(db, "SELECT * FROM test_planets WHERE name = @name", ["@name": "Earth"])
        let dollar = try names(db, "SELECT * FROM test_planets WHERE id = $id", ["id": 1])
        #expect(colon == ["Mars"])
        #expect(at == ["Earth"])
        #expect(dollar == ["Mercury"])
        let repeated = try names(db, "SELECT * FROM test_planets WHERE id = :id OR id = :id + 1", ["id": 3])
        #expect(repeated == ["Earth", "Mars"])
    }

    @Test("nil binds NULL")
    func nilBindsNull() throws {
        let db = try planets()
        try db.execute("UPDATE test_planets SET moons = ? WHERE id = ?", [nil, 3])
        #expect(try db.fetchValue(Int?.self, "SELECT moons FROM test_planets WHERE id = 3") == .some(nil))
    }

    @Test("a ValueList expands one IN (?) placeholder, between other positional arguments")
    func valueList() throws {
        let db = try planets()
        let found = try names(
            db, "SELECT * FROM test_planets WHERE au > ? AND id IN (?) AND name <> ? ORDER BY id",
            [0.1, ValueList([1, 2, 4]), "Venus"])
        #expect(found == ["Mercury", "Mars"])
        // The SQL is expanded per list length: a one-element list and a long one work too.
        #expect(try names(db, "SELECT * FROM test_planets WHERE id IN (?)", [ValueList([3])]) == ["Earth"])
        let many = ValueList(Array(1...500))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets WHERE id IN (?)", [many]) == 4)
    }

    @Test("an empty ValueList matches nothing, and NOT IN an empty list matches everything")
    func emptyValueList() throws {
        let db = try planets()
        let empty = ValueList([Int]())
        #expect(try names(db, "SELECT * FROM test_planets WHERE id IN (?)", [empty]).isEmpty)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets WHERE id NOT IN (?)", [empty]) == 4)
        #expect(try db.execute("DELETE FROM test_planets WHERE id IN (?)", [empty]) == 0)
    }

    @Test("a ValueList works with named arguments, also when the name is used twice")
    func valueListNamed() throws {
        let db = try planets()
        let found = try names(
            db, "SELECT * FROM test_planets WHERE id IN (:ids) AND name <> :skip ORDER BY id",
            ["ids": ValueList([1, 2, 3]), "skip": "Venus"])
        #expect(found == ["Mercury", "Earth"])
        let twice = try db.fetchValue(
            Int.self, "SELECT count(*) FROM test_planets WHERE id IN (@ids) AND id + 1 IN (@ids)",
            ["ids": ValueList([1, 2, 3])])
        #expect(twice == 2)
        #expect(try names(db, "SELECT * FROM test_planets WHERE id IN (:ids)", ["ids": ValueList([Int]())]).isEmpty)
    }

    @Test("? inside strings, comments and quoted identifiers is not a placeholder")
    func placeholdersInsideTokensAreIgnored() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE \"odd?name\" (\"what?\" TEXT, [why?] TEXT, `how?` TEXT)")
        let sql = """
            INSERT INTO "odd?name" ("what?", [why?], `how?`) -- a comment? yes ?
            VALUES ('is it? really?', /* ? :x @y $z */ ?, ?)
            """
        #expect(try db.execute(sql, ["second", "third"]) == 1)
        let list = try db.fetchAll(
            UntypedRow.self, "SELECT 'it''s?', \"what?\" FROM \"odd?name\" WHERE [why?] IN (?) -- ?",
            [
                ValueList(["second", "other"])
            ])
        #expect(list.map(\.values) == [[.text("it's?"), .text("is it? really?")]])
    }

    @Test("too few or too many positional arguments fail before anything runs")
    func positionalCountMismatch() throws {
        let db = try planets()
        let sql = "UPDATE test_planets SET moons = 99 WHERE id = ? OR id = ?"
        for arguments: StatementArguments in [[1], [1, 2, 3], .none] {
            let error = try #require(throws: SQLiteError.self) { try db.execute(sql, arguments) }
            #expect(error.kind == .parameterMismatch)
            #expect(error.sql == sql)
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets WHERE moons = 99") == 0)
    }

    @Test("missing, extra and misnamed named arguments fail before anything runs")
    func namedMismatch() throws {
        let db = try planets()
        let sql = "UPDATE test_planets SET moons = :moons WHERE name = :name"
        let cases: [(StatementArguments, String)] = [
            (["moons": 9], ":name"),  // missing
            (["moons": 9, "name": "Mars", "extra": 1], "extra"),  // extra
            (["moons": 9, "nmae": "Mars"], ":name"),  // misnamed
            (["moons": 9, "@name": "Mars"], ":name"),  // wrong prefix
        ]
        for (arguments, parameter) in cases {
            let error = try #require(throws: SQLiteError.self) { try db.execute(sql, arguments) }
            #expect(error.kind == .parameterMismatch)
            #expect(error.parameter == parameter)
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets WHERE moons = 9") == 0)
    }

    @Test("named arguments for positional parameters, and list mismatches, are refused")
    func mixedMismatch() throws {
        let db = try planets()
        let named = try #require(throws: SQLiteError.self) {
            try db.execute("DELETE FROM test_planets WHERE id = ?", ["id": 1])
        }
        #expect(named.kind == .parameterMismatch)
        let listCount = try #require(throws: SQLiteError.self) {
            try db.execute("DELETE FROM test_planets WHERE id IN (?) OR id = ?", [ValueList([1, 2])])
        }
        #expect(listCount.kind == .parameterMismatch)
        let numbered = try #require(throws: SQLiteError.self) {
            try db.execute("DELETE FROM test_planets WHERE id IN (?1)", [ValueList([1, 2])])
        }
        #expect(numbered.kind == .parameterMismatch)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets") == 4)
    }

    @Test("a named ValueList that matches no parameter is an extra argument, not silently dropped")
    func unusedNamedList() throws {
        let db = try planets()
        let error = try #require(throws: SQLiteError.self) {
            try db.execute("DELETE FROM test_planets WHERE id = :id", ["id": 1, "idz": ValueList([2, 3])])
        }
        #expect(error.kind == .parameterMismatch)
        #expect(error.parameter == "idz")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets") == 4)
    }

    @Test("a ValueList passed to a prepared statement is refused, not bound")
    func valueListOnPreparedStatement() throws {
        let db = try planets()
        let statement = try db.prepare("DELETE FROM test_planets WHERE id IN (?)")
        let error = try #require(throws: SQLiteError.self) { try statement.execute([ValueList([1])]) }
        #expect(error.kind == .parameterMismatch)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets") == 4)
    }

    @Test("a value that cannot be stored (NaN) is a typed error and nothing runs")
    func invalidArgument() throws {
        let db = try planets()
        let error = try #require(throws: SQLiteError.self) {
            try db.execute("UPDATE test_planets SET au = ?", [Double.nan])
        }
        #expect(error.kind == .conversionFailed)
        #expect(error.parameter == "?1")
        let listError = try #require(throws: SQLiteError.self) {
            try db.execute("UPDATE test_planets SET au = 0 WHERE au IN (?)", [ValueList([1.0, .nan])])
        }
        #expect(listError.kind == .conversionFailed)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets WHERE au = 0") == 0)
    }

    @Test("a prepared statement reports its parameters and runs with different arguments")
    func preparedStatement() throws {
        let db = try planets()
        let statement = try db.prepare("SELECT * FROM test_planets WHERE id = :id AND name <> @skip")
        #expect(statement.parameterCount == 2)
        #expect(statement.parameterNames == [":id", "@skip"])
        #expect(try statement.fetchOne(["id": 4, "skip": ""], as: TestPlanet.self)?.name == "Mars")
        #expect(try statement.fetchOne(["id": 4, "skip": "Mars"], as: TestPlanet.self) == nil)
        #expect(try statement.run(["id": 1, "skip": ""], as: TestPlanet.self).map(\.name) == ["Mercury"])
    }
}
