import CSQLiteSwiftly

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tells when a database's files change on disk, whoever changed them, through the operating system's file-change
/// notification, so that observations check for other processes' commits only then, instead of polling.
///
/// On Linux it is one inotify watch on the database's directory, for the events (modified, created, deleted,
/// renamed) of the database file, its `-wal` and its `-journal`: a commit in rollback-journal mode writes the
/// database file, one in WAL mode appends to the WAL. Watching the directory rather than the files needs no
/// descriptor of any database file (closing one would drop SQLite's locks, see "File locks" in DESIGN.md), and
/// sees a WAL that is created or deleted later. A dedicated thread blocks in `poll` on the inotify descriptor and on
/// an eventfd that stops it, and times the checks that follow an event (``Notice``): five seconds after the last
/// change it does not run at all. An event is only a hint: the hub then compares `PRAGMA data_version`, which tells
/// another connection's commit from this process's own writes.
///
/// ``start(databasePath:onNotice:)`` returns `nil` where it cannot work, and the hub polls instead: on platforms
/// without inotify (kqueue on Apple platforms needs a descriptor of the file itself, which this library never
/// opens), on a network file system (NFS, SMB, FUSE...), whose changes made by other machines inotify does not see,
/// and when inotify refuses (out of watches or descriptors).
final class FileChangeWatcher: Sendable {
    /// What the watcher tells its owner, on its thread.
    enum Notice {
        /// The database's files changed (or events may have been lost): a commit may become visible soon.
        case changed
        /// The data version should be checked now, unless a check that started at or after `since` succeeded: once
        /// after each event (a millisecond later, when the writer has usually finished its commit), then at
        /// doubling intervals for a while after the last event, for commits that become visible late.
        case checkDue(since: ContinuousClock.Instant)
    }

    private let inotify: Int32
    private let wake: Int32
    private let names: [[UInt8]]
    private let onNotice: @Sendable (Notice) -> Void

    deinit {
        // The thread holds the watcher while it runs, so both descriptors outlive every use.
        close(inotify)
        close(wake)
    }

    private init(inotify: Int32, wake: Int32, names: [[UInt8]], onNotice: @escaping @Sendable (Notice) -> Void) {
        self.inotify = inotify
        self.wake = wake
        self.names = names
        self.onNotice = onNotice
    }

    /// Starts watching the files of the database at `databasePath`; `nil` where events cannot be had.
    ///
    /// - Parameters:
    ///   - databasePath: The database file.
    ///   - onNotice: Called on the watcher's thread: see ``Notice``.
    static func start(databasePath: String, onNotice: @escaping @Sendable (Notice) -> Void) -> FileChangeWatcher? {
        #if os(Linux)
            // SQLite names the WAL and the journal after the resolved path of the database.
            guard let resolved = realpath(databasePath, nil) else { return nil }
            let path = String(cString: resolved)
            free(resolved)
            guard let slash = path.lastIndex(of: "/") else { return nil }
            let directory = slash == path.startIndex ? "/" : String(path[..<slash])
            let base = Array(path[path.index(after: slash)...].utf8)
            guard csqlite_is_network_file_system(directory) == 0 else { return nil }
            let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            guard inotify >= 0 else { return nil }
            let mask = UInt32(
                IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)
            let wake = csqlite_make_wake_descriptor()
            guard wake >= 0, inotify_add_watch(inotify, directory, mask) >= 0 else {
                close(inotify)
                if wake >= 0 { close(wake) }
                return nil
            }
            let names = [base, base + Array("-wal".utf8), base + Array("-journal".utf8)]
            let watcher = FileChangeWatcher(inotify: inotify, wake: wake, names: names, onNotice: onNotice)
            // The thread holds the watcher, and so its descriptors, until it returns.
            return DetachedThread.start({ watcher.run() }) ? watcher : nil
        #else
            return nil
        #endif
    }

    /// How long after an event the first check is due: time for the writer to finish its commit. It is also the
    /// shortest rest of the thread after it reports an event.
    ///
    /// In WAL mode a commit becomes visible when its writer updates the WAL index in shared memory, after its last
    /// write to the WAL and, with `synchronous = FULL`, after an `fsync`; neither raises an event. A check at the
    /// event itself would usually run too early.
    static let commitSettleTime: Duration = .milliseconds(1)

    /// The longest rest after an event, while events keep coming: a commit of another process in a burst of this
    /// process's own is reported at most this late.
    static let longestRest: Duration = .milliseconds(9)

    /// The first interval of the checks that follow the last event (see ``Notice/checkDue(since:)``); each next one
    /// is twice as long.
    static let firstTailGap: Duration = .milliseconds(10)

    /// How long after the last event those checks go on.
    static let tailHorizon: Duration = .seconds(5)

    /// Ends the thread. Safe to call more than once.
    func stop() {
        var one: UInt64 = 1
        _ = write(wake, &one, MemoryLayout<UInt64>.size)
    }

    /// The checks that follow the last event: see ``firstTailGap`` and ``tailHorizon``.
    private struct Tail {
        let lastEvent: ContinuousClock.Instant
        /// When the previous check was due: the next one is due ``gap`` later.
        let previous: ContinuousClock.Instant
        let gap: Duration

        var next: ContinuousClock.Instant { previous + gap }

        /// Milliseconds until the next check, rounded up, for `poll(2)`.
        var timeout: Int32 {
            let remaining = next - .now
            guard remaining > .zero else { return 0 }
            let (seconds, attoseconds) = remaining.components
            return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        }

        /// The tail after a check due at `now`; `nil` once the next would fall past the horizon.
        func advanced(at now: ContinuousClock.Instant) -> Tail? {
            let tail = Tail(lastEvent: lastEvent, previous: now, gap: gap * 2)
            return tail.next - lastEvent <= FileChangeWatcher.tailHorizon ? tail : nil
        }
    }

    /// The thread: waits for events, the next check of the tail or the stop; reports the events that concern the
    /// database's files.
    private func run() {
        #if os(Linux)
            let capacity = 8192
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
            defer { buffer.deallocate() }
            var descriptors = [
                pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            var rest = Self.commitSettleTime
            var tail: Tail?
            while true {
                let ready = poll(&descriptors, 2, tail?.timeout ?? -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return
                }
                if descriptors[1].revents != 0 { return }
                guard ready > 0, descriptors[0].revents != 0 else {
                    let now = ContinuousClock.now
                    if let current = tail, now >= current.next {
                        // Only a check from now on will do: the one before may have run too early for a commit
                        // that became visible late.
                        onNotice(.checkDue(since: now))
                        tail = current.advanced(at: now)
                    }
                    continue
                }
                var concerns = false
                while true {
                    let count = read(inotify, buffer, capacity)
                    guard count > 0 else { break }
                    concerns = concerns || eventsConcernDatabase(buffer, count: count)
                }
                guard concerns else { continue }
                let reported = ContinuousClock.now
                onNotice(.changed)
                // A burst of commits (this process's own, thousands a second) would wake this thread at each write
                // of the WAL: after an event it rests, while the kernel merges the events that arrive meanwhile into
                // one. An event alone is reported at once. The rest is the settle time, and doubles each time events
                // came during the last one, up to ``longestRest``.
                let (seconds, attoseconds) = rest.components
                usleep(UInt32(clamping: seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
                onNotice(.checkDue(since: reported + Self.commitSettleTime))
                var pending = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
                rest = poll(&pending, 1, 0) > 0 ? min(rest * 2, Self.longestRest) : Self.commitSettleTime
                tail = Tail(lastEvent: reported, previous: .now, gap: Self.firstTailGap)
            }
        #endif
    }

    #if os(Linux)
        /// Whether a batch of inotify events names one of the database's files, or may have lost one (a queue
        /// overflow) or concerns the directory itself (deleted or moved).
        private func eventsConcernDatabase(_ buffer: UnsafeMutableRawPointer, count: Int) -> Bool {
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameLength = Int(event.len)
                defer { offset += header + nameLength }
                if event.mask & UInt32(IN_Q_OVERFLOW | IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { return true }
                guard nameLength > 0, offset + header + nameLength <= count else { continue }
                let name = UnsafeRawBufferPointer(start: buffer + offset + header, count: nameLength)
                let end = name.firstIndex(of: 0) ?? nameLength
                let bytes = name[..<end]
                if names.contains(where: { $0.elementsEqual(bytes) }) { return true }
            }
            return false
        }
    #endif
}
