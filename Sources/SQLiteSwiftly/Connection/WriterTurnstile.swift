#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A queue between writers, in every process, that share one database file: the `<database>-turnstile` file.
///
/// A writer that just committed asks for the write lock again at once, microseconds later; a writer in
/// another process that waits for it polls and rarely looks in that instant, so it can wait until its busy
/// timeout has passed although the lock was released every few milliseconds. The turnstile stops the writer
/// that just committed from overtaking: it lets waiting writers go first.
///
/// The file holds no data; one-byte lock ranges in it do the work. Byte 0 is the turn: a writer holds it (an
/// exclusive lock) from before `BEGIN IMMEDIATE` until after `COMMIT` or `ROLLBACK`. Bytes from 2^40 on are the
/// waiting room: a writer that cannot take the turn at once holds a shared lock on the byte numbered after its
/// arrival time (the monotonic clock, shared by every process, in microseconds). Only the writer that arrived
/// first, the one with no lock below its own byte, tries the turn; a writer that arrives while anyone waits
/// joins the room instead of taking a free turn. The turn therefore goes to writers in the order they arrived,
/// and a writer that just committed cannot overtake. The locks are open-file-description locks (`F_OFD_SETLK`):
/// two connections in one process exclude each other, and the kernel releases the locks of a process that
/// dies, so a killed writer never blocks the queue.
///
/// Only Linux has open-file-description locks; elsewhere ``init(databasePath:)`` returns `nil` and writers
/// rely on the busy handler alone (``BusyWait``).
final class WriterTurnstile {
    /// The suffix of the turnstile file's name, after the database path.
    static let suffix = "-turnstile"

    private var descriptor: Int32
    /// The turnstile file's path: the resolved database path and ``suffix``.
    private let path: String

    /// Opens (creating if needed) the turnstile file beside the database, or returns `nil` when it cannot be
    /// opened for writing (a read-only directory, another user's file), when what is at its path is not a
    /// turnstile (a link, a non-empty file, a database this process has open), or the platform lacks the locks.
    init?(databasePath: String) {
        #if os(Linux)
            // SQLite names its journal after the resolved path; so does the turnstile, so that connections that
            // reach one database through different links queue together.
            let resolved = realpath(databasePath, nil)
            defer { free(resolved) }
            let base = resolved.map { String(cString: $0) } ?? databasePath
            path = base + Self.suffix
            guard let descriptor = Self.openFile(path) else { return nil }
            self.descriptor = descriptor
        #else
            return nil
        #endif
    }

    /// Opens the turnstile file at `path`, creating it if needed; `nil` when it cannot, or when the file there is
    /// not an empty regular file of its own.
    ///
    /// The library never opens a database file with a descriptor of its own (closing it would drop SQLite's
    /// locks): a file at this path that this process has open as a database is refused by `stat`, before any
    /// descriptor exists; a link is not followed; and a file with data in it is no turnstile (a turnstile is
    /// always empty), so it is never used, and never removed.
    private static func openFile(_ path: String) -> Int32? {
        if let identity = OpenDatabaseFiles.identity(of: path), OpenDatabaseFiles.isOpen(identity) { return nil }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    deinit {
        close(descriptor)  // releases any lock still held
    }

    /// Closes the turnstile, and removes its file when nobody holds or waits for a turn in it.
    ///
    /// Removing a lock file that others have open is safe only if every user checks, once it holds a lock, that
    /// the file it locked is still the one at the path: ``enter(before:shouldStop:)`` does (a removed file has
    /// no links left), and moves to the new file at the path if not. So the file is removed only while this
    /// descriptor holds an exclusive lock on every byte (no turn held, nobody waiting, in any process), and only
    /// when it is still the empty regular file at the path; anyone who locks it later sees it unlinked.
    func closeRemovingIfUnused() {
        #if os(Linux)
            var everything = Self.range(0, length: 0, type: F_WRLCK)
            var info = stat()
            var atPath = stat()
            if fcntl(descriptor, Self.setLock, &everything) == 0, fstat(descriptor, &info) == 0, info.st_nlink > 0,
                info.st_size == 0, stat(path, &atPath) == 0, atPath.st_dev == info.st_dev,
                atPath.st_ino == info.st_ino
            {
                unlink(path)
            }
        #endif
        // The descriptor closes in deinit, which releases the lock; the connection lets go of this object now.
    }

    /// How a wait for the turn ended.
    enum Entry {
        /// This writer holds the turn.
        case entered
        /// The deadline passed first.
        case timedOut
        /// `shouldStop` said so: an interrupt, or the waiting task was cancelled.
        case stopped
    }

    /// Takes the turn, waiting in the waiting room until `deadline` at the latest.
    ///
    /// - Parameters:
    ///   - deadline: When to give up.
    ///   - shouldStop: Asked at every turn of the wait (every 0.1 to 1 ms); `true` ends the wait.
    /// - Returns: Whether this writer holds the turn, or why not.
    func enter(before deadline: ContinuousClock.Instant, shouldStop: () -> Bool) -> Entry {
        while true {
            let entry = enterFile(before: deadline, shouldStop: shouldStop)
            // A turnstile removed by a connection that closed (see closeRemovingIfUnused) queues nobody any more:
            // move to the file now at the path and queue there. Checked while holding the turn, so no removal can
            // come between the check and the transaction.
            guard entry == .entered, isRemoved, let replacement = Self.openFile(path) else { return entry }
            leave()
            close(descriptor)
            descriptor = replacement
        }
    }

    /// Whether the file this descriptor holds was removed from its path (it has no links left).
    private var isRemoved: Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && info.st_nlink == 0
    }

    /// Takes the turn in the file this descriptor holds; see ``enter(before:shouldStop:)``.
    private func enterFile(before deadline: ContinuousClock.Instant, shouldStop: () -> Bool) -> Entry {
        if !isLocked(from: Self.waitingRoom, to: nil), lock(Self.turn, type: F_WRLCK) { return .entered }
        let seat = Self.waitingRoom + off_t(Self.monotonicMicroseconds())
        let seated = lock(seat, type: F_RDLCK)
        defer { if seated { _ = lock(seat, type: F_UNLCK) } }
        while true {
            // The first in line polls the turn often; the others only watch for their turn to come.
            let isFirst = !isLocked(from: Self.waitingRoom, to: seat)
            if isFirst, lock(Self.turn, type: F_WRLCK) { return .entered }
            if shouldStop() { return .stopped }
            let now = ContinuousClock.now
            guard now < deadline else { return .timedOut }
            let step = isFirst ? Int.random(in: 100...300) : Int.random(in: 500...1000)
            usleep(microseconds(min(deadline - now, .microseconds(step))))
        }
    }

    /// Gives the turn to the next writer.
    func leave() {
        _ = lock(Self.turn, type: F_UNLCK)
    }

    private static let turn: off_t = 0
    private static let waitingRoom: off_t = 1 << 40

    /// The system-wide monotonic clock in microseconds: the same in every process, so arrival times compare.
    private static func monotonicMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }

    /// Whether another writer holds a lock on a byte in `start..<end` (to the end of the file when `end` is nil).
    private func isLocked(from start: off_t, to end: off_t?) -> Bool {
        #if os(Linux)
            if let end, end <= start { return false }
            var query = Self.range(start, length: end.map { $0 - start } ?? 0, type: F_WRLCK)
            guard fcntl(descriptor, Self.getLock, &query) == 0 else { return false }
            return query.l_type != Int16(F_UNLCK)
        #else
            return false
        #endif
    }

    /// Sets (or, with `F_UNLCK`, clears) a lock on one byte without waiting; returns whether it succeeded.
    private func lock(_ byte: off_t, type: Int32) -> Bool {
        #if os(Linux)
            var request = Self.range(byte, length: 1, type: type)
            return fcntl(descriptor, Self.setLock, &request) == 0
        #else
            return false
        #endif
    }

    /// A lock request or query on `length` bytes from `start` (0: to the end of the file, and beyond).
    private static func range(_ start: off_t, length: off_t, type: Int32) -> flock {
        var range = flock()
        range.l_type = Int16(type)
        range.l_whence = Int16(SEEK_SET)
        range.l_start = start
        range.l_len = length
        return range  // l_pid stays 0, as open-file-description locks require
    }

    /// `F_OFD_GETLK` and `F_OFD_SETLK` (Linux 3.15): the C library declares them only with `_GNU_SOURCE`.
    private static let getLock: Int32 = 36
    private static let setLock: Int32 = 37
}
