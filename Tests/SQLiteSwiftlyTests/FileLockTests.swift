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
        let before = LockTable.held(on: path)
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
            let after = LockTable.held(on: path)
            let descriptors = LockTable.descriptors(of: path)
            #expect(
                after == before, "opening \(way) changed this process's locks on the file (descriptors \(descriptors))")
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

    @Test("the lock check sees the lock a stray descriptor's close drops (the failure these tests look for)")
    func lockCheckSeesADroppedLock() throws {
        #if os(Linux)
            let directory = try TemporaryDirectory()
            let path = directory.path("dropped.sqlite")
            let db = try Connection(creating: path)
            _ = try db.fetchValue(String.self, "PRAGMA journal_mode = WAL")
            try db.execute("CREATE TABLE t(x INTEGER)")
            _ = try db.fetchValue(Int.self, "SELECT count(*) FROM t")
            #expect(LockTable.held(on: path) == ["READ 1073741826-1073742335"])
            // What the library never does: a descriptor of its own, closed. POSIX drops the process's locks.
            let stray = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            try #require(stray >= 0)
            close(stray)
            #expect(LockTable.held(on: path) == [])
        #endif
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
func runShell(_ path: String, _ sql: String) throws -> String {
    let shell = try #require(sqlite3Shell)
    var text = try runCapturingOutput([shell, "-bail", path, sql]).output
    if text.hasSuffix("\n") { text.removeLast() }
    return text
}

/// Runs the program `arguments[0]` with `arguments`, this process's environment and `environment` added to it
/// (`NAME=value` entries), and returns its exit status and what it wrote to standard output and standard error.
///
/// Spawned with `posix_spawn` and one pipe (close-on-exec) whose two descriptors this function closes exactly once
/// each: the lock tests check that no descriptor of a database file is ever closed behind SQLite's back, so the
/// harness itself must not close a descriptor number twice (a number closed twice may by then belong to another
/// test's database, whose locks the second close would drop).
func runCapturingOutput(_ arguments: [String], environment: [String] = []) throws -> (status: Int32, output: String) {
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
    var pointers = arguments.map { strdup($0) }
    var environmentPointers = environment.map { strdup($0) }
    defer { for pointer in pointers + environmentPointers { free(pointer) } }
    pointers.append(nil)
    var index = 0
    while let entry = environ[index] {
        environmentPointers.append(strdup(entry))
        index += 1
    }
    environmentPointers.append(nil)
    var child = pid_t()
    let spawned = posix_spawn(&child, arguments[0], &actions, nil, pointers, environmentPointers)
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
    let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return (exitStatus, String(decoding: output, as: UTF8.self))
}

/// This process's POSIX record locks on a file, as the kernel itself reports them.
///
/// An earlier version read `/proc/locks`, which the kernel writes a page at a time, walking its list of every lock
/// on the machine from the start again for each page: a line goes missing when locks listed before it are released
/// between two pages, which the other tests of this process do all the time. In full parallel runs the line of a
/// lock stayed missing from every read for two seconds while `F_OFD_GETLK` reported the lock held (issue #27). The
/// kernel's answer to a lock request has no such gap.
enum LockTable {
    /// The locks this process holds on the file at `path`, one line each (type and byte range), in byte order;
    /// empty where the platform lacks open-file-description locks (Linux only).
    ///
    /// It asks, with `F_OFD_GETLK` on one of SQLite's own descriptors of the file (found in `/proc/self/fd`, so that
    /// no descriptor of the file is opened or closed here), whether a write lock could be placed from each byte on:
    /// an open-file-description lock conflicts with every POSIX lock, even one this process holds, so the kernel
    /// answers with the first lock in the way, and the next question starts after it. A lock of another process
    /// shows its process id.
    static func held(on path: String) -> [String] {
        #if os(Linux)
            guard let descriptor = descriptors(of: path).first else { return ["no descriptor of the file is open"] }
            var locks: [String] = []
            var start: off_t = 0
            while true {
                var query = flock()
                query.l_type = Int16(F_WRLCK)
                query.l_whence = Int16(SEEK_SET)
                query.l_start = start
                query.l_len = 0  // to the end of any file
                guard fcntl(descriptor, getOpenFileDescriptionLock, &query) == 0 else {
                    return locks + ["F_OFD_GETLK failed (errno \(errno))"]
                }
                guard query.l_type != Int16(F_UNLCK) else { return locks }
                let kind = query.l_type == Int16(F_RDLCK) ? "READ" : "WRITE"
                let owner = query.l_pid == getpid() ? "" : " (process \(query.l_pid))"
                guard query.l_len > 0 else { return locks + ["\(kind) \(query.l_start)-end\(owner)"] }
                let last = query.l_start + query.l_len - 1
                locks.append("\(kind) \(query.l_start)-\(last)\(owner)")
                start = last + 1
            }
        #else
            return []
        #endif
    }

    /// `F_OFD_GETLK` (Linux 3.15): the C library declares it only with `_GNU_SOURCE`.
    private static let getOpenFileDescriptionLock: Int32 = 36

    /// The descriptors of this process open on the file at `path`, from `/proc/self/fd` (`stat` only: nothing is
    /// opened), in numeric order.
    static func descriptors(of path: String) -> [Int32] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.compactMap { Int32($0) }.filter { descriptor in
            var target = stat()
            return stat("/proc/self/fd/\(descriptor)", &target) == 0 && target.st_ino == info.st_ino
                && target.st_dev == info.st_dev
        }.sorted()
    }
}
