import Foundation
import SQLiteSwiftly
import Testing

/// A model whose table and column names are quotes, spaces, keywords, SQL fragments and unicode.
struct HostileNames: TableModel, Equatable {
    var key: Int
    var text: String
    var data: Data?
    var number: Double

    static let tableName = "my \"table\"; DROP TABLE x; --"
    static let columns = [
        Column("select", Int.self, primaryKey: true),
        Column("co\"l u'mn", String.self, unique: true),
        Column("ünïcødé 💥 列", Data?.self),
        Column("order by", Double.self),
    ]

    init(key: Int, text: String, data: Data?, number: Double) {
        self.key = key
        self.text = text
        self.data = data
        self.number = number
    }

    init(row: borrowing Row) throws {
        key = try row[0]
        text = try row[1]
        data = try row[2]
        number = try row[3]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(key)
        try encoder.encode(text)
        try encoder.encode(data)
        try encoder.encode(number)
    }
}

/// Byte strings stored as TEXT, and whether they are valid UTF-8.
private let utf8Cases: [([UInt8], Bool)] = {
    let ascii16: [UInt8] = Array("0123456789abcdef".utf8)
    let mixed: [UInt8] = Array("naïve café, 東京, 🪐 and more ASCII after".utf8)
    let surrogate: [UInt8] = [0xE6, 0x9D, 0xB1, 0xE4, 0xBA, 0xAC, 0xED, 0xA0, 0x80, 0x41]  // a UTF-16 surrogate
    let badInWords: [UInt8] = Array("abcdefgh".utf8) + [0xFF] + Array("ijklmnopq".utf8)
    let badInTail: [UInt8] = ascii16 + [0xC3]
    // Text read through its terminating NUL first: a NUL inside, with invalid or valid bytes after it, and a
    // truncated 3-byte sequence (repaired as one U+FFFD of the same byte length).
    let badAfterNul: [UInt8] = Array("valid".utf8) + [0] + [0xFF, 0x41]
    let goodAfterNul: [UInt8] = Array("valid".utf8) + [0, 0] + Array("東京".utf8)
    let truncated: [UInt8] = Array("ab".utf8) + [0xF0, 0x9F, 0xAA] + Array("cd".utf8)
    return [
        (badInWords, false), (badInTail, false), (ascii16, true), (mixed, true), (surrogate, false),
        (badAfterNul, false), (goodAfterNul, true), (truncated, false),
    ]
}()

@Suite struct HostileInputTests {
    static let oddStrings = [
        "", "a\0b", "\0", "\0\0trailing", "emoji 👩‍👩‍👧‍👦🏳️‍🌈", "e\u{301} vs é", "עברית RTL", "'; DROP TABLE t; --",
        "\"quoted\"", "tab\tnew\nline\r", String(repeating: "long ", count: 10_000),
    ]

    @Test("quotes, spaces, keywords and unicode in table and column names: create, insert, read")
    func hostileIdentifiers() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: HostileNames.self)
        let rows = [
            HostileNames(key: 1, text: "one", data: Data([0, 1, 2]), number: 1.5),
            HostileNames(key: 2, text: "two \"2\"", data: nil, number: -0.25),
        ]
        let insert = try db.makeInsertStatement(for: HostileNames.self)
        for row in rows { _ = try insert.insert(row) }
        #expect(try db.fetchAll(HostileNames.self) == rows)
        let filtered = try db.fetchAll(HostileNames.self, where: "\"order by\" < ?", [0.0])
        #expect(filtered == [rows[1]])
        let names = try db.fetchAll(UntypedRow.self, "SELECT name FROM sqlite_master WHERE type = 'table'")
        #expect(names.map(\.values) == [[.text(HostileNames.tableName)]])
        #expect(try db.fetchValue(String.self, "PRAGMA integrity_check") == "ok")
    }

    @Test("a NUL inside a table name is a typed error, not a truncated name")
    func nulInIdentifier() throws {
        let db = try Connection.inMemory()
        RandomNames.$table.withValue("good\0; DROP TABLE x") {
            #expect(throws: SQLiteError.self) { try db.createTable(for: RandomlyNamed.self) }
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master") == 0)
    }

    @Test("odd strings round-trip exactly, with their byte length kept", arguments: oddStrings)
    func oddStringsRoundTrip(text: String) throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (s TEXT NOT NULL)")
        try db.execute("INSERT INTO t VALUES (?)", [text])
        #expect(try db.fetchValue(String.self, "SELECT s FROM t") == text)
        #expect(try db.fetchValue(Int.self, "SELECT length(CAST(s AS BLOB)) FROM t") == text.utf8.count)
    }

    @Test("invalid UTF-8 stored as TEXT: reading a String is a typed error, reading Data gives the bytes")
    func invalidUTF8() throws {
        let db = try Connection.inMemory()
        let bytes = Data([0x41, 0xFF, 0xFE, 0xC3, 0x28, 0x00, 0x42])
        try db.execute("CREATE TABLE t (s TEXT)")
        try db.execute("INSERT INTO t VALUES (CAST(? AS TEXT))", [bytes])
        #expect(try db.fetchValue(String.self, "SELECT typeof(s) FROM t") == "text")
        #expect {
            _ = try db.fetchValue(String.self, "SELECT s FROM t")
        } throws: { error in
            (error as? SQLiteError)?.kind == .conversionFailed
        }
        #expect(try db.fetchValue(Data.self, "SELECT s FROM t") == bytes)
        #expect(try db.fetchValue([UInt8].self, "SELECT s FROM t") == Array(bytes))
        // Types read through SQLiteValue (URL, Decimal, custom types) refuse it too, instead of a repaired string.
        #expect {
            _ = try db.fetchValue(URL.self, "SELECT s FROM t")
        } throws: { error in
            (error as? SQLiteError)?.kind == .conversionFailed
        }
    }

    @Test(
        "text is checked wherever the invalid byte is: in the 8-byte words or the tail, after ASCII or not",
        arguments: utf8Cases)
    func utf8Positions(bytes: [UInt8], valid: Bool) throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (s TEXT)")
        try db.execute("INSERT INTO t VALUES (CAST(? AS TEXT))", [bytes])
        do throws(SQLiteError) {
            let text = try db.fetchValue(String.self, "SELECT s FROM t")
            #expect(valid)
            #expect(text.map { Array($0.utf8) } == bytes)
        } catch {
            #expect(!valid)
            #expect(error.kind == .conversionFailed)
        }
        #expect(try db.fetchValue([UInt8].self, "SELECT s FROM t") == bytes)
    }

    @Test("values past the length limit fail with TOOBIG and nothing is inserted")
    func tooBig() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: HostileNames.self)
        let previous = try db.setLimit(.length, to: 1000)
        #expect(previous == 1_000_000_000)
        #expect(db.limit(.length) == 1000)
        let insert = try db.makeInsertStatement(for: HostileNames.self)
        let huge = [
            HostileNames(key: 1, text: String(repeating: "x", count: 1001), data: nil, number: 0),
            HostileNames(key: 2, text: "fine", data: Data(count: 5000), number: 0),
        ]
        for row in huge {
            #expect {
                _ = try insert.insert(row)
            } throws: { error in
                (error as? SQLiteError)?.code.primary == .tooBig
            }
        }
        #expect {
            try db.execute("SELECT ?", [String(repeating: "é", count: 600)])
        } throws: { error in
            (error as? SQLiteError)?.code.primary == .tooBig
        }
        #expect(try db.fetchAll(HostileNames.self).isEmpty)
        _ = try insert.insert(HostileNames(key: 3, text: String(repeating: "x", count: 900), data: nil, number: 0))
        #expect(try db.fetchAll(HostileNames.self).count == 1)
    }

    @Test("SQL text past its limit fails with TOOBIG; a negative limit is misuse")
    func sqlTooLong() throws {
        let db = try Connection.inMemory()
        try db.setLimit(.sqlLength, to: 100)
        #expect {
            try db.execute(SQL(verbatim: "SELECT " + String(repeating: "1 + ", count: 50) + "1"))
        } throws: { error in
            (error as? SQLiteError)?.code.primary == .tooBig
        }
        #expect(throws: SQLiteError.self) { try db.setLimit(.length, to: -1) }
        #expect(db.limit(ConnectionLimit(rawValue: 999)) == -1)
    }

    @Test(
        "wrong argument counts and names are parameter mismatches, and nothing runs",
        arguments: [
            StatementArguments([1]), [1, 2, 3], [], ["a": 1, "b": 2],
        ])
    func wrongArguments(arguments: StatementArguments) throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (a INTEGER, b INTEGER)")
        #expect {
            try db.execute("INSERT INTO t VALUES (?, ?)", arguments)
        } throws: { error in
            (error as? SQLiteError)?.kind == .parameterMismatch
        }
        #expect {
            try db.execute("INSERT INTO t VALUES (:a, :c)", ["a": 1, "b": 2])
        } throws: { error in
            (error as? SQLiteError)?.kind == .parameterMismatch
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 0)
    }

    @Test("NULL into non-optional: a NOT NULL column refuses it, reading NULL as Int is a conversion error")
    func nullIntoNonOptional() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: HostileNames.self)
        #expect {
            try db.execute("INSERT INTO \"my \"\"table\"\"; DROP TABLE x; --\" VALUES (1, NULL, NULL, 0)")
        } throws: { error in
            (error as? SQLiteError)?.code == .constraintNotNull
        }
        try db.execute("CREATE TABLE loose (n INTEGER)")
        try db.execute("INSERT INTO loose VALUES (NULL)")
        #expect {
            _ = try db.fetchAll(NonOptional.self, "SELECT n FROM loose")
        } throws: { error in
            guard let error = error as? SQLiteError else { return false }
            return error.kind == .conversionFailed && error.row == 1
        }
        #expect(try db.fetchValue(Int?.self, "SELECT n FROM loose") == .some(nil))
    }

    @Test(
        "special doubles: infinities and extremes round-trip, NaN is refused",
        arguments: [Double.infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude, -0.0, .pi])
    func specialDoubles(value: Double) throws {
        let db = try Connection.inMemory()
        #expect(try db.fetchValue(Double.self, "SELECT ?", [value]) == value)
        #expect(throws: SQLiteError.self) { try db.fetchValue(Double.self, "SELECT ?", [Double.nan]) }
    }
}

/// Reads one non-optional integer column.
private struct NonOptional: RowDecodable {
    var value: Int
    init(row: borrowing Row) throws { value = try row[0] }
}
