import Foundation
import Testing

@testable import SQLiteSwiftly

/// POSIX drops every `fcntl` lock a process holds on a file when the process closes any descriptor of that file.
/// These tests open a database a second time in every public way while a first connection holds SQLite's locks,
/// with another process (the `sqlite3` shell) writing in between, and check that no lock is lost and no
/// committed row disappears.
@Suite struct FileLockTests {
    enum JournalMode: String, CaseIterable, Sendable {
        case wal, delete
    }

    /// Every public way of opening a database file that already exists (or copying one).
    enum SecondOpen: String, CaseIterable, Sendable {
        case opening, openingReadOnly, openMode, openReadOnlyMode, sharedConnection, pool, template, backup
    }

    @Test(
        "a second connection, opened any way, keeps the first one's locks; another process's commit keeps every row",
        .enabled(if: sqlite3Shell != nil, "the sqlite3 command is not installed (apt-get install sqlite3)"),
        arguments: JournalMode.allCases, SecondOpen.allCases)
    func secondOpenKeepsLocks(journal: JournalMode, way: SecondOpen) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("locks.sqlite")
        var first: Connection? = try Connection(creating: path)
        let db = try #require(first)
        _ = try db.fetchValue(String.self, SQL(verbatim: "PRAGMA journal_mode = \(journal.rawValue)"))
        try db.execute("CREATE TABLE t(x INTEGER)")
        try db.execute("INSERT INTO t VALUES (1)")
        // In WAL mode an idle connection keeps a shared lock on the database file once it has read; in rollback
        // mode a lock is held only inside a transaction, so the first connection holds a read transaction.
        if journal == .delete { try db.execute("BEGIN") }
        _ = try db.fetchValue(Int.self, "SELECT count(*) FROM t")
        var before = LockTable.held(on: path)
        for _ in 0..<200 where before.isEmpty {  // see held(on:expecting:)
            usleep(10_000)
            before = LockTable.held(on: path)
        }
        #if os(Linux)
            #expect(!before.isEmpty, "the first connection holds no lock on the file: nothing to test")
        #endif

        var second: AnyObject?
        if way == .pool && journal == .delete {
            // A pool switches the file to WAL mode, which needs every other connection out of its transactions: the
            // first connection's read transaction makes it wait, and fail once the timeout passes, without touching
            // the locks.
            let options = ConnectionOptions(busyTimeout: .milliseconds(100))
            let error = #expect(throws: SQLiteError.self) {
                _ = try ConnectionPool(.open(path: path), readerCount: 2, options: options)
            }
            #expect(error?.isBusy == true)
        } else {
            second = try await open(way, path: path, directory: directory)
        }
        #if os(Linux)
            let after = LockTable.held(on: path, expecting: before)
            // When the locks are missing, the message names the descriptors still open on the file and every lock
            // line of its inode (an open question of issue #27: in some full parallel runs the list was empty
            // after a SharedConnection or pool opened the file, with both descriptors still open).
            let details = after == before ? "" : "; " + LockTable.descriptors(of: path)
            #expect(after == before, "opening \(way) changed this process's locks on the file\(details)")
        #endif
        if journal == .delete { try db.execute("COMMIT") }
        if second == nil { second = try await open(way, path: path, directory: directory) }

        #expect(try runShell(path, "INSERT INTO t VALUES (2)") == "")
        try db.execute("INSERT INTO t VALUES (100)")
        #expect(try runShell(path, "SELECT group_concat(x) FROM t") == "1,2,100")
        second = nil
        first = nil
        #expect(second == nil && first == nil)
        #expect(try runShell(path, "SELECT group_concat(x) FROM t") == "1,2,100")
        #expect(try runShell(path, "PRAGMA integrity_check") == "ok")
    }

    private func open(_ way: SecondOpen, path: String, directory: TemporaryDirectory) async throws -> AnyObject {
        switch way {
        case .opening: return try Connection(opening: path)
        case .openingReadOnly: return try Connection(opening: path, readOnly: true)
        case .openMode: return try Connection(.open(path: path))
        case .openReadOnlyMode: return try Connection(.openReadOnly(path: path))
        case .sharedConnection:
            let shared = try SharedConnection(.open(path: path))
            _ = try await shared.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM t") }
            return shared
        case .pool:
            let pool = try ConnectionPool(.open(path: path), readerCount: 2)
            _ = try await pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM t") }
            return pool
        case .template:
            return try Connection(creating: directory.path("copy.sqlite"), fromTemplate: path)
        case .backup:
            let reader = try Connection(opening: path, readOnly: true)
            try reader.backup(to: directory.path("backup.sqlite"))
            return reader
        }
    }
}

/// Runs one SQL text through the `sqlite3` shell on `path` (another process) and returns what it printed,
/// without its last line break.
///
/// Spawned with `posix_spawn` and one pipe (close-on-exec) whose two descriptors this function closes exactly once
/// each: these tests check that no descriptor of a database file is ever closed behind SQLite's back, so the
/// harness itself must not close a descriptor number twice (a number closed twice may by then belong to another
/// test's database, whose locks the second close would drop).
func runShell(_ path: String, _ sql: String) throws -> String {
    let shell = try #require(sqlite3Shell)
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0, "pipe failed")
    let (reading, writing) = (ends[0], ends[1])
    _ = fcntl(reading, F_SETFD, FD_CLOEXEC)
    _ = fcntl(writing, F_SETFD, FD_CLOEXEC)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, writing, 1)
    posix_spawn_file_actions_adddup2(&actions, writing, 2)
    let arguments = [shell, "-bail", path, sql]
    var pointers = arguments.map { strdup($0) }
    defer { for pointer in pointers { free(pointer) } }
    pointers.append(nil)
    var child = pid_t()
    let spawned = posix_spawn(&child, shell, &actions, nil, pointers, environ)
    close(writing)
    guard spawned == 0 else {
        close(reading)
        throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO)
    }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(reading, &buffer, buffer.count)
        if count > 0 {
            output += buffer[..<count]
        } else if count < 0 && errno == EINTR {
            continue
        } else {
            break
        }
    }
    close(reading)
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    var text = String(decoding: output, as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    return text
}

/// This process's POSIX record locks, as Linux lists them in `/proc/locks`.
enum LockTable {
    /// The locks this process holds on the file at `path`, one line each (type, access, range), sorted; empty
    /// where `/proc/locks` does not exist.
    static func held(on path: String) -> [String] {
        var info = stat()
        guard stat(path, &info) == 0 else { return ["no file at the path (errno \(errno))"] }
        guard let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else {
            return ["/proc/locks unreadable (errno \(errno))"]
        }
        if table.isEmpty { return ["/proc/locks empty"] }
        let pid = String(getpid())
        return table.split(separator: "\n").compactMap { line -> String? in
            // "1: POSIX  ADVISORY  READ 1234 08:01:5678 1073741824 1073741824"
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 8, fields[1] == "POSIX", fields[4] == pid,
                fields[5].split(separator: ":").last == Substring(String(info.st_ino))
            else { return nil }
            return fields[3] + " " + fields[6] + "-" + fields[7]
        }.sorted()
    }

    /// The locks held on `path`, read again while they differ from `expected`, for up to two seconds: the kernel
    /// writes `/proc/locks` a page at a time, and a line is skipped when locks listed before it go away between
    /// two pages, which happens all the time while the other tests of this process take and release locks (in
    /// full runs, about one read in three missed the line of a lock that the data checks after it proved held).
    /// A lock really dropped stays missing: no statement runs on its connection meanwhile to take it again.
    /// The descriptors of this process open on the file at `path` (from `/proc/self/fd`), and the whole lock
    /// table's lines for its inode, for diagnostics.
    static func descriptors(of path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "no file" }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let open = entries.filter { entry in
            var target = stat()
            return stat("/proc/self/fd/" + entry, &target) == 0 && target.st_ino == info.st_ino
                && target.st_dev == info.st_dev
        }
        let table = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
        let lines = table.split(separator: "\n").filter { $0.contains(":\(info.st_ino) ") }
        return "fds \(open), pid \(getpid()), lines \(lines)"
    }

    static func held(on path: String, expecting expected: [String]) -> [String] {
        var locks = held(on: path)
        for _ in 0..<200 where locks != expected {
            usleep(10_000)
            locks = held(on: path)
        }
        return locks
    }
}
