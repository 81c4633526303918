import Foundation
import SQLiteSwiftly
import Testing

/// Arguments are checked against a statement's parameters (count, and names) before any step.
@Suite struct StatementArgumentsTests {
    @Test("too few or too many positional arguments are refused, and nothing runs", arguments: [1, 3])
    func positionalCount(count: Int) throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (a, b)")
        let insert = try db.prepare("INSERT INTO t VALUES (?, ?)")
        let arguments = StatementArguments(Array(repeating: 7, count: count))
        let error = try #require(sqliteError { try insert.execute(arguments) })
        #expect(error.kind == .parameterMismatch)
        #expect(error.code == .range)
        #expect(error.message.contains("2 parameters"))
        #expect(error.sql == "INSERT INTO t VALUES (?, ?)")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 0)
        // Same through the connection's cached path.
        #expect(sqliteError { try db.execute("INSERT INTO t VALUES (?, ?)", arguments) }?.kind == .parameterMismatch)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 0)
    }

    @Test("arguments given to SQL without parameters are refused")
    func argumentsWithoutParameters() throws {
        let db = try Connection.inMemory()
        let statement = try db.prepare("SELECT 1")
        #expect(sqliteError { try statement.fetchAll(UntypedRow.self, [1]) }?.kind == .parameterMismatch)
        #expect(sqliteError { try statement.fetchAll(UntypedRow.self, ["a": 1]) }?.kind == .parameterMismatch)
        #expect(try statement.fetchAll(UntypedRow.self).count == 1)
    }

    @Test("a missing named argument is refused, naming the parameter, and nothing runs")
    func missingNamed() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (a, b)")
        let insert = try db.prepare("INSERT INTO t VALUES (:a, :b)")
        let error = try #require(sqliteError { try insert.execute(["a": 1]) })
        #expect(error.kind == .parameterMismatch)
        #expect(error.parameter == ":b")
        #expect(error.message.contains(":b"))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 0)
    }

    @Test("an extra named argument is refused, naming it, and nothing runs")
    func extraNamed() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (a, b)")
        let insert = try db.prepare("INSERT INTO t VALUES (:a, :b)")
        let error = try #require(sqliteError { try insert.execute(["a": 1, "b": 2, "c": 3]) })
        #expect(error.kind == .parameterMismatch)
        #expect(error.parameter == "c")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 0)
    }

    @Test("a misnamed argument is refused, naming the parameter left without a value")
    func misnamed() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (a, b)")
        let insert = try db.prepare("INSERT INTO t VALUES (:a, :b)")
        let error = try #require(sqliteError { try insert.execute(["a": 1, "bb": 2]) })
        #expect(error.kind == .parameterMismatch)
        #expect(error.parameter == ":b")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 0)
    }

    @Test("named arguments match with or without their prefix, for :, @ and $ parameters")
    func namedPrefixes() throws {
        let db = try Connection.inMemory()
        let statement = try db.prepare("SELECT :a, @b, $c")
        let bare = try statement.fetchAll(UntypedRow.self, ["a": 1, "b": 2, "c": 3])
        #expect(bare.map(\.values) == [[.integer(1), .integer(2), .integer(3)]])
        let prefixed = try statement.fetchAll(UntypedRow.self, [":a": 4, "@b": 5, "$c": 6])
        #expect(prefixed.map(\.values) == [[.integer(4), .integer(5), .integer(6)]])
    }

    @Test("a repeated named parameter takes one argument")
    func repeatedNamed() throws {
        let db = try Connection.inMemory()
        let statement = try db.prepare("SELECT :x + :x")
        #expect(statement.parameterCount == 1)
        #expect(try statement.fetchAll(UntypedRow.self, ["x": 20]).first?.values == [.integer(40)])
    }

    @Test("named arguments for positional parameters are refused, naming the parameter")
    func namedForPositional() throws {
        let db = try Connection.inMemory()
        let statement = try db.prepare("SELECT ?, ?")
        let error = try #require(sqliteError { try statement.fetchAll(UntypedRow.self, ["a": 1, "b": 2]) })
        #expect(error.kind == .parameterMismatch)
        #expect(error.parameter == "?1")
        #expect(error.message.contains("positional"))
    }

    @Test("positional arguments bind named parameters in order of first appearance")
    func positionalForNamed() throws {
        let db = try Connection.inMemory()
        let statement = try db.prepare("SELECT :b, :a")
        #expect(try statement.fetchAll(UntypedRow.self, [1, 2]).first?.values == [.integer(1), .integer(2)])
        #expect(sqliteError { try statement.fetchAll(UntypedRow.self, [1]) }?.kind == .parameterMismatch)
    }

    @Test("numbered parameters take as many arguments as the largest number")
    func numberedParameters() throws {
        let db = try Connection.inMemory()
        let statement = try db.prepare("SELECT ?2, ?1")
        #expect(statement.parameterCount == 2)
        #expect(try statement.fetchAll(UntypedRow.self, ["x", "y"]).first?.values == [.text("y"), .text("x")])
        #expect(sqliteError { try statement.fetchAll(UntypedRow.self, ["x"]) }?.kind == .parameterMismatch)
    }

    @Test("no arguments, however written, are one value: refused by parameters, and joined fragments keep their values")
    func emptyArguments() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (a, b)")
        for empty in [StatementArguments.none, StatementArguments([]), []] {
            #expect(empty == .none && empty.hashValue == StatementArguments.none.hashValue && empty.isEmpty)
            let error = sqliteError { try db.execute("INSERT INTO t VALUES (?, ?)", empty) }
            #expect(error?.kind == .parameterMismatch)
            #expect(error?.message.contains("2 parameters but 0 arguments") == true)
        }
        #expect(StatementArguments([1]) != .none && StatementArguments(named: [:]) != .none)
        // Fragments without values, before and after ones with values, keep every value in order.
        let a = 1
        let b = "two"
        let joined = SQL("INSERT INTO t ") + "VALUES (\(a), " + SQL(verbatim: "") + "\(b))" + "  "
        #expect(joined.arguments == [1, "two"])
        try db.execute(joined)
        #expect(try db.fetchAll(UntypedRow.self, "SELECT a, b FROM t").map(\.values) == [[.integer(1), .text("two")]])
        #expect((SQL("SELECT 1") + SQL(verbatim: " ")).arguments == .none)
    }

    @Test("a named argument given twice in a literal is refused instead of keeping one of its values")
    func repeatedName() throws {
        let db = try Connection.inMemory()
        let arguments: StatementArguments = ["a": 1, "a": 2]
        let error = sqliteError { try db.fetchValue(Int.self, "SELECT :a", arguments) }
        #expect(error?.kind == .parameterMismatch)
        #expect(error?.message.contains("\"a\" is given twice") == true)
        let distinct: StatementArguments = ["a": 1, "b": 2]
        #expect(try db.fetchValue(Int.self, "SELECT :a + :b", distinct) == 3)
    }

    @Test("a name two result columns share is refused by Row's subscript and gives nil in an UntypedRow")
    func ambiguousColumnName() throws {
        struct ByName: RowDecodable {
            var id: Int
            init(row: borrowing Row) throws { id = try row["id"] }
        }
        let db = try Connection.inMemory()
        let error = sqliteError { try db.fetchOne(ByName.self, "SELECT 1 AS id, 2 AS ID") }
        #expect(error?.kind == .conversionFailed)
        #expect(error?.message.contains("2 columns named \"id\"") == true)
        #expect(error?.column == "id")
        #expect(try db.fetchOne(ByName.self, "SELECT 1 AS id, 2 AS other")?.id == 1)
        let row = try #require(try db.fetchOne(UntypedRow.self, "SELECT 1 AS id, 2 AS id, 3 AS other"))
        #expect(row["id"] == nil)
        #expect(row["OTHER"] == .integer(3))
        #expect(row[1] == .integer(2))
    }
}
