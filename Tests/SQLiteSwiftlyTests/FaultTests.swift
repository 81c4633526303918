import Foundation
import SQLiteSwiftly
import Testing

/// Checks that the database at `path` holds exactly rows 1...count and passes `PRAGMA integrity_check`.
func expectIntact(_ path: String, rows count: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let db = try Connection(opening: path, readOnly: true)
    #expect(try db.fetchValue(String.self, "PRAGMA integrity_check") == "ok", sourceLocation: sourceLocation)
    let ids = try db.fetchAll(UntypedRow.self, "SELECT id FROM items ORDER BY id").map(\.values)
    #expect(ids == (1...max(count, 1)).prefix(count).map { [.integer(Int64($0))] }, sourceLocation: sourceLocation)
}

@Suite struct FaultTests {
    /// A database with `items` rows 1...count, each with a 100-byte payload.
    private func makeDatabase(_ directory: TemporaryDirectory, rows count: Int = 50) throws -> String {
        let path = directory.path("faults.sqlite")
        let db = try Connection(creating: path)
        try db.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
        try db.transaction {
            for id in 1...count { try db.execute("INSERT INTO items VALUES (?, zeroblob(100))", [id]) }
        }
        return path
    }

    @Test("disk full (max_page_count): typed SQLITE_FULL, the transaction rolled back, committed rows intact")
    func diskFull() throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory)
        let db = try Connection(opening: path)
        let pages = try #require(try db.fetchValue(Int.self, "PRAGMA page_count"))
        try db.execute(SQL(verbatim: "PRAGMA max_page_count = \(pages + 2)"))
        #expect {
            try db.transaction {
                for id in 51...200 { try db.execute("INSERT INTO items VALUES (?, zeroblob(4000))", [id]) }
            }
        } throws: { error in
            (error as? SQLiteError)?.code.primary == .full
        }
        #expect(!db.isInTransaction)
        // A single statement that does not fit fails alone; the database stays writable for what fits.
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO items VALUES (51, zeroblob(100000))") }
        try db.execute("INSERT INTO items VALUES (51, zeroblob(10))")
        try db.execute("DELETE FROM items WHERE id = 51")
        try expectIntact(path, rows: 50)
    }

    @Test("a read-only connection refuses every kind of write with SQLITE_READONLY and changes nothing")
    func readOnlyConnection() throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory)
        let db = try Connection(opening: path, readOnly: true)
        #expect(db.isReadOnly)
        for sql in [
            "INSERT INTO items VALUES (99, x'00')", "UPDATE items SET payload = x'01'", "DELETE FROM items",
            "CREATE TABLE other (x)", "DROP TABLE items",
        ] {
            #expect {
                try db.execute(SQL(verbatim: sql))
            } throws: { error in
                (error as? SQLiteError)?.code.primary == .readOnly
            }
        }
        #expect { try db.transaction { try db.execute("DELETE FROM items") } } throws: { error in
            (error as? SQLiteError)?.code.primary == .readOnly
        }
        try expectIntact(path, rows: 50)
    }

    @Test(
        "a file that cannot be written opens as a read-only database, as root too",
        .enabled(if: Unwritable.isAvailable, "neither file permissions nor chattr can make a file unwritable here"))
    func fileWithoutWritePermission() throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory)
        let unwritable = try Unwritable(path)
        defer { unwritable.restore() }
        let db = try Connection(opening: path)
        #expect(db.isReadOnly)
        #expect { try db.execute("DELETE FROM items") } throws: { error in
            (error as? SQLiteError)?.code.primary == .readOnly
        }
        try expectIntact(path, rows: 50)
    }

    @Test("garbage over the header: opening fails with notADatabase, no crash")
    func corruptHeader() throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory)
        try overwrite(path, at: 0, count: 100)
        #expect { _ = try Connection(opening: path) } throws: { error in
            (error as? SQLiteError)?.kind == .notADatabase
        }
    }

    @Test("garbage over data pages: reads fail with a typed corruption error, no crash", arguments: [2, 3, 4])
    func corruptPages(firstPage: Int) throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory, rows: 400)
        let pageSize = 4096
        try overwrite(path, at: (firstPage - 1) * pageSize, count: 2 * pageSize)
        try expectTypedCorruption(path)
    }

    @Test("a truncated file: typed errors, no crash", arguments: [0.25, 0.5, 0.9])
    func truncatedFile(fraction: Double) throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory, rows: 400)
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(Double(size) * fraction)) == 0)
        try expectTypedCorruption(path)
    }

    /// Opening or reading a damaged database fails with a typed corruption error (or the integrity check
    /// reports the damage); nothing traps.
    private func expectTypedCorruption(_ path: String) throws {
        let db: Connection
        do {
            db = try Connection(opening: path)
        } catch {
            // The schema itself may be unreadable: then opening fails, typed.
            #expect([.corrupt, .notADatabase].contains(error.code.primary), "\(error)")
            return
        }
        var failures: [SQLiteError] = []
        do {
            _ = try db.fetchAll(UntypedRow.self, "SELECT * FROM items")
        } catch let error as SQLiteError {
            failures.append(error)
        }
        let check: String?
        do {
            check = try db.fetchValue(String.self, "PRAGMA integrity_check")
        } catch {
            failures.append(error)
            check = nil
        }
        #expect(!failures.isEmpty || check != "ok")
        for failure in failures {
            #expect([.corrupt, .notADatabase].contains(failure.code.primary), "\(failure)")
        }
    }

    @Test(
        "interrupting a long query from another thread: code .interrupt, connection usable after",
        .timeLimit(.minutes(1)))
    func interruptFromAnotherThread() throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory)
        let db = try Connection(opening: path)
        let handle = db.interruptHandle
        let finished = TestFlag()
        let thread = Thread {
            // Repeated, without pacing: an interrupt that lands before the query's first step has no effect.
            while !finished.isSet {
                handle.interrupt()
                sched_yield()
            }
        }
        thread.start()
        #expect { _ = try db.fetchValue(Int.self, SQL(verbatim: endlessQuery)) } throws: { error in
            (error as? SQLiteError)?.code == .interrupt
        }
        finished.set()
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM items") == 50)
        try expectIntact(path, rows: 50)
    }

    @Test("SQLite rolling a transaction back by itself (RAISE(ROLLBACK)) is reported, nothing of it kept")
    func sqliteRollsBack() throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory)
        let db = try Connection(opening: path)
        try db.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON items WHEN NEW.id > 1000 "
                + "BEGIN SELECT RAISE(ROLLBACK, 'refused by trigger'); END")
        #expect {
            try db.transaction {
                try db.execute("INSERT INTO items VALUES (51, x'00')")
                try db.execute("INSERT INTO items VALUES (1001, x'00')")
            }
        } throws: { error in
            (error as? SQLiteError)?.kind == .transactionRolledBack
        }
        // A body that swallows the failure cannot commit what is left.
        #expect {
            try db.transaction {
                try db.execute("INSERT INTO items VALUES (52, x'00')")
                _ = try? db.execute("INSERT INTO items VALUES (1002, x'00')")
            }
        } throws: { error in
            (error as? SQLiteError)?.kind == .transactionRolledBack
        }
        #expect(!db.isInTransaction)
        try expectIntact(path, rows: 50)
    }

    @Test("dropping the connection while a statement and a cursor live keeps them working")
    func statementsOutliveTheirVariable() throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory)
        func make() throws -> (Statement, Cursor<UntypedRow>) {
            let db = try Connection(opening: path)
            return (
                try db.prepare("SELECT count(*) FROM items"),
                try db.fetchCursor(UntypedRow.self, "SELECT id FROM items")
            )
        }
        let (statement, cursor) = try make()
        #expect(try statement.fetchAll(UntypedRow.self).first?.values == [.integer(50)])
        var read = 0
        while try cursor.next() != nil { read += 1 }
        #expect(read == 50)
        try expectIntact(path, rows: 50)
    }

    private func overwrite(_ path: String, at offset: Int, count: Int) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var generator = SystemRandomNumberGenerator()
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}

/// Makes a file unwritable for this process: `chmod 444` for a normal user; for root, whom permissions do not
/// stop (CI runs as root), the immutable attribute (`chattr +i`), which stops root too.
struct Unwritable {
    let path: String

    init(_ path: String) throws {
        self.path = path
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        if getuid() == 0 { try #require(Self.chattr("+i", path), "chattr +i failed on \(path)") }
    }

    /// Makes the file removable again.
    func restore() {
        if getuid() == 0 { _ = Self.chattr("-i", path) }
    }

    /// Whether this machine can make a file unwritable for this process.
    static let isAvailable: Bool = {
        guard getuid() == 0 else { return true }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("unwritable-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: probe.path, contents: Data()) else { return false }
        defer { try? FileManager.default.removeItem(at: probe) }
        guard chattr("+i", probe.path) else { return false }
        return chattr("-i", probe.path)
    }()

    private static func chattr(_ flag: String, _ path: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
