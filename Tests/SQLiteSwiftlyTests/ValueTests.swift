import Foundation
import Testing

@testable import SQLiteSwiftly

/// One value round trip: stored through a table model and through a bound argument, then read back.
struct ValueRoundTrip: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let run: @Sendable () throws -> Void

    /// Stores `value` in a column created from `TestSingleValue<Value>` and expects to read back an equal value
    /// whose SQL `typeof` is `storedType`.
    static func of<Value: SQLiteValueConvertible & Equatable & Sendable>(
        _ value: Value, stored storedType: String, _ label: String? = nil
    ) -> ValueRoundTrip {
        ValueRoundTrip(testDescription: label ?? "\(Value.self) \(String(reflecting: value))") {
            // Through a table model: createTable, InsertStatement, readAll.
            let db = try Connection.inMemory()
            try db.createTable(for: TestSingleValue<Value>.self)
            let insert = try db.makeInsertStatement(for: TestSingleValue<Value>.self)
            try insert.insert(TestSingleValue(value))
            let rows = try db.fetchAll(TestSingleValue<Value>.self)
            #expect(rows.map(\.value) == [value])
            #expect(try db.fetchValue(String.self, "SELECT typeof(value) FROM test_values") == storedType)
            // Through a bound argument into an untyped column, read back by fetchValue.
            try db.execute("CREATE TABLE loose (x)")
            try db.execute("INSERT INTO loose VALUES (?)", [value])
            #expect(try db.fetchValue(Value.self, "SELECT x FROM loose") == value)
            #expect(try db.fetchValue(String.self, "SELECT typeof(x) FROM loose") == storedType)
        }
    }
}

/// One conversion that must fail while reading: raw SQL stores a value, a model reads it.
struct BadStoredValue: Sendable, CustomTestStringConvertible {
    let testDescription: String
    /// A value stored in row 1 that reads fine, so that the error must name row 2.
    let goodLiteral: String
    let sqlLiteral: String
    let read: @Sendable (Connection) throws -> Void

    static func reading<Value: SQLiteValueConvertible & Sendable>(
        _ sqlLiteral: String, as type: Value.Type, after goodLiteral: String = "1"
    ) -> BadStoredValue {
        BadStoredValue(
            testDescription: "\(sqlLiteral) read as \(Value.self)", goodLiteral: goodLiteral, sqlLiteral: sqlLiteral
        ) { db in
            _ = try db.fetchAll(TestLooseValue<Value>.self, where: "1 ORDER BY rowid")
        }
    }
}

@Suite struct ValueTests {
    static let roundTrips: [ValueRoundTrip] = [
        .of(0, stored: "integer"),
        .of(Int.max, stored: "integer"),
        .of(Int.min, stored: "integer"),
        .of(Int64.min, stored: "integer"),
        .of(Int64.max, stored: "integer"),
        .of(Int32.min, stored: "integer"),
        .of(Int32.max, stored: "integer"),
        .of(Int8.min, stored: "integer"),
        .of(Int8.max, stored: "integer"),
        .of(Int16.min, stored: "integer"),
        .of(UInt8.max, stored: "integer"),
        .of(UInt32.max, stored: "integer"),
        .of(UInt64(Int64.max), stored: "integer"),
        .of(UInt64(0), stored: "integer"),
        .of(3.25, stored: "real"),
        .of(-2.5e-300, stored: "real"),
        .of(Double.infinity, stored: "real"),
        .of(-Double.infinity, stored: "real"),
        .of(Double.greatestFiniteMagnitude, stored: "real"),
        .of(Float(1.5), stored: "real"),
        .of(Float.leastNonzeroMagnitude, stored: "real"),
        .of("Mars", stored: "text"),
        .of("", stored: "text", "String empty"),
        .of("a\0b", stored: "text", "String with embedded NUL"),
        .of("\0", stored: "text", "String of one NUL"),
        .of("🪐 Saturn — ça va", stored: "text", "String with emoji and accents"),
        .of(String(repeating: "long ", count: 10_000), stored: "text", "String of 50 000 bytes"),
        .of(true, stored: "integer"),
        .of(false, stored: "integer"),
        .of(Data([0, 1, 2, 255]), stored: "blob"),
        .of(Data(), stored: "blob", "Data empty"),
        .of([UInt8]([0, 0, 0]), stored: "blob", "[UInt8] of NULs"),
        .of([UInt8](), stored: "blob", "[UInt8] empty"),
        .of(Int?.some(5), stored: "integer"),
        .of(Int?.none, stored: "null"),
        .of(Int64?.none, stored: "null"),
        .of(Int32?.none, stored: "null"),
        .of(Double?.none, stored: "null"),
        .of(Float?.none, stored: "null"),
        .of(Int8?.none, stored: "null"),
        .of(UInt8?.none, stored: "null"),
        .of(UInt64?.none, stored: "null"),
        .of(Int16?.some(-7), stored: "integer"),
        .of(UInt16.max, stored: "integer"),
        .of(UInt.min, stored: "integer"),
        .of(String?.none, stored: "null"),
        .of(String?.some(""), stored: "text", "String? empty, not NULL"),
        .of(Bool?.none, stored: "null"),
        .of(Bool?.some(true), stored: "integer"),
        .of(Data?.none, stored: "null"),
        .of(Data?.some(Data()), stored: "blob", "Data? empty, not NULL"),
        .of([UInt8]?.none, stored: "null"),
        .of([UInt8]?.some([]), stored: "blob", "[UInt8]? empty, not NULL"),
    ]

    @Test("values round-trip exactly, with the expected storage class", arguments: roundTrips)
    func roundTrip(_ roundTrip: ValueRoundTrip) throws {
        try roundTrip.run()
    }

    @Test("a string with an embedded NUL keeps all its bytes in SQL")
    func embeddedNulLength() throws {
        let db = try Connection.inMemory()
        #expect(try db.fetchValue(Int.self, "SELECT length(CAST(? AS BLOB))", ["a\0b"]) == 3)
        #expect(try db.fetchValue(Int.self, "SELECT length(?)", [Data()]) == 0)
        #expect(try db.fetchValue(String.self, "SELECT typeof(?)", [[UInt8]()]) == "blob")
    }

    @Test("columns declared from Swift types get the matching SQL type and nullability")
    func declaredTypes() {
        #expect(Column("a", Int.self) == Column("a", .integer))
        #expect(Column("a", Bool?.self) == Column("a", .integer, nullable: true))
        #expect(Column("a", Double.self).type == .real)
        #expect(Column("a", Float.self).type == .real)
        #expect(Column("a", String.self).type == .text)
        #expect(Column("a", Data.self).type == .blob)
        #expect(Column("a", Optional<[UInt8]>.self).isNullable)
        #expect(!Column("a", [UInt8].self).isNullable)
    }

    static let badStoredValues: [BadStoredValue] = [
        .reading("NULL", as: Int.self),
        .reading("NULL", as: String.self, after: "'ok'"),
        .reading("NULL", as: Data.self, after: "X'AA'"),
        .reading("NULL", as: Bool.self),
        .reading("NULL", as: Double.self),
        .reading("'12'", as: Int.self),
        .reading("'text'", as: Int64.self),
        .reading("3.5", as: Int.self),
        .reading("3.0", as: Int.self),
        .reading("X'01'", as: Int.self),
        .reading("300", as: Int8.self),
        .reading("-1", as: UInt8.self),
        .reading("-1", as: UInt64.self),
        .reading("1099511627776", as: Int32.self),
        .reading("2", as: Bool.self),
        .reading("-1", as: Bool.self),
        .reading("'true'", as: Bool.self),
        .reading("'1.5'", as: Double.self),
        .reading("X'00'", as: Double.self),
        .reading("42", as: String.self, after: "'ok'"),
        .reading("X'FF'", as: String.self, after: "'ok'"),
        .reading("4.5", as: Data.self, after: "X'AA'"),
        .reading("'x'", as: Int?.self),
        .reading("300", as: Int8?.self),
    ]

    @Test(
        "a stored value that does not fit the Swift type is an error naming table, column and row",
        arguments: badStoredValues)
    func readingErrors(_ bad: BadStoredValue) throws {
        let db = try Connection.inMemory()
        // A BLOB column has no type affinity: values are stored exactly as written.
        try db.createTable(for: TestLooseValue<Int>.self)
        try db.execute(SQL(verbatim: "INSERT INTO test_values VALUES (\(bad.goodLiteral))"))
        try db.execute(SQL(verbatim: "INSERT INTO test_values VALUES (\(bad.sqlLiteral))"))
        do {
            try bad.read(db)
            Issue.record("reading \(bad.sqlLiteral) succeeded")
        } catch let error as SQLiteError {
            #expect(error.kind == .conversionFailed)
            #expect(error.table == "test_values")
            #expect(error.column == "value")
            #expect(error.row == 2)
            #expect(error.description.contains("row 2"))
        }
    }

    @Test("reading errors name the row within the results, not the row id")
    func readingErrorRowNumber() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: TestLooseValue<Int>.self)
        try db.execute("INSERT INTO test_values VALUES (1), (2), (3), (NULL), (5)")
        do {
            _ = try db.fetchAll(TestLooseValue<Int>.self, where: "value IS NULL OR value > 2")
            Issue.record("reading NULL as Int succeeded")
        } catch let error as SQLiteError {
            #expect(error.row == 2)
            #expect(error.message.contains("NULL"))
        }
    }

    @Test("bad data in a table created from the model itself is a conversion error naming table, column, row")
    func readingErrorsFromTypedTable() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: TestSingleValue<Int8>.self)
        // INTEGER affinity keeps text that does not look like a number as TEXT, and 300 as INTEGER.
        try db.execute("INSERT INTO test_values VALUES (1), (300)")
        do {
            _ = try db.fetchAll(TestSingleValue<Int8>.self)
            Issue.record("reading 300 as Int8 succeeded")
        } catch let error as SQLiteError {
            #expect(error.kind == .conversionFailed)
            #expect(error.message.contains("Int8"))
            #expect((error.table, error.column, error.row) == ("test_values", "value", 2))
        }
        try db.execute("DELETE FROM test_values")
        try db.execute("INSERT INTO test_values VALUES ('twelve')")
        do {
            _ = try db.fetchAll(TestSingleValue<Int>.self)
            Issue.record("reading TEXT as Int succeeded")
        } catch let error as SQLiteError {
            #expect(error.kind == .conversionFailed)
            #expect(error.message.contains("TEXT"))
            #expect((error.table, error.column, error.row) == ("test_values", "value", 1))
        }
    }

    @Test("Swift values SQLite cannot store are refused when bound, naming the parameter")
    func bindingErrors() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x)")
        let cases: [(String, StatementArguments)] = [
            ("UInt64.max", [UInt64.max]),
            ("UInt.max", [UInt.max]),
            ("Double.nan", [Double.nan]),
            ("Float.nan", [Float.nan]),
            ("Double?.some(.nan)", [Double?.some(.nan)]),
        ]
        for (label, arguments) in cases {
            do throws(SQLiteError) {
                try db.execute("INSERT INTO t VALUES (?)", arguments)
                Issue.record("binding \(label) succeeded")
            } catch {
                #expect(error.kind == .conversionFailed, "\(label)")
                #expect(error.parameter == "?1", "\(label)")
                #expect(error.sql == "INSERT INTO t VALUES (?)", "\(label)")
            }
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 0)
    }

    @Test("a REAL too large for Float is refused instead of read as infinity; infinities still round-trip")
    func floatRange() throws {
        let db = try Connection.inMemory()
        do throws(SQLiteError) {
            _ = try db.fetchValue(Float.self, "SELECT 1e300")
            Issue.record("reading 1e300 as Float succeeded")
        } catch {
            #expect(error.kind == .conversionFailed)
            #expect(error.message.contains("out of range for Float"))
        }
        #expect(throws: SQLiteError.self) { try Float(sqliteValue: .real(-1e300)) }
        #expect(try db.fetchValue(Float.self, "SELECT ?", [Float.infinity]) == .infinity)
        #expect(try db.fetchValue(Float.self, "SELECT 3.5") == 3.5)
        #expect(try Float(sqliteValue: .real(Double(Float.greatestFiniteMagnitude))) == .greatestFiniteMagnitude)
    }

    @Test("a REAL that would read as a zero Float is refused; zero, subnormal floats and negative zero still read")
    func floatUnderflow() throws {
        let db = try Connection.inMemory()
        for literal in ["1e-60", "-1e-50"] {
            let error = sqliteError { try db.fetchValue(Float.self, SQL(verbatim: "SELECT \(literal)")) }
            #expect(error?.kind == .conversionFailed)
        }
        #expect(try db.fetchValue(Float.self, "SELECT 0.0") == 0)
        #expect(try db.fetchValue(Float.self, "SELECT -0.0") == 0)
        #expect(try db.fetchValue(Float.self, "SELECT ?", [Float.leastNonzeroMagnitude]) == .leastNonzeroMagnitude)
        #expect(try Float(sqliteValue: .real(1e-40)) > 0)
    }

    @Test(
        "an INTEGER a Double would round is refused; every integer a Double holds exactly still reads",
        arguments: [Int64(1) << 53 + 1, -(Int64(1) << 53) - 1, Int64.max, Int64.min + 1, 123_456_789_012_345_679])
    func inexactDouble(integer: Int64) throws {
        let db = try Connection.inMemory()
        let error = sqliteError { try db.fetchValue(Double.self, "SELECT \(integer)") }
        #expect(error?.kind == .conversionFailed)
        #expect(error?.message.contains("no exact Double") == true)
        #expect(throws: SQLiteError.self) { try Double(sqliteValue: .integer(integer)) }
        #expect(throws: SQLiteError.self) { try db.fetchValue(Float.self, "SELECT \(integer)") }
        #expect(try db.fetchValue(Int64.self, "SELECT \(integer)") == integer)
        // Neighbours that a double holds exactly: 2^53, powers of two, Int64.min.
        for exact in [Int64(1) << 53, -(Int64(1) << 53), Int64(1) << 62, Int64.min, 0, 1, -1] {
            #expect(try db.fetchValue(Double.self, "SELECT \(exact)") == Double(exact))
            #expect(try Double(sqliteValue: .integer(exact)) == Double(exact))
        }
    }

    @Test("a model value SQLite cannot store is refused, naming table and column, and nothing is inserted")
    func modelBindingErrors() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: TestPlanet.self)
        let insert = try db.makeInsertStatement(for: TestPlanet.self)
        do {
            try insert.insert(TestPlanet(id: 1, name: "Nowhere", au: .nan, moons: nil))
            Issue.record("inserting NaN succeeded")
        } catch let error as SQLiteError {
            #expect(error.kind == .conversionFailed)
            #expect(error.table == "test_planets")
            #expect(error.column == "au")
        }
        try db.createTable(for: TestSingleValue<UInt64>.self)
        let unsigned = try db.makeInsertStatement(for: TestSingleValue<UInt64>.self)
        do {
            try unsigned.insert(TestSingleValue(UInt64.max))
            Issue.record("inserting UInt64.max succeeded")
        } catch let error as SQLiteError {
            #expect(error.kind == .conversionFailed)
            #expect(error.table == "test_values")
            #expect(error.column == "value")
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_planets") == 0)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM test_values") == 0)
        try insert.insert(TestPlanet.inner[0])
        #expect(try db.fetchAll(TestPlanet.self) == [TestPlanet.inner[0]])
    }

    @Test("SQLiteValue converts through the protocol's own initializers")
    func sqliteValueConversions() throws {
        #expect(try Int(sqliteValue: .integer(3)) == 3)
        #expect(throws: SQLiteError.self) { try Int8(sqliteValue: .integer(300)) }
        #expect(throws: SQLiteError.self) { try Int(sqliteValue: .real(1)) }
        #expect(try Double(sqliteValue: .integer(2)) == 2.0)
        #expect(throws: SQLiteError.self) { try Bool(sqliteValue: .integer(2)) }
        #expect(try String?(sqliteValue: .null) == nil)
        #expect(throws: SQLiteError.self) { try Double.nan.sqliteValue }
        #expect(throws: SQLiteError.self) { try UInt64.max.sqliteValue }
        #expect(try [UInt8](sqliteValue: .blob([])) == [])
        #expect(SQLiteValue.blob([1, 2]).description == "BLOB (2 bytes)")
        #expect(SQLiteValue.text("a").storageClass == .text)
    }
}

@Suite struct NegativeZeroTests {
    @Test("-0.0 reads back as +0.0 from REAL and NUMERIC columns (stored as an integer), as -0.0 without affinity")
    func negativeZero() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (r REAL, n NUMERIC, b BLOB, a)")
        try db.execute("INSERT INTO t VALUES (\(-0.0), \(-0.0), \(-0.0), \(-0.0))")
        let row = try #require(try db.fetchOne(UntypedRow.self, "SELECT r, n, b, a FROM t"))
        let signs = try row.values.map { value throws -> FloatingPointSign in
            try Double(sqliteValue: value).sign
        }
        #expect(signs == [.plus, .plus, .minus, .minus])
        #expect(row.values[1] == .integer(0))  // NUMERIC affinity stores the integer 0
    }
}
