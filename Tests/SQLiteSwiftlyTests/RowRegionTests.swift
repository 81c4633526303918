import Testing

@testable import SQLiteSwiftly

/// Row-level regions end to end: an observation that reads rows by id is not fetched again for commits that change
/// other rows, and every kind of change to an observed row is delivered.
@Suite struct RowRegionTests {
    private static let schema = """
        CREATE TABLE parents (id INTEGER PRIMARY KEY);
        CREATE TABLE items (
            id INTEGER PRIMARY KEY, name TEXT UNIQUE, value INTEGER,
            parent INTEGER REFERENCES parents(id) ON DELETE CASCADE);
        CREATE TABLE log (x INTEGER);
        CREATE TRIGGER zap AFTER INSERT ON log BEGIN DELETE FROM items WHERE id = new.x; END;
        INSERT INTO parents VALUES (1), (2);
        INSERT INTO items VALUES (1, 'one', 10, 2), (2, 'two', 20, 1), (3, 'three', 30, 2), (4, 'four', 40, 2);
        """

    private func makeShared() async throws -> SharedConnection {
        let shared = try SharedConnection(.inMemory)
        try await shared.write { db in try db.executeScript(SQL(verbatim: Self.schema)) }
        return shared
    }

    /// Observes `items` rows by id; each fetch is counted.
    private func observe(
        _ owner: some ObservationOwner, ids: [Int64], counter: CallCounter
    ) -> ObservationRecorder<[String]> {
        let list = ids.map(String.init).joined(separator: ", ")
        return ObservationRecorder(
            QueryObservation(owner: owner, options: .default) { db in
                counter.increment()
                let rows =
                    ids.count == 1
                    ? try db.fetchValue(
                        String.self,
                        "SELECT coalesce(group_concat(id || ':' || name || ':' || value), '') FROM items WHERE id = \(ids[0])"
                    )
                    : try db.fetchValue(
                        String.self,
                        SQL(
                            verbatim:
                                "SELECT coalesce(group_concat(id || ':' || name || ':' || value), '') FROM items WHERE id IN (\(list))"
                        ))
                return rows.map { $0.split(separator: ",").map(String.init) } ?? []
            })
    }

    /// Writes to rows 3 and 4, then runs `change`: the observation of `ids` delivers once, with `expected`.
    private func expectChange(
        observing ids: [Int64] = [2], to expected: [String], _ change: @escaping @Sendable (Connection) throws -> Void
    ) async throws {
        let shared = try await makeShared()
        let counter = CallCounter()
        let recorder = observe(shared, ids: ids, counter: counter)
        _ = try await recorder.value(at: 0)
        try await shared.write { db in try db.execute("UPDATE items SET value = value + 1 WHERE id IN (3, 4)") }
        try await shared.write { db in try db.execute("INSERT INTO items (name, value) VALUES ('new', 0)") }
        try await shared.write(change)
        #expect(try await recorder.value(at: 1) == expected)
        #expect(counter.value == 2)
    }

    @Test("an observation by id is not fetched again for other rows, by IN list neither")
    func otherRows() async throws {
        try await expectChange(to: ["2:two:21"]) { db in try db.execute("UPDATE items SET value = 21 WHERE id = 2") }
        try await expectChange(observing: [1, 2], to: ["1:one:10"]) { db in
            try db.execute("DELETE FROM items WHERE id = 2")
        }
    }

    @Test("an update, a delete and an insert of a missing observed id are delivered")
    func plainChanges() async throws {
        try await expectChange(to: []) { db in try db.execute("DELETE FROM items WHERE id = 2") }
        try await expectChange(observing: [7], to: ["7:seven:70"]) { db in
            try db.execute("INSERT INTO items (id, name, value) VALUES (7, 'seven', 70)")
        }
    }

    @Test("changes the update hook does not report row by row are delivered")
    func unreportedChanges() async throws {
        try await expectChange(to: []) { db in
            try db.execute("INSERT OR REPLACE INTO items (id, name, value) VALUES (9, 'two', 90)")
        }
        try await expectChange(to: []) { db in try db.execute("UPDATE items SET id = 9 WHERE id = 2") }
        try await expectChange(to: []) { db in try db.execute("INSERT INTO log VALUES (2)") }
        try await expectChange(to: []) { db in try db.execute("DELETE FROM parents WHERE id = 1") }
        try await expectChange(to: []) { db in try db.execute("DELETE FROM items") }
        try await expectChange(to: []) { db in try db.executeScript("DELETE FROM items WHERE id = 2; SELECT 1;") }
    }

    @Test("a changeset applied to an observed row is delivered")
    func changesets() async throws {
        let source = try Connection.inMemory()
        try source.executeScript(SQL(verbatim: Self.schema))
        let (_, changeset) = try source.recordingChangeset {
            try source.execute("UPDATE items SET value = 99 WHERE id = 2")
        }
        try await expectChange(to: ["2:two:99"]) { db in try db.apply(changeset) }
    }

    @Test("a blob write to an observed row is delivered; one to another row is not")
    func blobs() async throws {
        let shared = try await makeShared()
        try await shared.write { db in
            try db.execute("CREATE TABLE files (id INTEGER PRIMARY KEY, data BLOB)")
            try db.execute("INSERT INTO files VALUES (1, x'00'), (2, x'00')")
        }
        let counter = CallCounter()
        let recorder = ObservationRecorder(
            shared.observe { db in
                counter.increment()
                return try db.fetchValue([UInt8].self, "SELECT data FROM files WHERE id = \(1)") ?? []
            })
        #expect(try await recorder.value(at: 0) == [0])
        for rowID: Int64 in [2, 1] {
            try await shared.write { db in
                try db.withBlob(table: "files", column: "data", rowID: rowID, writable: true) { blob in
                    try blob.write([UInt8(rowID)], at: 0)
                }
            }
        }
        #expect(try await recorder.value(at: 1) == [1])
        #expect(counter.value == 2)
    }

    @Test("a rolled-back change is not delivered; a transaction over observed and other rows delivers once")
    func transactions() async throws {
        let shared = try await makeShared()
        let counter = CallCounter()
        let recorder = observe(shared, ids: [2], counter: counter)
        _ = try await recorder.value(at: 0)
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await shared.write { db in
                try db.execute("UPDATE items SET value = 0 WHERE id = 2")
                throw Refused()
            }
        }
        try await shared.write { db in
            try db.execute("UPDATE items SET value = 1 WHERE id = 3")
            try db.execute("UPDATE items SET value = 22 WHERE id = 2")
            try db.execute("UPDATE items SET value = 1 WHERE id = 4")
        }
        #expect(try await recorder.value(at: 1) == ["2:two:22"])
        try await shared.write { db in try db.execute("UPDATE items SET value = 23 WHERE id = 2") }
        #expect(try await recorder.value(at: 2) == ["2:two:23"])
        #expect(counter.value == 3)
    }

    @Test("WITHOUT ROWID tables and bound reals do not narrow: every write to the table fetches again")
    func noNarrowing() async throws {
        let shared = try await makeShared()
        try await shared.write { db in
            try db.execute("CREATE TABLE tags (name TEXT PRIMARY KEY, uses INTEGER) WITHOUT ROWID")
            try db.execute("INSERT INTO tags VALUES ('a', 1), ('b', 1)")
        }
        let tags = ObservationRecorder(
            shared.observe { db in try db.fetchValue(Int.self, "SELECT uses FROM tags WHERE name = 'a'") })
        let real = ObservationRecorder(
            shared.observe { db in try db.fetchValue(Int.self, "SELECT value FROM items WHERE id = \(2.0)") })
        #expect(try await tags.value(at: 0) == 1)
        #expect(try await real.value(at: 0) == 20)
        try await shared.write { db in try db.execute("UPDATE tags SET uses = 5 WHERE name = 'b'") }
        try await shared.write { db in try db.execute("UPDATE items SET value = 5 WHERE id = 3") }
        #expect(try await tags.value(at: 1) == 1)
        #expect(try await real.value(at: 1) == 20)
    }

    @Test("in a join by id, the table read by id narrows and the joined one is read whole")
    func join() async throws {
        let shared = try await makeShared()
        let counter = CallCounter()
        let recorder = ObservationRecorder(
            shared.observe { db in
                counter.increment()
                return try db.fetchValue(
                    String.self,
                    "SELECT items.name FROM items JOIN parents ON parents.id = items.parent WHERE items.id = \(2)")
            })
        #expect(try await recorder.value(at: 0) == "two")
        try await shared.write { db in try db.execute("UPDATE items SET value = 5 WHERE id = 3") }
        try await shared.write { db in try db.execute("INSERT INTO parents VALUES (3)") }
        #expect(try await recorder.value(at: 1) == "two")
        try await shared.write { db in try db.execute("UPDATE items SET name = 'deux' WHERE id = 2") }
        #expect(try await recorder.value(at: 2) == "deux")
        #expect(counter.value == 3)
    }

    @Test("VACUUM, which may renumber the rows of a table without INTEGER PRIMARY KEY, fetches again")
    func vacuum() async throws {
        let shared = try await makeShared()
        try await shared.write { db in
            try db.execute("CREATE TABLE plain (name TEXT)")
            try db.execute("INSERT INTO plain VALUES ('a'), ('b'), ('c')")
        }
        let recorder = ObservationRecorder(
            shared.observe { db in try db.fetchValue(String.self, "SELECT name FROM plain WHERE rowid = \(2)") })
        #expect(try await recorder.value(at: 0) == "b")
        try await shared.write { db in try db.execute("DELETE FROM plain WHERE rowid = 1") }
        _ = try await shared.withConnection { db in try db.execute("VACUUM") }
        #expect(try await recorder.value { $0 == "c" } == "c")
    }

    @Test("through a ConnectionPool: other rows do not fetch again, the observed row does")
    func pool() async throws {
        let directory = try TemporaryDirectory()
        let pool = try ConnectionPool(.create(path: directory.path("rows.sqlite")), readerCount: 2)
        try await pool.write { db in try db.executeScript(SQL(verbatim: Self.schema)) }
        let counter = CallCounter()
        let recorder = observe(pool, ids: [2], counter: counter)
        #expect(try await recorder.value(at: 0) == ["2:two:20"])
        for value in 0..<5 {
            try await pool.write { db in try db.execute("UPDATE items SET value = \(value) WHERE id = 3") }
        }
        try await pool.write { db in try db.execute("UPDATE items SET value = 21 WHERE id = 2") }
        #expect(try await recorder.value(at: 1) == ["2:two:21"])
        #expect(counter.value == 2)
    }

    @Test(
        "a commit by another process is delivered to an observation by id",
        .enabled(if: sqlite3Shell != nil, "the sqlite3 command is not installed (apt-get install sqlite3)"))
    func otherProcess() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("process.sqlite")
        let shared = try SharedConnection(.create(path: path))
        try await shared.write { db in try db.executeScript(SQL(verbatim: Self.schema)) }
        let counter = CallCounter()
        let recorder = observe(shared, ids: [2], counter: counter)
        #expect(try await recorder.value(at: 0) == ["2:two:20"])
        _ = try runShell(path, "UPDATE items SET value = 24 WHERE id = 2;")
        #expect(try await recorder.value { $0 == ["2:two:24"] } == ["2:two:24"])
    }
}
