import Foundation
import SQLiteSwiftly
import Testing

/// `Statement.run(_:binding:)` and `Statement.fetchOne(_:binding:)`: typed arguments bound in place.
@Suite struct TypedArgumentsTests {
    /// A connection whose `test_planets` table holds four planets; Mars has an unknown moon count.
    private func error(_ body: () throws -> some Any) -> SQLiteError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? SQLiteError
        }
    }

    @Test("fetchOne(_:binding:) finds a row by key, and nil for a key that is not there")
    func pointLookup() throws {
        let db = try planetsDatabase()
        let byID = try db.prepare("SELECT * FROM test_planets WHERE id = ?")
        #expect(try byID.fetchOne(TestPlanet.self, binding: 3)?.name == "Earth")
        #expect(try byID.fetchOne(TestPlanet.self, binding: 4)?.moons == nil)
        #expect(try byID.fetchOne(TestPlanet.self, binding: 99) == nil)
        #expect(try byID.fetchOne(TestPlanet.self, binding: 1)?.name == "Mercury")
    }

    @Test("run(_:binding:) binds values of different types in order")
    func severalValues() throws {
        let db = try planetsDatabase()
        let query = try db.prepare("SELECT * FROM test_planets WHERE au < ? AND name <> ? ORDER BY id")
        #expect(try query.fetchAll(TestPlanet.self, binding: 1.2, "Venus").map(\.name) == ["Mercury", "Earth"])
        #expect(try query.fetchAll(TestPlanet.self, binding: 0.5, "Mercury").isEmpty)
        let all = try db.prepare("SELECT * FROM test_planets")
        #expect(try all.fetchAll(TestPlanet.self).count == 4)
    }

    @Test("a nil optional binds NULL")
    func nilBindsNull() throws {
        let db = try planetsDatabase()
        let query = try db.prepare("SELECT ? IS NULL, ? IS NULL")
        let none: Int? = nil
        let some: String? = "x"
        #expect(try query.fetchOne(UntypedRow.self, binding: none, some)?.values == [1, 0])
    }

    @Test("too few or too many values is a parameter mismatch before anything runs; the statement stays usable")
    func countMismatch() throws {
        let db = try planetsDatabase()
        let delete = try db.prepare("DELETE FROM test_planets WHERE id = ? RETURNING id")
        let tooMany = try #require(error { try delete.fetchAll(UntypedRow.self, binding: 1, 2) })
        #expect(tooMany.kind == .parameterMismatch)
        #expect(tooMany.sql == delete.sql)
        #expect(tooMany.description.contains("1 parameters but 2 arguments"))
        #expect(error { try delete.fetchOne(UntypedRow.self) }?.kind == .parameterMismatch)
        #expect(try db.fetchValue(Int.self, "SELECT COUNT(*) FROM test_planets") == 4)
        #expect(try delete.fetchAll(UntypedRow.self, binding: 2).map(\.values) == [[2]])
        #expect(try db.fetchValue(Int.self, "SELECT COUNT(*) FROM test_planets") == 3)
    }

    @Test("NaN is refused naming the parameter, and no value of the failed run leaks into the next")
    func nanRefused() throws {
        let db = try planetsDatabase()
        let query = try db.prepare("SELECT :name, :au")
        let nan = try #require(error { try query.fetchOne(UntypedRow.self, binding: "secret", Double.nan) })
        #expect(nan.kind == .conversionFailed)
        #expect(nan.parameter == ":au")
        #expect(nan.sql == "SELECT :name, :au")
        #expect(!nan.description.contains("secret"))
        #expect(try query.fetchOne(UntypedRow.self, binding: "Mars", 1.5)?.values == ["Mars", 1.5])
    }
}
