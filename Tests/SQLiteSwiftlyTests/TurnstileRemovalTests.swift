import Foundation
import Testing

@testable import SQLiteSwiftly

/// The writers' turnstile file goes with the last connection that used it, but never while anyone holds or waits
/// for a turn, and a connection whose turnstile was removed queues in the new one.
@Suite struct TurnstileRemovalTests {
    private static func makeDatabase(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.path("queue.sqlite")
        let db = try Connection(creating: path)
        try db.execute("CREATE TABLE t(x INTEGER)")
        return path
    }

    private static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path + WriterTurnstile.suffix)
    }

    @Test("a connection that wrote removes the turnstile when it closes and nobody holds a turn")
    func removedAtClose() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.makeDatabase(directory)
        var db: Connection? = try Connection(opening: path)
        try db?.transaction { try db?.execute("INSERT INTO t VALUES (1)") }
        #expect(Self.exists(path))
        db = nil  // deinit closes too
        #expect(!Self.exists(path))
    }

    @Test("the turnstile stays while another connection holds the turn, and goes with the last one")
    func keptWhileHeld() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.makeDatabase(directory)
        let first = try Connection(opening: path)
        let second = try Connection(opening: path)
        try second.transaction { try second.execute("INSERT INTO t VALUES (1)") }
        try first.transaction {
            try first.execute("INSERT INTO t VALUES (2)")
            try second.close()
            #expect(Self.exists(path), "removed while a turn was held")
        }
        try first.close()
        #expect(!Self.exists(path))
    }

    @Test("a connection whose turnstile was removed queues in the new file, so writers still exclude each other")
    func requeuesAfterRemoval() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.makeDatabase(directory)
        let first = try Connection(opening: path)
        try first.transaction { try first.execute("INSERT INTO t VALUES (1)") }  // opens the turnstile
        let second = try Connection(opening: path)
        try second.transaction { try second.execute("INSERT INTO t VALUES (2)") }
        try second.close()  // nobody holds a turn: the file is removed under `first`
        #expect(!Self.exists(path))
        let third = try Connection(opening: path, options: ConnectionOptions(busyTimeout: .milliseconds(200)))
        try first.transaction {
            try first.execute("INSERT INTO t VALUES (3)")
            #expect(Self.exists(path), "the first connection holds its turn in a file nobody else can find")
            // The third connection waits at the turnstile the first one holds, not at SQLite's lock.
            let error = try requireSQLiteError {
                try third.transaction { try third.execute("INSERT INTO t VALUES (4)") }
            }
            #expect(error.isBusy)
            #expect(error.message.contains("kept the turn"), "\(error.message)")
        }
        try third.transaction { try third.execute("INSERT INTO t VALUES (4)") }
        #expect(try third.fetchValue(Int.self, "SELECT count(*) FROM t") == 4)
    }

    @Test("a file with data at the turnstile's path is not a turnstile: never used, never removed")
    func foreignFileKept() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.makeDatabase(directory)
        let foreign = path + WriterTurnstile.suffix
        try Data("not a lock file".utf8).write(to: URL(fileURLWithPath: foreign))
        let db = try Connection(opening: path)
        try db.transaction { try db.execute("INSERT INTO t VALUES (1)") }
        try db.close()
        #expect(try String(contentsOfFile: foreign, encoding: .utf8) == "not a lock file")
    }

    @Test("a database at the turnstile's path, open in this process, is never opened as a turnstile")
    func databaseAtTurnstilePathKept() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.makeDatabase(directory)
        let other = try Connection(creating: path + WriterTurnstile.suffix)
        try other.execute("CREATE TABLE u(y INTEGER)")
        let db = try Connection(opening: path)
        try db.transaction { try db.execute("INSERT INTO t VALUES (1)") }
        try db.close()
        #expect(try other.fetchValue(Int.self, "SELECT count(*) FROM u") == 0)
        #expect(FileManager.default.fileExists(atPath: path + WriterTurnstile.suffix))
    }
}
