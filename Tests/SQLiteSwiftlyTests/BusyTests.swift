import Foundation
import SQLiteSwiftly
import Testing

/// The `sqlite3` command-line shell, if installed (`.ci/run` installs Debian's `sqlite3` package).
let sqlite3Shell: String? = {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
    return (directories + ["/usr/bin", "/usr/local/bin"]).map { $0 + "/sqlite3" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}()

/// A second process: the `sqlite3` shell, fed SQL on its standard input.
final class ShellProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var pending = Data()
    private var markers = 0

    init(shell: String, database: String) throws {
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = [database]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func send(_ sql: String) {
        input.fileHandleForWriting.write(Data((sql + "\n").utf8))
    }

    /// Waits until the shell has run everything sent so far: it prints a marker after the last command, and
    /// the shell runs its input in order. (A failing command stops nothing: the marker still comes.)
    func sync() throws {
        markers += 1
        let marker = "synced-\(markers)"
        send(".print \(marker)")
        let wanted = Data((marker + "\n").utf8)
        while pending.range(of: wanted) == nil {
            let chunk = output.fileHandleForReading.availableData  // blocks until the shell writes or exits
            guard !chunk.isEmpty else { throw ShellExited() }
            pending.append(chunk)
        }
        pending.removeAll()
    }

    struct ShellExited: Error {}

    /// Closes the shell's input (it rolls back an open transaction and exits) and waits for it.
    func finish() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

@Suite struct BusyTests {
    private func makeDatabase(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.path("busy.sqlite")
        let db = try Connection(creating: path)
        try db.execute("CREATE TABLE items (value INTEGER NOT NULL)")
        try db.execute("INSERT INTO items VALUES (1)")
        return path
    }

    @Test("the default busy timeout is 5 seconds")
    func defaultTimeout() {
        #expect(ConnectionOptions.default.busyTimeout == .seconds(5))
    }

    @Test(
        "a write fails at BEGIN with a busy error while another process holds BEGIN IMMEDIATE",
        .enabled(if: sqlite3Shell != nil, "the sqlite3 command is not installed (apt-get install sqlite3)"))
    func busyFromAnotherProcess() async throws {
        try await offPool {
            let directory = try TemporaryDirectory()
            let path = try makeDatabase(directory)
            let shell = try ShellProcess(shell: try #require(sqlite3Shell), database: path)
            shell.send("BEGIN IMMEDIATE;")
            shell.send("INSERT INTO items VALUES (2);")
            try shell.sync()  // the shell holds the write lock now

            let db = try Connection(opening: path, options: .init(busyTimeout: .milliseconds(200)))
            let start = ContinuousClock.now
            var bodyRan = false
            #expect {
                try db.transaction {
                    bodyRan = true
                    try db.execute("INSERT INTO items VALUES (3)")
                }
            } throws: { error in
                guard let error = error as? SQLiteError else { return false }
                return error.isBusy && error.kind == .sqlite && error.sql == "BEGIN IMMEDIATE"
            }
            #expect(ContinuousClock.now - start >= .milliseconds(150))
            #expect(!bodyRan)
            #expect(!db.isInTransaction)

            shell.send("COMMIT;")
            shell.finish()
            try db.transaction { try db.execute("INSERT INTO items VALUES (3)") }
            #expect(try db.fetchAll(UntypedRow.self, "SELECT value FROM items ORDER BY value").count == 3)
            #expect(try db.fetchValue(String.self, "PRAGMA integrity_check") == "ok")
        }
    }

    @Test(
        "a SharedConnection write is busy while another process holds the lock, and works once it is released",
        .enabled(if: sqlite3Shell != nil, "the sqlite3 command is not installed (apt-get install sqlite3)"))
    func sharedConnectionBusy() async throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory)
        let shell = try ShellProcess(shell: try #require(sqlite3Shell), database: path)
        shell.send("BEGIN IMMEDIATE;")
        try shell.sync()
        let shared = try SharedConnection(.open(path: path), options: .init(busyTimeout: .milliseconds(100)))
        await #expect {
            try await shared.write { db in try db.execute("INSERT INTO items VALUES (2)") }
        } throws: { error in
            (error as? SQLiteError)?.isBusy == true
        }
        shell.finish()  // rolls the shell's transaction back
        try await shared.write { db in try db.execute("INSERT INTO items VALUES (2)") }
        let count = try await shared.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM items") }
        #expect(count == 2)
    }

    @Test(
        "rollback-journal mode: a read transaction in another process makes COMMIT fail busy; nothing is written",
        .enabled(if: sqlite3Shell != nil, "the sqlite3 command is not installed (apt-get install sqlite3)"))
    func readerInAnotherProcessBlocksCommit() async throws {
        try await offPool {
            let directory = try TemporaryDirectory()
            let path = try makeDatabase(directory)
            let shell = try ShellProcess(shell: try #require(sqlite3Shell), database: path)
            shell.send("BEGIN;")
            shell.send("SELECT count(*) FROM items;")
            try shell.sync()  // the shell holds a shared lock until its transaction ends

            let db = try Connection(opening: path, options: .init(busyTimeout: .milliseconds(200)))
            var bodyRan = false
            let error = try requireSQLiteError {
                try db.transaction {
                    bodyRan = true
                    try db.execute("INSERT INTO items VALUES (2)")
                }
            }
            #expect(bodyRan, "BEGIN IMMEDIATE does not wait for readers: the body ran")
            #expect(error.isBusy && error.sql == "COMMIT", "\(error)")
            #expect(!db.isInTransaction)
            shell.send("COMMIT;")
            shell.finish()
            #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM items") == 1)
            // In WAL mode the same reader does not block the commit.
            _ = try db.fetchValue(String.self, "PRAGMA journal_mode = WAL")
            let walShell = try ShellProcess(shell: try #require(sqlite3Shell), database: path)
            walShell.send("BEGIN;")
            walShell.send("SELECT count(*) FROM items;")
            try walShell.sync()
            try db.transaction { try db.execute("INSERT INTO items VALUES (2)") }
            walShell.finish()
            #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM items") == 2)
        }
    }

    @Test("two connections in one process: the second writer is busy at BEGIN, readers still read")
    func busyWithinOneProcess() async throws {
        try await offPool {
            let directory = try TemporaryDirectory()
            let path = try makeDatabase(directory)
            let first = try Connection(opening: path)
            let second = try Connection(opening: path, options: .init(busyTimeout: .milliseconds(100)))
            try first.execute("BEGIN IMMEDIATE")
            try first.execute("INSERT INTO items VALUES (2)")
            var bodyRan = false
            #expect {
                try second.transaction { bodyRan = true }
            } throws: { error in
                (error as? SQLiteError)?.isBusy == true
            }
            #expect(!bodyRan)
            // In rollback-journal mode a writer that has not committed yet leaves the last commit readable.
            #expect(try second.fetchValue(Int.self, "SELECT count(*) FROM items") == 1)
            try first.execute("COMMIT")
            try second.transaction { try second.execute("INSERT INTO items VALUES (3)") }
            #expect(try first.fetchValue(Int.self, "SELECT count(*) FROM items") == 3)
        }
    }

    @Test("a connection with the default timeout waits about 5 seconds before reporting busy")
    func defaultTimeoutWaits() async throws {
        try await offPool {
            let directory = try TemporaryDirectory()
            let path = try makeDatabase(directory)
            let holder = try Connection(opening: path)
            try holder.execute("BEGIN IMMEDIATE")
            let waiter = try Connection(opening: path)
            let start = ContinuousClock.now
            #expect {
                try waiter.execute("BEGIN IMMEDIATE")
            } throws: { error in
                (error as? SQLiteError)?.isBusy == true
            }
            let waited = ContinuousClock.now - start
            #expect(waited >= .milliseconds(4500) && waited < .seconds(20))
            try holder.execute("ROLLBACK")
        }
    }
}
