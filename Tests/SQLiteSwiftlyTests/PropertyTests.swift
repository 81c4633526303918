import Foundation
import PropertyBased
import SQLiteSwiftly
import Synchronization
import Testing

/// A model with one column of each kind of value, filled with random values.
struct RandomRow: TableModel, Equatable {
    var id: Int
    var number: Int64
    var real: Double
    var text: String
    var bytes: [UInt8]
    var flag: Bool
    var maybe: Int?
    var maybeText: String?

    static let tableName = "random rows"
    static let columns = [
        Column("id", Int.self, primaryKey: true),
        Column("number", Int64.self),
        Column("real", Double.self),
        Column("text", String.self),
        Column("bytes", [UInt8].self),
        Column("flag", Bool.self),
        Column("maybe", Int?.self),
        Column("maybe text", String?.self),
    ]

    init(
        id: Int, number: Int64, real: Double, text: String, bytes: [UInt8], flag: Bool, maybe: Int?,
        maybeText: String?
    ) {
        (self.id, self.number, self.real, self.text) = (id, number, real, text)
        (self.bytes, self.flag, self.maybe, self.maybeText) = (bytes, flag, maybe, maybeText)
    }

    init(row: borrowing Row) throws {
        (id, number, real, text) = (try row[0], try row[1], try row[2], try row[3])
        (bytes, flag, maybe, maybeText) = (try row[4], try row[5], try row[6], try row[7])
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(number)
        try encoder.encode(real)
        try encoder.encode(text)
        try encoder.encode(bytes)
        try encoder.encode(flag)
        try encoder.encode(maybe)
        try encoder.encode(maybeText)
    }
}

/// Names for ``RandomlyNamed``, set per test task, so that parallel tests never share them.
enum RandomNames {
    @TaskLocal static var table = "t"
    @TaskLocal static var column = "c"
}

/// A model whose table and column names are random unicode strings.
struct RandomlyNamed: TableModel, Equatable {
    var id: Int
    var value: String
    static var tableName: String { RandomNames.table }
    static var columns: [Column] {
        [Column("id", Int.self, primaryKey: true), Column(RandomNames.column, String.self)]
    }

    init(id: Int, value: String) {
        (self.id, self.value) = (id, value)
    }

    init(row: borrowing Row) throws {
        (id, value) = (try row[0], try row[1])
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(value)
    }
}

/// Random strings of any unicode scalars (surrogate code points, which are not scalars, are dropped), NUL included.
let anyText = Gen<UInt32>.value(in: 0...0x10FFFF).array(of: 0...40)
    .map { codes in String(String.UnicodeScalarView(codes.compactMap(Unicode.Scalar.init))) }

/// Counts the inputs a property test tried, for the figures it prints.
final class InputCounter: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

@Suite struct PropertyTests {
    @Test("random models round-trip through insert and readAll unchanged")
    func modelsRoundTrip() async throws {
        let db = try Connection.inMemory()
        try db.createTable(for: RandomRow.self)
        let insert = try db.makeInsertStatement(for: RandomRow.self)
        let counter = InputCounter()
        await propertyCheck(
            count: 500, input: Gen.int64(), Gen.double(in: -1e300...1e300), anyText,
            Gen.uint8().array(of: 0...64), Gen.int().optional, anyText.optional
        ) { number, real, text, bytes, maybe, maybeText in
            counter.add()
            let id = counter.value
            let row = RandomRow(
                id: id, number: number, real: real, text: text, bytes: bytes, flag: id % 2 == 0, maybe: maybe,
                maybeText: maybeText)
            _ = try insert.insert(row)
            #expect(try db.fetchOne(RandomRow.self, where: "id = ?", [id]) == row)
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM \"random rows\"") == counter.value)
        #expect(counter.value > 0, "no random model was tried")
    }

    @Test("random values of every storage class round-trip through a bound parameter")
    func valuesRoundTrip() async throws {
        let db = try Connection.inMemory()
        let counter = InputCounter()
        await propertyCheck(
            count: 500, input: Gen.int64(), Gen.double(in: -1e300...1e300), anyText, Gen.uint8().array(of: 0...64)
        ) { integer, real, text, bytes in
            for value in [SQLiteValue.null, .integer(integer), .real(real), .text(text), .blob(bytes)] {
                counter.add()
                let rows = try db.fetchAll(UntypedRow.self, "SELECT ?", StatementArguments([value]))
                #expect(rows.map(\.values) == [[value]])
            }
        }
        #expect(counter.value > 0, "no random value was tried")
    }

    @Test("random unicode table and column names work through createTable, insert and readAll")
    func randomIdentifiers() async throws {
        let counter = InputCounter()
        let names = anyText.filter { name in
            !name.isEmpty && !name.contains("\0") && !name.lowercased().hasPrefix("sqlite_")
        }
        await propertyCheck(count: 200, input: names, names, anyText) { table, column, value in
            guard column.lowercased() != "id" else { return }
            counter.add()
            try RandomNames.$table.withValue(table) {
                try RandomNames.$column.withValue(column) {
                    let db = try Connection.inMemory()
                    try db.createTable(for: RandomlyNamed.self)
                    let row = RandomlyNamed(id: 1, value: value)
                    _ = try db.makeInsertStatement(for: RandomlyNamed.self).insert(row)
                    #expect(try db.fetchAll(RandomlyNamed.self) == [row])
                }
            }
        }
        #expect(counter.value > 0, "no random name was tried")
    }
}
