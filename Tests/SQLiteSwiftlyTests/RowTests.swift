import Foundation
import SQLiteSwiftly
import Testing

/// Records what ``Row``'s accessors report for `SELECT 7 AS Id, 'Mars' AS name, NULL AS moons`.
private struct RowProbe: RowDecodable {
    var number: Int
    var count: Int
    var byIndex: Int
    var byName: String
    var byNameOtherCase: String
    var nullAsOptional: Int?
    var typed: Int64
    var raw: [SQLiteValue]
    var names: [String]
    var outOfRangeName: String
    var outOfRangeValue: SQLiteError?
    var indexOfName: Int?
    var indexOfMissing: Int?

    init(row: borrowing Row) throws {
        number = row.number
        count = row.count
        byIndex = try row[0]
        byName = try row["name"]
        byNameOtherCase = try row["NAME"]
        nullAsOptional = try row["moons"]
        typed = try row.value(at: 0, as: Int64.self)
        raw = []
        names = []
        for index in 0..<row.count {
            raw.append(try row.sqliteValue(at: index))
            names.append(row.columnName(at: index))
        }
        outOfRangeName = row.columnName(at: 9)
        do {
            _ = try row.sqliteValue(at: -1)
            outOfRangeValue = nil
        } catch {
            outOfRangeValue = error
        }
        indexOfName = row.index(of: "id")
        indexOfMissing = row.index(of: "nope")
    }
}

/// A row type that reads column 0 of the first row, and column 5 of the others.
private struct IndexReader: RowDecodable {
    var value: Int
    init(row: borrowing Row) throws {
        value = try row[row.number == 1 ? 0 : 5]
    }
}

/// A row type that reads a column that does not exist by name.
private struct NameReader: RowDecodable {
    var value: Int
    init(row: borrowing Row) throws {
        value = try row["missing"]
    }
}

@Suite struct RowTests {
    @Test("a row reads by index, by name ignoring case, and reports names, numbers and raw values")
    func accessors() throws {
        let db = try Connection.inMemory()
        let probes = try db.fetchAll(
            RowProbe.self, "SELECT 7 AS Id, 'Mars' AS name, NULL AS moons UNION ALL SELECT 8, 'x', 1")
        #expect(probes.map(\.number) == [1, 2])
        let probe = try #require(probes.first)
        #expect(probe.count == 3)
        #expect(probe.byIndex == 7)
        #expect(probe.byName == "Mars")
        #expect(probe.byNameOtherCase == "Mars")
        #expect(probe.nullAsOptional == nil)
        #expect(probes.last?.nullAsOptional == 1)
        #expect(probe.typed == 7)
        #expect(probe.raw == [.integer(7), .text("Mars"), .null])
        #expect(probe.names == ["Id", "name", "moons"])
        #expect(probe.outOfRangeName == "")
        #expect(probe.outOfRangeValue?.kind == .conversionFailed)  // an index out of range throws, it never reads NULL
        #expect(probe.indexOfName == 0)
        #expect(probe.indexOfMissing == nil)
    }

    @Test("an out-of-range column index is a conversion error naming the row, not a crash")
    func indexOutOfRange() throws {
        let db = try Connection.inMemory()
        do {
            _ = try db.fetchAll(IndexReader.self, "SELECT 1 UNION ALL SELECT 2")
            Issue.record("reading column 5 of a 1-column row succeeded")
        } catch let error as SQLiteError {
            #expect(error.kind == .conversionFailed)
            #expect(error.row == 2)
            #expect(error.message.contains("out of range"))
        }
    }

    @Test("a missing column name is a conversion error naming the column and row")
    func missingName() throws {
        let db = try Connection.inMemory()
        do {
            _ = try db.fetchAll(NameReader.self, "SELECT 1 AS present")
            Issue.record("reading a missing column succeeded")
        } catch let error as SQLiteError {
            #expect(error.kind == .conversionFailed)
            #expect(error.column == "missing")
            #expect(error.row == 1)
        }
    }

    @Test("a decoder's own error is passed through unchanged")
    func customDecoderError() throws {
        struct Refusal: Error, Equatable {}
        struct Refusing: RowDecodable {
            init(row: borrowing Row) throws { throw Refusal() }
        }
        let db = try Connection.inMemory()
        #expect(throws: Refusal()) { try db.fetchAll(Refusing.self, "SELECT 1") }
        #expect(try db.fetchValue(Int.self, "SELECT 2") == 2)
    }

    @Test("the widest result SQLite allows reads every column; one past the last is an error")
    func widestResult() throws {
        let db = try Connection.inMemory()
        let limit = db.limit(.columns)
        let sql = "SELECT " + (0..<limit).map { "\($0) AS c\($0)" }.joined(separator: ", ")
        let row = try #require(try db.fetchAll(UntypedRow.self, SQL(verbatim: sql)).first)
        #expect(row.values.count == limit)
        #expect(row[limit - 1] == .integer(Int64(limit - 1)))
        let statement = try db.prepare(SQL(verbatim: sql))
        let last = try statement.fetchValue(Int.self)
        #expect(last == 0)
        let error = sqliteError { _ = try db.fetchAll(OutOfRange.self, SQL(verbatim: sql)) }
        #expect(error?.kind == .conversionFailed)
        #expect(error?.message.contains("out of range") == true)
    }
}

/// Reads a column index past the result's last.
private struct OutOfRange: RowDecodable {
    init(row: borrowing Row) throws {
        _ = try row[row.count] as Int
    }
}
