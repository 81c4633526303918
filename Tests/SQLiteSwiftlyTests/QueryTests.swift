import SQLiteSwiftly
import Testing

@Suite struct QueryTests {
    /// A database with `test_planets` holding the four inner planets.
    private func names(_ db: Connection, _ sql: String, _ arguments: StatementArguments) throws -> [String] {
        try db.fetchAll(TestPlanet.self, SQL(verbatim: sql), arguments).map(\.name)
    }

    @Test("positional ? arguments bind in order")
    func positional() throws {
        let db = try planetsDatabase()
        let found = try names(db, "SELECT * FROM test_planets WHERE au > ? AND au < ? ORDER BY id", [0.5, 1.2])
        #expect(found == ["Venus", "Earth"])
    }

    @Test("numbered ?NNN arguments bind by number, and a repeated number binds once")
    func numbered() throws {
        let db = try planetsDatabase()
        let row = try #require(try db.fetchOne(UntypedRow.self, "SELECT ?2, ?1, ?2", ["a", "b"]))
        #expect(row.values == [.text("b"), .text("a"), .text("b")])
        let found = try names(db, "SELECT * FROM test_planets WHERE id = ?1 OR id = ?1 + 1 ORDER BY id", [2])
        #expect(found == ["Venus", "Earth"])
    }

    @Test("named arguments bind to :name, @name and $name, keyed with or without the prefix")
    func named() throws {
        let db = try planetsDatabase()
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
        let db = try planetsDatabase()
        try db.execute("UPDATE test_planets SET moons = ? WHERE id = ?", [nil, 3])
        #expect(try db.fetchValue(Int?.self, "SELECT moons FROM test_planets WHERE id = 3") == .some(nil))
    }

    @Test("interpolated values are bound, never spliced: quotes and SQL in a value are just text")
    func interpolationBinds() throws {
        let db = try planetsDatabase()
        let hostile = "Venus' OR '1' = '1"
        let query: SQL = "SELECT * FROM test_planets WHERE au > \(0.1) AND name <> \(hostile) ORDER BY id"
        #expect(query.text == "SELECT * FROM test_planets WHERE au > ? AND name <> ? ORDER BY id")
        #expect(query.description == query.text)  // values never show
        #expect(try db.fetchAll(TestPlanet.self, query).map(\.name) == ["Mercury", "Venus", "Earth", "Mars"])
        let moons: Int? = nil
        try db.execute("UPDATE test_planets SET moons = \(moons) WHERE id = \(3)")
        #expect(try db.fetchValue(Int?.self, "SELECT moons FROM test_planets WHERE id = \(3)") == .some(nil))
    }

    @Test("\\(list:) binds one placeholder per element; an empty list matches nothing")
    func interpolatedLists() throws {
        let db = try planetsDatabase()
        let ids = [1, 2, 4]
        let found = try db.fetchAll(
            TestPlanet.self, "SELECT * FROM test_planets WHERE id IN (\(list: ids)) AND name <> \("Venus") ORDER BY id")
        #expect(found.map(\.name) == ["Mercury", "Mars"])
        let many = Array(1...500)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets WHERE id IN (\(list: many))") == 4)
        let none = [Int]()
        #expect(try db.fetchAll(TestPlanet.self, "SELECT * FROM test_planets WHERE id IN (\(list: none))").isEmpty)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets WHERE id NOT IN (\(list: none))") == 4)
        #expect(try db.execute("DELETE FROM test_planets WHERE id IN (\(list: none))") == 0)
    }

    @Test("\\(identifier:) quotes a name, and fragments compose with their values in order")
    func identifiersAndFragments() throws {
        let db = try Connection.inMemory()
        let table = #"odd "name"; DROP TABLE x"#
        try db.execute("CREATE TABLE \(identifier: table) (v INTEGER)")
        try db.execute("INSERT INTO \(identifier: table) VALUES (\(1)), (\(2)), (\(3))")
        let low: SQL = "v > \(1)"
        let high: SQL = "v < \(3)"
        let query: SQL = "SELECT v FROM \(identifier: table) WHERE \(low) AND " + high
        #expect(query.text == #"SELECT v FROM "odd ""name""; DROP TABLE x" WHERE v > ? AND v < ?"#)
        #expect(try db.fetchAll(UntypedRow.self, query).map(\.values) == [[.integer(2)]])
    }

    @Test("SQL(verbatim:) binds nothing: its parameters take the argument list")
    func verbatim() throws {
        let db = try planetsDatabase()
        let text = "SELECT name FROM test_planets WHERE id = ?"
        #expect(try db.fetchValue(String.self, SQL(verbatim: text), [3]) == "Earth")
        #expect(SQL(verbatim: text).arguments.isEmpty)
    }

    @Test("interpolated values and an argument list together are refused, as are values in prepare and scripts")
    func interpolationMisuse() throws {
        let db = try planetsDatabase()
        let both = try #require(throws: SQLiteError.self) {
            try db.execute("DELETE FROM test_planets WHERE id = \(1) OR id = ?", [2])
        }
        #expect(both.kind == .parameterMismatch)
        let prepared = try #require(throws: SQLiteError.self) { try db.prepare("SELECT \(1)") }
        #expect(prepared.kind == .parameterMismatch)
        let script = try #require(throws: SQLiteError.self) {
            try db.executeScript("DELETE FROM test_planets WHERE id = \(1);")
        }
        #expect(script.kind == .parameterMismatch)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets") == 4)
    }

    @Test("? inside strings, comments and quoted identifiers is not a parameter")
    func placeholdersInsideTokensAreIgnored() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE \"odd?name\" (\"what?\" TEXT, [why?] TEXT, `how?` TEXT)")
        let sql: SQL = """
            INSERT INTO "odd?name" ("what?", [why?], `how?`) -- a comment? yes ?
            VALUES ('is it? really?', /* ? :x @y $z */ ?, ?)
            """
        #expect(try db.execute(sql, ["second", "third"]) == 1)
        let rows = try db.fetchAll(
            UntypedRow.self, "SELECT 'it''s?', \"what?\" FROM \"odd?name\" WHERE [why?] = \("second") -- ?")
        #expect(rows.map(\.values) == [[.text("it's?"), .text("is it? really?")]])
    }

    @Test("too few or too many positional arguments fail before anything runs")
    func positionalCountMismatch() throws {
        let db = try planetsDatabase()
        let sql = "UPDATE test_planets SET moons = 99 WHERE id = ? OR id = ?"
        for arguments: StatementArguments in [[1], [1, 2, 3], .none] {
            let error = try #require(throws: SQLiteError.self) { try db.execute(SQL(verbatim: sql), arguments) }
            #expect(error.kind == .parameterMismatch)
            #expect(error.sql == sql)
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets WHERE moons = 99") == 0)
    }

    @Test("missing, extra and misnamed named arguments fail before anything runs")
    func namedMismatch() throws {
        let db = try planetsDatabase()
        let sql = "UPDATE test_planets SET moons = :moons WHERE name = :name"
        let cases: [(StatementArguments, String)] = [
            (["moons": 9], ":name"),  // missing
            (["moons": 9, "name": "Mars", "extra": 1], "extra"),  // extra
            (["moons": 9, "nmae": "Mars"], ":name"),  // misnamed
            (["moons": 9, "@name": "Mars"], ":name"),  // wrong prefix
        ]
        for (arguments, parameter) in cases {
            let error = try #require(throws: SQLiteError.self) { try db.execute(SQL(verbatim: sql), arguments) }
            #expect(error.kind == .parameterMismatch)
            #expect(error.parameter == parameter)
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets WHERE moons = 9") == 0)
    }

    @Test("named arguments for positional parameters are refused, saying to name every parameter")
    func mixedMismatch() throws {
        let db = try planetsDatabase()
        let named = try #require(throws: SQLiteError.self) {
            try db.execute("DELETE FROM test_planets WHERE id = ? OR name = :name", ["name": "Mars"])
        }
        #expect(named.kind == .parameterMismatch)
        #expect(named.message.contains("name every parameter"))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets") == 4)
    }

    @Test("a value that cannot be stored (NaN) is a typed error and nothing runs")
    func invalidArgument() throws {
        let db = try planetsDatabase()
        let error = try #require(throws: SQLiteError.self) {
            try db.execute("UPDATE test_planets SET au = ?", [Double.nan])
        }
        #expect(error.kind == .conversionFailed)
        #expect(error.parameter == "?1")
        let listError = try #require(throws: SQLiteError.self) {
            try db.execute("UPDATE test_planets SET au = 0 WHERE au IN (\(list: [1.0, .nan]))")
        }
        #expect(listError.kind == .conversionFailed)
        #expect(listError.parameter == "?2")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets WHERE au = 0") == 0)
    }

    @Test("a prepared statement reports its parameters and runs with different arguments")
    func preparedStatement() throws {
        let db = try planetsDatabase()
        let statement = try db.prepare("SELECT * FROM test_planets WHERE id = :id AND name <> @skip")
        #expect(statement.parameterCount == 2)
        #expect(statement.parameterNames == [":id", "@skip"])
        #expect(try statement.fetchOne(TestPlanet.self, ["id": 4, "skip": ""])?.name == "Mars")
        #expect(try statement.fetchOne(TestPlanet.self, ["id": 4, "skip": "Mars"]) == nil)
        #expect(try statement.fetchAll(TestPlanet.self, ["id": 1, "skip": ""]).map(\.name) == ["Mercury"])
    }
}
