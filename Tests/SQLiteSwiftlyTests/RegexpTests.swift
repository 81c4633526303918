import Testing

@testable import SQLiteSwiftly

@Suite struct RegexpTests {
    @Test("REGEXP matches anywhere in the text; NULL on either side gives NULL")
    func matching() throws {
        let db = try Connection.inMemory()
        try db.add(function: .regexp())
        #expect(try db.fetchValue(Bool.self, "SELECT 'AB-123' REGEXP '^[A-Z]{2}-[0-9]+$'") == true)
        #expect(try db.fetchValue(Bool.self, "SELECT 'xx AB-1 yy' REGEXP 'B-\\d'") == true)
        #expect(try db.fetchValue(Bool.self, "SELECT 'ab' REGEXP '^b'") == false)
        #expect(try db.fetchValue(Bool?.self, "SELECT NULL REGEXP 'a'") == .some(nil))
        #expect(try db.fetchValue(Bool?.self, "SELECT 'a' REGEXP NULL") == .some(nil))
        #expect(try db.fetchValue(Bool?.self, "SELECT NULL REGEXP NULL") == .some(nil))
        #expect(try db.fetchValue(Bool.self, "SELECT 'Émile' REGEXP \("^É")") == true)
        #expect(try db.fetchValue(Bool.self, "SELECT '' REGEXP ''") == true)
        #expect(try db.fetchValue(Bool.self, "SELECT regexp('(?i)^zoë', 'ZOË SALDAÑA')") == true)
        #expect(try db.fetchValue(Bool.self, "SELECT 'aaaaaaaaaaaaaaaaaaaaaaaab' REGEXP '^(a+)+$'") == false)
    }

    @Test("an invalid pattern, a value that is not text, or text that is not UTF-8 is a clear function error")
    func errors() throws {
        let db = try Connection.inMemory()
        try db.add(function: .regexp())
        let invalid = try #require(capturedError { try db.fetchValue(Bool.self, "SELECT 'a' REGEXP '(unclosed'") })
        #expect(invalid.kind == .functionFailed)
        #expect(invalid.function == "regexp")
        #expect(invalid.sql == "SELECT 'a' REGEXP '(unclosed'")
        #expect(
            invalid.message == "the pattern is not a valid regular expression at character 1: missing ')' for this '('")
        let repeated = try #require(capturedError { try db.fetchValue(Bool.self, "SELECT 'a' REGEXP \("ab**")") })
        #expect(repeated.message.hasPrefix("the pattern is not a valid regular expression at character 4: "))
        let large = try #require(capturedError { try db.fetchValue(Bool.self, "SELECT 'a' REGEXP '(a{1000}){20}'") })
        #expect(large.kind == .functionFailed)
        #expect(large.message.hasPrefix("the pattern is too large"))
        let number = try #require(capturedError { try db.fetchValue(Bool.self, "SELECT 12 REGEXP '1'") })
        #expect(number.message == "argument 2: expected TEXT, found INTEGER")
        let blob = try #require(capturedError { try db.fetchValue(Bool.self, "SELECT x'61' REGEXP 'a'") })
        #expect(blob.message == "argument 2: expected TEXT, found BLOB")
        let pattern = try #require(capturedError { try db.fetchValue(Bool.self, "SELECT 'a' REGEXP 1.5") })
        #expect(pattern.message == "argument 1: expected TEXT, found REAL")
        let bytes = try #require(
            capturedError { try db.fetchValue(Bool.self, "SELECT CAST(x'61ff' AS TEXT) REGEXP 'a'") })
        #expect(bytes.kind == .functionFailed)
        #expect(bytes.message == "argument 2: stored TEXT is not valid UTF-8")
        let missing = try #require(
            capturedError { try Connection.inMemory().fetchValue(Bool.self, "SELECT 'a' REGEXP 'a'") })
        #expect(missing.message.contains("no such function: REGEXP"))
        // The connection works after each failure.
        #expect(try db.fetchValue(Bool.self, "SELECT 'a' REGEXP 'a'") == true)
    }

    @Test("a pattern that is the same for every row is compiled once per run, literal or bound")
    func compiledOnce() throws {
        let db = try Connection.inMemory()
        let counter = PatternCounter()
        try db.add(function: SQLFunction.regexp(options: .deterministic, counter: counter))
        try db.execute("CREATE TABLE t (code TEXT)")
        try db.transaction {
            for index in 0..<10_000 { try db.execute("INSERT INTO t VALUES (\("AB-\(index)"))") }
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t WHERE code REGEXP '7$'") == 1_000)
        #expect(counter.count.load(ordering: .relaxed) == 1)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t WHERE code REGEXP \("^AB-9")") == 1_111)
        #expect(counter.count.load(ordering: .relaxed) == 2)
    }

    @Test("a pattern that changes from row to row is compiled for each, and answers for each")
    func patternPerRow() throws {
        let db = try Connection.inMemory()
        let counter = PatternCounter()
        try db.add(function: SQLFunction.regexp(options: .deterministic, counter: counter))
        try db.execute("CREATE TABLE rules (pattern TEXT, text TEXT)")
        try db.execute(
            "INSERT INTO rules VALUES ('^a', 'abc'), ('c$', 'abc'), ('^b', 'abc'), (NULL, 'x'), ('\\d', NULL), ('x|y', 'zy')"
        )
        let answers = try db.fetchValue(
            String.self, "SELECT group_concat(coalesce(text REGEXP pattern, 'NULL')) FROM rules ORDER BY rowid")
        #expect(answers == "1,1,0,NULL,NULL,1")
        #expect(counter.count.load(ordering: .relaxed) == 5)
    }

    @Test("a stop check that turns true ends the statement as an interrupt does, and the next statement runs")
    func interrupted() throws {
        let db = try Connection.inMemory()
        let polls = PatternCounter()
        let stop: @Sendable () -> Bool = { polls.count.add(1, ordering: .relaxed).newValue >= 3 }
        try db.add(function: SQLFunction.regexp(options: .deterministic, counter: nil, stopRequested: stop))
        // A text of 1 MiB of 'a': the check is called every 65,536 bytes.
        let sql: SQL = "SELECT replace(hex(zeroblob(524288)), '0', 'a') REGEXP '(a|b)*c'"
        let error = try #require(capturedError { try db.fetchValue(Bool.self, sql) })
        #expect(error.code == .interrupt)
        #expect(error.kind == .sqlite)
        #expect(polls.count.load(ordering: .relaxed) == 3)
        #expect(try db.fetchValue(Bool.self, "SELECT 'abc' REGEXP 'b'") == true)
    }

    @Test("a write stopped inside REGEXP rolls its transaction back, as an interrupt does")
    func interruptedWrite() throws {
        let db = try Connection.inMemory()
        let stop: @Sendable () -> Bool = { true }
        try db.add(function: SQLFunction.regexp(options: .deterministic, counter: nil, stopRequested: stop))
        try db.execute("CREATE TABLE t (s TEXT, hit INTEGER)")
        try db.execute("INSERT INTO t (s) VALUES ('short'), (replace(hex(zeroblob(65536)), '0', 'a'))")
        let error = try #require(
            capturedError {
                try db.transaction {
                    try db.execute("INSERT INTO t (s) VALUES ('added')")
                    try db.execute("UPDATE t SET hit = s REGEXP 'a+b'")
                }
            })
        #expect(error.code == .interrupt)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 2)
        #expect(try db.fetchValue(Int.self, "SELECT count(hit) FROM t") == 0)
    }

    @Test("a pattern whose cache fills up answers every row right")
    func smallCache() throws {
        let db = try Connection.inMemory()
        try db.add(function: SQLFunction.regexp(options: .deterministic, counter: nil, memoryLimit: 4_096))
        try db.execute("CREATE TABLE t (s TEXT)")
        var generator = SplitMix(state: 7)
        var expected = 0
        try db.transaction {
            for _ in 0..<2_000 {
                let text = String((0..<30).map { _ in generator.next() % 2 == 0 ? "a" : "b" })
                if Array(text)[30 - 11] == "a" { expected += 1 }
                try db.execute("INSERT INTO t VALUES (\(text))")
            }
        }
        // The DFA needs 2^11 states to remember the last 11 characters: far more than 4 KiB holds.
        let count = try db.fetchValue(Int.self, "SELECT count(*) FROM t WHERE s REGEXP 'a(a|b){10}$'")
        #expect(count == expected)
    }
}
