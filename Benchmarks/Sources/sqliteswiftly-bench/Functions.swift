import CSQLiteSwiftly
import RawC
import SQLiteSwiftly

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Swift in SQL (issue #18): the same functions and collations registered through the raw C API from Swift
// (`@convention(c)` callbacks calling sqlite3_value_* and sqlite3_result_* directly) and through SQLiteSwiftly.
// Each body runs one query over a table `words (a INTEGER, s TEXT)` of N rows, `s` being 8 to 24 letters.

enum FunctionBench {
    static let fill =
        "WITH RECURSIVE n(r) AS (SELECT 0 UNION ALL SELECT r + 1 FROM n WHERE r + 1 < ?) "
        + "INSERT INTO words (a, s) SELECT r, substr('abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz', "
        + "(r * 7919) % 26 + 1, 8 + (r * 31) % 17) || (r % 97) FROM n"

    static let workloads: [Workload] = [
        Workload(name: "function f(a) = a + 1", implementations: [rawIntFunction, oursIntFunction]),
        Workload(name: "function g(s) = UTF-8 length", implementations: [rawTextFunction, oursTextFunction]),
        Workload(name: "aggregate mysum(a)", implementations: [rawAggregate, oursAggregate]),
        Workload(
            name: "ORDER BY s COLLATE String comparison", implementations: [rawStringCollation, oursStringCollation]),
        Workload(name: "ORDER BY s COLLATE memcmp", implementations: [rawBytesCollation, oursBytesCollation]),
        Workload(name: "REGEXP, one pattern", implementations: [posixRegexp(regexpSQL), rawRegexp, oursRegexp]),
        Workload(
            name: "REGEXP, pathological pattern", implementations: [posixRegexp(pathologicalSQL), oursPathological]),
    ]

    // MARK: - Raw C API

    static func rawDatabase(_ location: Location, _ rows: Int) throws -> RawConnection {
        let db = try RawConnection(location)
        try db.exec("CREATE TABLE words (a INTEGER, s TEXT)")
        try db.exec(fill.replacing("?", with: String(rows)))
        return db
    }

    /// Runs a query and returns its first column as an integer, stepping through every row.
    static func rawQuery(_ db: RawConnection, _ sql: String) throws -> Int64 {
        var statement: OpaquePointer?
        try RawConnection.check(sqlite3_prepare_v2(db.handle, sql, -1, &statement, nil), sql)
        defer { sqlite3_finalize(statement) }
        var result: Int64 = 0
        var rows: Int64 = 0
        var code = sqlite3_step(statement)
        while code == SQLITE_ROW {
            rows += 1
            if rows == 1 { result = sqlite3_column_int64(statement, 0) + Int64(sqlite3_column_bytes(statement, 0)) }
            code = sqlite3_step(statement)
        }
        try RawConnection.check(code == SQLITE_DONE ? 0 : code, sql)
        return result + rows
    }

    static func raw(
        _ name: String, _ sql: String, implementation: String = "raw C API (Swift callbacks)",
        _ register: @escaping @Sendable (OpaquePointer) -> Int32
    ) -> Implementation {
        Implementation(name: implementation) { location, rows in
            let db = try rawDatabase(location, rows)
            try RawConnection.check(register(db.handle), "registering \(name)")
            return { try rawQuery(db, sql) }
        }
    }

    static let rawIntFunction = raw("f", "SELECT sum(f(a)) FROM words") { db in
        sqlite3_create_function_v2(
            db, "f", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, nil,
            { context, _, values in sqlite3_result_int64(context, sqlite3_value_int64(values?[0]) + 1) }, nil, nil, nil)
    }

    static let rawTextFunction = raw("g", "SELECT sum(g(s)) FROM words") { db in
        sqlite3_create_function_v2(
            db, "g", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, nil,
            { context, _, values in
                let value = values?[0]
                guard let text = sqlite3_value_text(value) else { return sqlite3_result_null(context) }
                let string = String(
                    decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
                sqlite3_result_int64(context, Int64(string.utf8.count))
            }, nil, nil, nil)
    }

    static let rawAggregate = raw("mysum", "SELECT mysum(a) FROM words") { db in
        sqlite3_create_function_v2(
            db, "mysum", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, nil, nil,
            { context, _, values in
                guard let total = sqlite3_aggregate_context(context, 8) else {
                    return sqlite3_result_error_nomem(context)
                }
                total.assumingMemoryBound(to: Int64.self).pointee += sqlite3_value_int64(values?[0])
            },
            { context in
                let total = sqlite3_aggregate_context(context, 0)?.assumingMemoryBound(to: Int64.self).pointee
                sqlite3_result_int64(context, total ?? 0)
            }, nil)
    }

    /// A full sort whose rows are stepped through without being read, so that the sort is what is measured.
    static let sortSQL = "SELECT s FROM words ORDER BY s COLLATE c"

    /// A sort through the raw C API: every row is stepped, none is read; returns the number of rows.
    static func rawSort(_ register: @escaping @Sendable (OpaquePointer) -> Int32) -> Implementation {
        Implementation(name: "raw C API (Swift callbacks)") { location, rows in
            let db = try rawDatabase(location, rows)
            try RawConnection.check(register(db.handle), "registering c")
            return {
                var statement: OpaquePointer?
                try RawConnection.check(sqlite3_prepare_v2(db.handle, sortSQL, -1, &statement, nil), sortSQL)
                defer { sqlite3_finalize(statement) }
                var count: Int64 = 0
                while sqlite3_step(statement) == SQLITE_ROW { count += 1 }
                return count
            }
        }
    }

    static let rawStringCollation = rawSort { db in
        sqlite3_create_collation_v2(
            db, "c", SQLITE_UTF8, nil,
            { _, firstCount, first, secondCount, second in
                let left = String(
                    decoding: UnsafeRawBufferPointer(start: first, count: Int(firstCount)).bindMemory(to: UInt8.self),
                    as: UTF8.self)
                let right = String(
                    decoding: UnsafeRawBufferPointer(start: second, count: Int(secondCount)).bindMemory(to: UInt8.self),
                    as: UTF8.self)
                return left < right ? -1 : left == right ? 0 : 1
            }, nil)
    }

    static let rawBytesCollation = rawSort { db in
        sqlite3_create_collation_v2(
            db, "c", SQLITE_UTF8, nil,
            { _, firstCount, first, secondCount, second in
                guard let first, let second else { return firstCount - secondCount }
                let order = memcmp(first, second, Int(min(firstCount, secondCount)))
                return order != 0 ? order : firstCount - secondCount
            }, nil)
    }

    static let regexpSQL = "SELECT count(*) FROM words WHERE s REGEXP 'k[a-f]+m'"
    /// Nested repetitions over texts of 25 'a' and then other letters, none of which match: a backtracking
    /// matcher tries every way of splitting the a's (the Swift `Regex` twin would run for minutes a row).
    static let pathologicalSQL = "SELECT count(*) FROM words WHERE ('aaaaaaaaaaaaaaaaaaaaaaaaa' || s) REGEXP '^(a+)+$'"

    /// REGEXP through POSIX `regcomp`/`regexec` called from C, the pattern compiled once per statement run.
    static func posixRegexp(_ sql: String) -> Implementation {
        raw("regexp", sql, implementation: "POSIX regexec (C)") { db in rawc_register_posix_regexp(db) }
    }

    /// A compiled pattern kept as SQLite auxiliary data, as SQLiteSwiftly does.
    final class RawPattern {
        let regex: Regex<AnyRegexOutput>
        init(_ regex: Regex<AnyRegexOutput>) { self.regex = regex }
    }

    static let rawRegexp = raw("regexp", regexpSQL) { db in
        sqlite3_create_function_v2(
            db, "regexp", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, nil,
            { context, _, values in
                let pattern: RawPattern
                if let cached = sqlite3_get_auxdata(context, 0) {
                    pattern = Unmanaged<RawPattern>.fromOpaque(cached).takeUnretainedValue()
                } else {
                    let text = String(cString: sqlite3_value_text(values?[0]))
                    guard let regex = try? Regex(text) else { return sqlite3_result_error(context, "bad pattern", -1) }
                    pattern = RawPattern(regex)
                    sqlite3_set_auxdata(
                        context, 0, Unmanaged.passRetained(pattern).toOpaque(),
                        { if let box = $0 { Unmanaged<RawPattern>.fromOpaque(box).release() } })
                }
                let value = values?[1]
                let text = String(
                    decoding: UnsafeBufferPointer(
                        start: sqlite3_value_text(value), count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
                sqlite3_result_int(context, (try? pattern.regex.firstMatch(in: text)) == nil ? 0 : 1)
            }, nil, nil, nil)
    }

    // MARK: - SQLiteSwiftly

    /// The first column as an integer (plus its byte length) for the first row, and the number of rows.
    struct Probe: RowDecodable {
        let value: Int64
        init(row: borrowing Row) throws {
            guard row.number == 1 else {
                value = 0
                return
            }
            let text: SQLiteValue = try row[0]
            switch text {
            case .integer(let number): value = number + Int64("\(number)".utf8.count)
            case .text(let string): value = Int64(string.utf8.count)
            default: value = 0
            }
        }
    }

    static func ours(_ sql: SQL, _ add: @escaping @Sendable (Connection) throws -> Void) -> Implementation {
        Implementation(name: "SQLiteSwiftly") { location, rows in
            let db = try location.isMemory ? Connection.inMemory() : Connection(creating: location.path)
            try db.execute("CREATE TABLE words (a INTEGER, s TEXT)")
            try db.execute(SQL(verbatim: fill), [rows])
            try add(db)
            return {
                var result: Int64 = 0
                var count: Int64 = 0
                let cursor = try db.fetchCursor(Probe.self, sql)
                while let probe = try cursor.next() {
                    result += probe.value
                    count += 1
                }
                return result + count
            }
        }
    }

    static let oursIntFunction = ours("SELECT sum(f(a)) FROM words") { db in
        try db.add(function: SQLFunction("f", options: .deterministic) { (value: Int) in value + 1 })
    }

    static let oursTextFunction = ours("SELECT sum(g(s)) FROM words") { db in
        try db.add(function: SQLFunction("g", options: .deterministic) { (text: String) in text.utf8.count })
    }

    struct MySum: AggregateFunction {
        var total = 0
        mutating func step(_ arguments: borrowing FunctionArguments) throws { total += try arguments[0] as Int }
        func finalize() -> Int { total }
    }

    static let oursAggregate = ours("SELECT mysum(a) FROM words") { db in
        try db.add(function: SQLFunction("mysum", argumentCount: 1, aggregate: MySum.self))
    }

    /// A sort through SQLiteSwiftly: `execute` steps every row and reads none; returns the number of rows.
    static func oursSort(_ add: @escaping @Sendable (Connection) throws -> Void) -> Implementation {
        Implementation(name: "SQLiteSwiftly") { location, rows in
            let db = try location.isMemory ? Connection.inMemory() : Connection(creating: location.path)
            try db.execute("CREATE TABLE words (a INTEGER, s TEXT)")
            try db.execute(SQL(verbatim: fill), [rows])
            try add(db)
            return {
                try db.execute(SQL(verbatim: sortSQL))
                return Int64(rows)
            }
        }
    }

    static let oursStringCollation = oursSort { db in
        try db.add(
            collation: Collation("c") { left, right in
                left < right ? .orderedAscending : left == right ? .orderedSame : .orderedDescending
            })
    }

    static let oursBytesCollation = oursSort { db in
        try db.add(
            collation: .utf8("c") { first, second in
                guard let left = first.baseAddress, let right = second.baseAddress else {
                    return first.count < second.count
                        ? .orderedAscending : first.count == second.count ? .orderedSame : .orderedDescending
                }
                let order = memcmp(left, right, min(first.count, second.count))
                let difference = order != 0 ? Int(order) : first.count - second.count
                return difference < 0 ? .orderedAscending : difference == 0 ? .orderedSame : .orderedDescending
            })
    }

    static let oursRegexp = ours(SQL(verbatim: regexpSQL)) { db in
        try db.add(function: .regexp())
    }

    static let oursPathological = ours(SQL(verbatim: pathologicalSQL)) { db in
        try db.add(function: .regexp())
    }
}

// MARK: - Lifecycle check for valgrind

extension FunctionBench {
    /// A token whose deinit counts, to check that every closure SQLite held was released.
    final class Token: Sendable {
        nonisolated(unsafe) static var live = 0
        init() { Token.live += 1 }
        deinit { Token.live -= 1 }
        func add(_ value: Int) -> Int { value + 1 }
    }

    struct Failing: WindowFunction {
        var total = 0
        let token = Token()
        mutating func step(_ arguments: borrowing FunctionArguments) throws {
            let value: Int = try arguments[0]
            if value == 7 { throw BenchError("step failed") }
            total += value
        }
        mutating func inverse(_ arguments: borrowing FunctionArguments) throws { total -= try arguments[0] as Int }
        func value() -> Int { total }
        func finalize() -> Int { total }
    }

    /// Registers, calls, replaces and removes functions and collations on many connections, failing on purpose
    /// along the way, so that valgrind can check that every box SQLite holds is freed through its destructor.
    static func lifecycle(rounds: Int) throws {
        let sql: SQL = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 20) "
        for round in 0..<rounds {
            let db = try Connection.inMemory()
            let token = Token()
            try db.add(function: SQLFunction("f") { (value: Int) in token.add(value) })
            try db.add(function: SQLFunction("agg", argumentCount: 1, window: Failing.self))
            try db.add(
                function: SQLFunction("text") { (arguments: borrowing FunctionArguments) -> String? in
                    try arguments.value(at: 0, as: String?.self).map { $0 + "!" }
                })
            try db.add(function: .regexp())
            try db.add(collation: .unicodeCaseAndAccentInsensitive)
            try db.add(
                collation: Collation("strings") {
                    $0 < $1 ? .orderedAscending : $0 == $1 ? .orderedSame : .orderedDescending
                })
            _ = try db.fetchValue(Int.self, sql + "SELECT sum(f(x)) FROM n")
            _ = try? db.fetchValue(Int.self, sql + "SELECT agg(x) FROM n")
            _ = try? db.fetchValue(
                Int.self, sql + "SELECT sum(x) FROM (SELECT agg(x) OVER (ROWS 2 PRECEDING) AS x FROM n)")
            _ = try db.fetchValue(Int.self, sql + "SELECT agg(x) FROM n WHERE x < 7")
            _ = try db.fetchValue(Int.self, sql + "SELECT count(*) FROM n WHERE text('a' || x) REGEXP '1!$'")
            _ = try? db.fetchValue(Int.self, "SELECT 'a' REGEXP '(('")
            _ = try db.fetchValue(
                Int.self,
                sql
                    + "SELECT count(*) FROM (SELECT 'É' || x AS s FROM n ORDER BY s COLLATE UNICODE_NOCASE_NOACCENT, s COLLATE strings)"
            )
            try db.add(function: SQLFunction("f") { (value: Int) in value })
            try db.removeFunction(named: "agg", argumentCount: 1)
            try db.removeCollation(named: "strings")
            // Registrations that fail: SQLite (functions) or the library (collations) releases the box.
            let running = try db.fetchCursor(
                UntypedRow.self, sql + "SELECT f(x) FROM n ORDER BY x COLLATE UNICODE_NOCASE_NOACCENT")
            _ = try running.next()
            _ = try? db.add(function: SQLFunction("f") { (value: Int) in token.add(value) })
            _ = try? db.add(function: SQLFunction("agg2", argumentCount: 1, window: Failing.self))
            _ = try? db.add(collation: .unicodeCaseAndAccentInsensitive)
            running.close()
            if round % 2 == 0 { try db.removeFunction(named: "text", argumentCount: nil) }
            try db.execute("CREATE TABLE b (data BLOB)")
            try db.execute("INSERT INTO b VALUES (zeroblob(100))")
            try db.withBlob(table: "b", column: "data", rowID: 1, writable: true) { blob in
                try blob.write([1, 2, 3] as [UInt8], at: 10)
                _ = try blob.read(count: 20, at: 0)
            }
        }
        guard Token.live == 0 else { throw BenchError("\(Token.live) closures or aggregate values were not freed") }
        print("lifecycle: \(rounds) rounds, every function, aggregate value and collation freed")
    }
}

// MARK: - Blob streaming memory

extension FunctionBench {
    /// Streams a `bytes`-byte file into a blob of a fresh database file, back out to a file, and out again as
    /// chunks, printing the process's peak memory after each step (run it as its own process).
    static func blobMemory(bytes: Int) async throws {
        var files = try TemporaryFiles()
        defer { files.removeDirectory() }
        let database = files.next()
        let input = files.next() + ".in"
        let output = files.next() + ".out"
        defer { for path in [input, output] { unlink(path) }; TemporaryFiles.remove(database) }
        let descriptor = open(input, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0, ftruncate(descriptor, off_t(bytes)) == 0 else {
            throw BenchError("cannot create \(input)")
        }
        close(descriptor)
        let db = try Connection(creating: database)
        try db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, jpeg BLOB)")
        try db.execute("INSERT INTO photos (jpeg) VALUES (NULL)")
        print("blob streaming, \(bytes) bytes; peak memory before: \(peakMemoryKilobytes() / 1024) MiB")
        var start = now()
        try db.writeBlob(table: "photos", column: "jpeg", rowID: 1, fromFile: input)
        print("file -> blob: \(formatMilliseconds(Double(now() - start))), peak \(peakMemoryKilobytes() / 1024) MiB")
        start = now()
        try db.readBlob(table: "photos", column: "jpeg", rowID: 1, toFile: output)
        print("blob -> file: \(formatMilliseconds(Double(now() - start))), peak \(peakMemoryKilobytes() / 1024) MiB")
        start = now()
        var total = 0
        for try await chunk in db.blobChunks(table: "photos", column: "jpeg", rowID: 1) { total += chunk.count }
        guard total == bytes else { throw BenchError("read \(total) bytes") }
        print("blob -> chunks: \(formatMilliseconds(Double(now() - start))), peak \(peakMemoryKilobytes() / 1024) MiB")
        start = now()
        let chunks = Chunks(total: bytes)
        try await db.writeBlob(table: "photos", column: "jpeg", rowID: 1, count: bytes, from: chunks)
        print("chunks -> blob: \(formatMilliseconds(Double(now() - start))), peak \(peakMemoryKilobytes() / 1024) MiB")
    }
}

/// `total` bytes in chunks of 1 MiB, made one at a time as they are asked for.
struct Chunks: AsyncSequence, AsyncIteratorProtocol {
    var total: Int
    mutating func next() async -> [UInt8]? {
        guard total > 0 else { return nil }
        let count = Swift.min(total, 1 << 20)
        total -= count
        return [UInt8](repeating: 7, count: count)
    }
    func makeAsyncIterator() -> Chunks { self }
}
