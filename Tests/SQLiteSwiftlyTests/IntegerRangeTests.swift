import Foundation
import Testing

@testable import SQLiteSwiftly

/// Stores `value` in a fresh table whose column is declared from `V`, and reads it back with its storage class.
fileprivate func storeAndRead<V: SQLiteValueConvertible>(_ value: V) throws -> (value: V?, storage: String?) {
    let db = try Connection.inMemory()
    try db.execute(SQL(verbatim: "CREATE TABLE t (v \(V.declaredType.rawValue))"))
    try db.execute("INSERT INTO t (v) VALUES (?)", [value])
    return (try db.fetchValue(V.self, "SELECT v FROM t"), try db.fetchValue(String.self, "SELECT typeof(v) FROM t"))
}

/// Stores the raw INTEGER `stored`, then reads it as `V`.
fileprivate func read<V: SQLiteValueConvertible>(_ type: V.Type, stored: Int64) throws -> V? {
    let db = try Connection.inMemory()
    try db.execute("CREATE TABLE t (v INTEGER)")
    try db.execute("INSERT INTO t (v) VALUES (?)", [stored])
    return try db.fetchValue(V.self, "SELECT v FROM t")
}

/// One integer type's checks, built generically and run as a test argument.
struct IntegerTypeCase: Sendable, CustomTestStringConvertible {
    let name: String
    let roundTrip: @Sendable () throws -> Void
    let belowMin: Int64?
    let aboveMax: Int64?
    let readOutOfRange: @Sendable (Int64) throws -> Void
    var testDescription: String { name }

    init<V: FixedWidthInteger & SQLiteValueConvertible & Sendable>(_ type: V.Type) {
        name = "\(V.self)"
        roundTrip = {
            var values: [V] = [V.min, V.max, 0, 1, V.max / 2]
            if V.isSigned { values.append(-1) }
            for value in values where Int64(exactly: value) != nil {
                let (read, storage) = try storeAndRead(value)
                #expect(read == value, "\(V.self) \(value)")
                #expect(storage == "integer")
            }
        }
        belowMin = V.min == 0 ? -1 : (V.bitWidth < 64 ? Int64(V.min) - 1 : nil)
        aboveMax =
            V.bitWidth < 64 || (V.bitWidth == 64 && V.isSigned) ? (V.bitWidth < 64 ? Int64(V.max) + 1 : nil) : nil
        readOutOfRange = { stored in
            do {
                _ = try read(V.self, stored: stored)
                Issue.record("reading \(stored) as \(V.self) should fail")
            } catch let error as SQLiteError {
                #expect(error.kind == .conversionFailed)
                #expect(error.message.contains("out of range for \(V.self)"))
            }
        }
    }
}

let integerTypeCases: [IntegerTypeCase] = [
    IntegerTypeCase(Int.self), IntegerTypeCase(Int8.self), IntegerTypeCase(Int16.self), IntegerTypeCase(Int32.self),
    IntegerTypeCase(Int64.self), IntegerTypeCase(UInt.self), IntegerTypeCase(UInt8.self), IntegerTypeCase(UInt16.self),
    IntegerTypeCase(UInt32.self), IntegerTypeCase(UInt64.self),
]

@Suite struct IntegerRangeTests {
    @Test("every fixed-width integer round-trips its extremes as INTEGER", arguments: integerTypeCases)
    func roundTrip(type: IntegerTypeCase) throws {
        try type.roundTrip()
    }

    @Test("a stored integer outside the type's range is an error, never a wrap", arguments: integerTypeCases)
    func outOfRangeRead(type: IntegerTypeCase) throws {
        if let below = type.belowMin { try type.readOutOfRange(below) }
        if let above = type.aboveMax { try type.readOutOfRange(above) }
    }

    @Test("Int64.min and Int64.max are refused by the unsigned and smaller types")
    func extremesRefused() throws {
        for stored in [Int64.min, Int64.max] {
            for check in integerTypeCases where check.name != "Int64" && check.name != "Int" {
                if stored == Int64.max && (check.name == "UInt" || check.name == "UInt64") { continue }
                try check.readOutOfRange(stored)
            }
        }
    }

    @Test(
        "unsigned values above Int64.max are refused when bound, naming the parameter",
        arguments: [
            UInt64(Int64.max) + 1, UInt64.max,
        ])
    func unsignedAboveInt64Max(value: UInt64) throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (v INTEGER)")
        do {
            try db.execute("INSERT INTO t (v) VALUES (:v)", [":v": value])
            Issue.record("binding \(value) should fail")
        } catch {
            #expect(error.kind == .conversionFailed)
            #expect(error.message.contains("above Int64.max"))
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 0)
        #expect(throws: SQLiteError.self) { try value.sqliteValue }
        #expect(throws: SQLiteError.self) { try UInt(value).sqliteValue }
        #expect(try UInt64(Int64.max).sqliteValue == .integer(.max))
    }

    @Test(
        "integers refuse REAL, TEXT, BLOB and NULL instead of converting",
        arguments: [
            "1.5", "'12'", "x'01'", "NULL", "2.0",
        ])
    func integerRefusesOtherStorage(literal: String) throws {
        let db = try Connection.inMemory()
        do {
            _ = try db.fetchValue(Int.self, SQL(verbatim: "SELECT \(literal)"))
            Issue.record("reading \(literal) as Int should fail")
        } catch {
            #expect(error.kind == .conversionFailed)
        }
        #expect(try db.fetchValue(Int?.self, "SELECT NULL") == .some(nil))
    }

    @Test("Bool is INTEGER 0 or 1; other integers are refused", arguments: [(0, false), (1, true)])
    func bool(stored: Int64, value: Bool) throws {
        #expect(try read(Bool.self, stored: stored) == value)
        let (read, storage) = try storeAndRead(value)
        #expect(read == value)
        #expect(storage == "integer")
    }

    @Test("Bool refuses 2 and -1", arguments: [2, -1] as [Int64])
    func boolRefuses(stored: Int64) throws {
        #expect(throws: SQLiteError.self) { try read(Bool.self, stored: stored) }
    }
}
