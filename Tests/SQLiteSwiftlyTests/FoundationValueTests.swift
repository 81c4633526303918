import Foundation
import Testing

@testable import SQLiteSwiftly

enum FoundationStatus: String, SQLiteValueConvertible, Sendable {
    case active, archived
}

enum FoundationPriority: Int, SQLiteValueConvertible, Sendable {
    case low = 1, high = 9
}

/// The custom type from ``SQLiteValueConvertible``'s documentation.
private struct Celsius: SQLiteValueConvertible, Equatable {
    var degrees: Double
    static let declaredType = DeclaredType.real

    init(degrees: Double) {
        self.degrees = degrees
    }

    init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        guard case .real(let value) = sqliteValue else { throw .conversion("expected REAL") }
        degrees = value
    }

    var sqliteValue: SQLiteValue { .real(degrees) }
}

/// A deterministic generator (SplitMix64), so that failures reproduce.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random time intervals: across years 0001–9999, near 2001-01-01 (tiny and sub-second), and before 1970.
private func randomIntervals(count: Int, seed: UInt64) -> [Double] {
    var random = SplitMix(state: seed)
    return (0..<count).map { index in
        switch index % 6 {
        case 0: Double.random(in: -63_113_904_000...252_423_993_599, using: &random)  // 0001...9999
        case 1: Double.random(in: -2...2, using: &random)  // around the reference date
        case 2: (Bool.random(using: &random) ? 1 : -1) * pow(10, Double.random(in: -300...3, using: &random))
        case 3: Double.random(in: -978_307_200 - 1e9 ... -978_307_200, using: &random)  // before 1970
        case 4: Double(Int64.random(in: -63_113_904_000...252_423_993_599, using: &random))  // whole seconds
        default: Double.random(in: 0...1e9, using: &random).rounded() + Double.random(in: 0..<1, using: &random)
        }
    }
}

private func roundTrip<V: SQLiteValueConvertible>(_ value: V) throws -> (value: V?, storage: String?) {
    let db = try Connection.inMemory()
    try db.execute(SQL(verbatim: "CREATE TABLE t (v \(V.declaredType.rawValue))"))
    try db.execute("INSERT INTO t (v) VALUES (?)", [value])
    return (try db.fetchValue(V.self, "SELECT v FROM t"), try db.fetchValue(String.self, "SELECT typeof(v) FROM t"))
}

@Suite struct FoundationValueTests {
    // MARK: - Date

    @Test("Date text is exact: 120,000 random dates read back bit for bit")
    func dateTextIsExact() throws {
        for interval in randomIntervals(count: 120_000, seed: 42) {
            let text = try DateText.format(sinceReferenceDate: interval)
            let back = try DateText.parse(text)
            #expect(back.bitPattern == interval.bitPattern, "\(interval) → \(text) → \(back)")
            if back.bitPattern != interval.bitPattern { break }
        }
    }

    @Test("Dates round-trip through a table exactly, and sort like the dates")
    func dateThroughTable() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        let dates = randomIntervals(count: 3000, seed: 7).map(Date.init(timeIntervalSinceReferenceDate:))
        try db.transaction {
            for date in dates { try db.execute("INSERT INTO t (v) VALUES (?)", [date]) }
        }
        let read = try db.fetchAll(SingleDate.self, "SELECT v FROM t ORDER BY id").map(\.value)
        #expect(read == dates)
        let sorted = try db.fetchAll(SingleDate.self, "SELECT v FROM t ORDER BY v").map(\.value)
        #expect(sorted == dates.sorted())
        #expect(try db.fetchValue(String.self, "SELECT DISTINCT typeof(v) FROM t") == "text")
    }

    @Test(
        "Date text is pinned: UTC, at least milliseconds, more digits only when needed",
        arguments: [
            (0.0, "2001-01-01 00:00:00.000"), (0.5, "2001-01-01 00:00:00.500"),
            (-0.25, "2000-12-31 23:59:59.750"), (-978_307_200, "1970-01-01 00:00:00.000"),
            (-978_307_200.5, "1969-12-31 23:59:59.500"), (1e-9, "2001-01-01 00:00:00.000000001"),
            (-63_113_904_000, "0001-01-01 00:00:00.000"), (1_000_000_000.125, "2032-09-09 01:46:40.125"),
        ])
    func datePinned(interval: Double, text: String) throws {
        let date = Date(timeIntervalSinceReferenceDate: interval)
        #expect(try date.sqliteValue == .text(text))
        #expect(try Date(sqliteValue: .text(text)) == date)
    }

    @Test("SQLite's date functions read the stored text", arguments: randomIntervals(count: 60, seed: 3))
    func sqliteReadsDates(interval: Double) throws {
        guard interval > -60_000_000_000 else { return }  // julianday is exact enough from year 100 on
        let date = Date(timeIntervalSinceReferenceDate: interval)
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (v TEXT)")
        try db.execute("INSERT INTO t VALUES (?)", [date])
        // SQLite keeps milliseconds: 23:59:59.9999 reads as the next second (and with 20 nines or more, SQLite's
        // own datetime() even shows 23:59:60), so the second-level checks skip the last millisecond of a second.
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded() / 1000
        let unix = Int64(milliseconds.rounded(.down))
        #expect(try db.fetchValue(Int64.self, "SELECT CAST(strftime('%s', v) AS INTEGER) FROM t") == unix)
        let text = try #require(try db.fetchValue(String.self, "SELECT v FROM t"))
        if !text.dropFirst(19).hasPrefix(".999") {
            let second = try DateText.format(sinceReferenceDate: Double(unix - DateText.referenceOffset))
            #expect(try db.fetchValue(String.self, "SELECT datetime(v) FROM t") == String(second.prefix(19)))
        }
        let julian = try #require(try db.fetchValue(Double.self, "SELECT julianday(v) FROM t"))
        #expect(abs((julian - 2_440_587.5) * 86_400 - date.timeIntervalSince1970) < 0.001)
    }

    @Test(
        "Dates in the forms SQLite writes are read",
        arguments: [
            ("2026-11-22", 1_795_305_600.0), ("2026-11-22 08:02", 1_795_334_520),
            ("2026-11-22T08:02:41Z", 1_795_334_561),
            ("2026-11-22 08:02:41.5", 1_795_334_561.5), ("2026-11-22 09:02:41+01:00", 1_795_334_561),
            ("2026-11-22 07:32:41-00:30", 1_795_334_561),
        ])
    func dateForms(text: String, unix: Double) throws {
        #expect(try Date(sqliteValue: .text(text)).timeIntervalSince1970 == unix)
    }

    @Test("CURRENT_TIMESTAMP defaults read as dates")
    func currentTimestamp() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)")
        try db.execute("INSERT INTO t (id) VALUES (1)")
        let stored = try #require(try db.fetchValue(Date.self, "SELECT at FROM t"))
        #expect(abs(stored.timeIntervalSinceNow) < 60)
    }

    @Test(
        "malformed or non-text dates are conversion errors",
        arguments: [
            "'2026-13-01'", "'2026-02-29'", "'2024-02-30'", "'yesterday'", "''", "'2026-11-22 24:00'",
            "'2026-11-22 08:02:41.'", "'2026-11-22 08:02:41 UTC'", "'26-11-22'", "1795334561", "2461366.8", "x'00'",
        ])
    func malformedDates(literal: String) throws {
        let db = try Connection.inMemory()
        let error = sqliteError { _ = try db.fetchValue(Date.self, SQL(verbatim: "SELECT \(literal)")) }
        #expect(error?.kind == .conversionFailed)
        #expect(try db.fetchValue(Date.self, "SELECT '2024-02-29'") != nil)  // a leap day is fine
    }

    @Test(
        "dates SQLite's text cannot hold are refused when stored",
        arguments: [Double.infinity, -Double.infinity, Double.nan, 1e15, -1e12])
    func unstorableDates(interval: Double) throws {
        let date = Date(timeIntervalSinceReferenceDate: interval)
        #expect(sqliteError { _ = try date.sqliteValue }?.kind == .conversionFailed)
        let db = try Connection.inMemory()
        let error = sqliteError { try db.execute("SELECT ?", [date]) }
        #expect(error?.kind == .conversionFailed)
        #expect(error?.parameter == "?1")
    }

    @Test("distantPast and distantFuture are storable")
    func distantDates() throws {
        for date in [Date.distantPast, Date.distantFuture] {
            #expect(try roundTrip(date).value == date)
        }
    }

    // MARK: - UUID, URL, Decimal

    @Test("UUID is a 16-byte BLOB and round-trips")
    func uuid() throws {
        let uuid = UUID()
        let (read, storage) = try roundTrip(uuid)
        #expect(read == uuid)
        #expect(storage == "blob")
        #expect(uuid.sqliteValue == .blob(withUnsafeBytes(of: uuid.uuid) { Array($0) }))
    }

    @Test("UUID text in either case is read too; other text and blobs are refused")
    func uuidText() throws {
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let db = try Connection.inMemory()
        #expect(try db.fetchValue(UUID.self, "SELECT 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'") == uuid)
        #expect(try db.fetchValue(UUID.self, "SELECT 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'") == uuid)
        for literal in ["'not a uuid'", "x'0102'", "zeroblob(17)", "42", "NULL"] {
            #expect(
                sqliteError { _ = try db.fetchValue(UUID.self, SQL(verbatim: "SELECT \(literal)")) }?.kind
                    == .conversionFailed)
        }
    }

    @Test(
        "URL is TEXT (absoluteString) and round-trips",
        arguments: [
            "https://example.com/a/b?c=d&e=%20#frag", "file:///tmp/some%20file.txt", "mailto:a@b.c", "rel/path",
        ])
    func url(text: String) throws {
        let url = try #require(URL(string: text))
        let (read, storage) = try roundTrip(url)
        #expect(read == url)
        #expect(read?.absoluteString == text)
        #expect(storage == "text")
    }

    @Test("text that is not a URL, text URL would change, and non-text, are refused")
    func badURL() throws {
        let db = try Connection.inMemory()
        // URL(string:) repairs these by percent-encoding; read as they are stored, they are refused.
        for text in ["http://example.com/a b", "http://example.com/ä", "a b"] {
            let error = sqliteError { _ = try db.fetchValue(URL.self, "SELECT \(text)") }
            #expect(error?.kind == .conversionFailed)
            #expect(error?.message.contains("URL would change it") == true)
        }
        for literal in ["''", "42", "x'41'"] {
            #expect(
                sqliteError { _ = try db.fetchValue(URL.self, SQL(verbatim: "SELECT \(literal)")) }?.kind
                    == .conversionFailed)
        }
    }

    @Test(
        "Decimal is TEXT and keeps every digit",
        arguments: ["123.456", "-0.001", "12345678901234567890.123456789", "0", "-42"])
    func decimal(text: String) throws {
        let value = try #require(Decimal(string: text))
        let (read, storage) = try roundTrip(value)
        #expect(read == value)
        #expect(storage == "text")
    }

    @Test("Decimal reads INTEGER and numeric text, and refuses REAL, junk and NaN")
    func decimalEdges() throws {
        let db = try Connection.inMemory()
        #expect(try db.fetchValue(Decimal.self, "SELECT 42") == 42)
        #expect(try db.fetchValue(Decimal.self, "SELECT '1.50'") == Decimal(string: "1.5"))
        #expect(try db.fetchValue(Decimal.self, "SELECT '2e3'") == 2000)
        for literal in ["1.5", "'abc'", "'1.2.3'", "''", "'1e'", "'.'", "'12abc'", "x'31'"] {
            #expect(
                sqliteError { _ = try db.fetchValue(Decimal.self, SQL(verbatim: "SELECT \(literal)")) }?.kind
                    == .conversionFailed)
        }
        #expect(sqliteError { _ = try Decimal.nan.sqliteValue }?.kind == .conversionFailed)
    }

    @Test("text with more significant digits than Decimal holds is refused instead of cut short")
    func decimalDigits() throws {
        let db = try Connection.inMemory()
        let long = [
            "123456789012345678901234567890123456789012345678901",
            "0.000000001234567890123456789012345678901234567891",
            "-1234567890123456789012345678901234567890.5",
        ]
        for text in long {
            let error = sqliteError { _ = try db.fetchValue(Decimal.self, "SELECT \(text)") }
            #expect(error?.kind == .conversionFailed)
            #expect(error?.message.contains("more significant digits") == true)
        }
        // 38 significant digits, and zeros that are not significant, still read exactly.
        let exact = [
            "12345678901234567890123456789012345678", "-0.1234567890123456789012345678901234567800",
            "1000000000000000000000000000000000000000000000", "0.000", "-0", "+7.5e-3", "15e-1", "00012.5000",
        ]
        for text in exact {
            let read = try #require(try db.fetchValue(Decimal.self, "SELECT \(text)"))
            #expect(read == Decimal(string: text), "\(text)")
        }
    }

    // MARK: - Enums and custom types

    @Test("enums with a raw value store the raw value", arguments: [FoundationStatus.active, .archived])
    func stringEnum(status: FoundationStatus) throws {
        #expect(FoundationStatus.declaredType == .text)
        let (read, storage) = try roundTrip(status)
        #expect(read == status)
        #expect(storage == "text")
        let (priority, priorityStorage) = try roundTrip(FoundationPriority.high)
        #expect(priority == .high)
        #expect(priorityStorage == "integer")
        let column = Column("p", FoundationPriority?.self)
        #expect(column.type == .integer)
        #expect(column.isNullable)
    }

    @Test("a raw value that matches no case is a typed conversion error")
    func unknownRawValue() throws {
        let db = try Connection.inMemory()
        let error = sqliteError { _ = try db.fetchValue(FoundationStatus.self, "SELECT 'deleted'") }
        #expect(error?.kind == .conversionFailed)
        #expect(error?.message.contains("FoundationStatus") == true)
        #expect(
            sqliteError { _ = try db.fetchValue(FoundationPriority.self, "SELECT 5") }?.kind == .conversionFailed)
        #expect(sqliteError { _ = try db.fetchValue(FoundationStatus.self, "SELECT 5") }?.kind == .conversionFailed)
    }

    @Test("a custom type conforms through SQLiteValue alone")
    func customType() throws {
        let (read, storage) = try roundTrip(Celsius(degrees: 21.5))
        #expect(read == Celsius(degrees: 21.5))
        #expect(storage == "real")
        let db = try Connection.inMemory()
        #expect(sqliteError { _ = try db.fetchValue(Celsius.self, "SELECT 'hot'") }?.kind == .conversionFailed)
        #expect(sqliteError { _ = try db.fetchValue(Celsius.self, "SELECT NULL") }?.kind == .conversionFailed)
        #expect(try db.fetchValue(Celsius?.self, "SELECT NULL") == .some(nil))
    }

    @Test("optionals of the Foundation types store NULL for nil")
    func optionals() throws {
        #expect(try roundTrip(Date?.none) == (.some(nil), "null"))
        #expect(try roundTrip(UUID?.none) == (.some(nil), "null"))
        #expect(try roundTrip(URL?.none) == (.some(nil), "null"))
        #expect(try roundTrip(Decimal?.none) == (.some(nil), "null"))
        #expect(try roundTrip(FoundationStatus?.none) == (.some(nil), "null"))
        let date = Date(timeIntervalSinceReferenceDate: 12.25)
        #expect(try roundTrip(Date?.some(date)).value == .some(date))
    }
}

/// Reads the first column as a Date.
private struct SingleDate: RowDecodable {
    var value: Date
    init(row: borrowing Row) throws { value = try row[0] }
}
