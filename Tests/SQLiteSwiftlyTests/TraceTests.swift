import SQLiteSwiftly
import Testing

/// Collects trace events; a class so that the hook closure can append to it.
private final class TraceLog {
    var events: [TraceEvent] = []
    var statements: [String] { events.map(\.sql) }
}

@Suite struct TraceTests {
    @Test("the hook receives each executed statement with a duration")
    func tracesEachStatement() throws {
        let db = try Connection.inMemory()
        let log = TraceLog()
        db.trace { log.events.append($0) }
        try db.execute("CREATE TABLE t (x)")
        try db.execute("INSERT INTO t VALUES (?)", [1])
        _ = try db.fetchValue(Int.self, "SELECT count(*) FROM t")
        #expect(log.statements == ["CREATE TABLE t (x)", "INSERT INTO t VALUES (?)", "SELECT count(*) FROM t"])
        #expect(log.events.allSatisfy { $0.duration >= .zero })
    }

    @Test("the duration reflects the work done")
    func durationMeasured() throws {
        let db = try Connection.inMemory()
        let log = TraceLog()
        db.trace { log.events.append($0) }
        _ = try db.fetchValue(
            Int.self,
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000) SELECT count(*) FROM c")
        let event = try #require(log.events.last)
        #expect(event.duration > .zero)
    }

    @Test("expanded SQL contains the bound values; non-expanded SQL keeps the placeholders")
    func expandedOrNot() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x, y)")
        let plainLog = TraceLog()
        db.trace(expanded: false) { plainLog.events.append($0) }
        try db.execute("INSERT INTO t VALUES (?, ?)", ["secret", 42])
        #expect(plainLog.statements == ["INSERT INTO t VALUES (?, ?)"])
        let expanded = TraceLog()
        db.trace(expanded: true) { expanded.events.append($0) }
        try db.execute("INSERT INTO t VALUES (?, ?)", ["secret", 42])
        #expect(expanded.statements == ["INSERT INTO t VALUES ('secret', 42)"])
        #expect(plainLog.events.count == 1)  // replaced hooks receive nothing more
    }

    @Test("tracing is off by default, and trace(nil) stops it")
    func offByDefaultAndStoppable() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE t (x)")  // no hook: nothing to observe, and nothing crashes
        let log = TraceLog()
        db.trace { log.events.append($0) }
        try db.execute("INSERT INTO t VALUES (1)")
        db.trace(nil)
        try db.execute("INSERT INTO t VALUES (2)")
        _ = try db.fetchValue(Int.self, "SELECT count(*) FROM t")
        #expect(log.statements == ["INSERT INTO t VALUES (1)"])
        db.trace(nil)  // stopping twice is harmless
    }

    @Test("script statements, transactions and cursors are traced, and failed statements too")
    func tracesEverything() throws {
        let db = try Connection.inMemory()
        let log = TraceLog()
        db.trace { log.events.append($0) }
        try db.executeScript("CREATE TABLE t (x UNIQUE); INSERT INTO t VALUES (1);")
        try db.transaction { try db.execute("INSERT INTO t VALUES (2)") }
        let cursor = try db.fetchCursor(UntypedRow.self, "SELECT x FROM t")
        _ = try cursor.next()
        cursor.close()
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (1)") }
        #expect(
            log.statements == [
                "CREATE TABLE t (x UNIQUE);", "INSERT INTO t VALUES (1);", "BEGIN IMMEDIATE",
                "INSERT INTO t VALUES (2)", "COMMIT", "SELECT x FROM t", "INSERT INTO t VALUES (1)",
            ])
    }

    @Test("a connection that goes away while tracing closes cleanly")
    func deinitWhileTracing() throws {
        let log = TraceLog()
        do {
            let db = try Connection.inMemory()
            db.trace { log.events.append($0) }
            try db.execute("CREATE TABLE t (x)")
        }
        #expect(log.events.count == 1)
    }
}
