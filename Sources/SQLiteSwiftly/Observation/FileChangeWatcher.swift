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
/// an eventfd that stops it: while nothing changes, it does not run at all. An event is only a hint: the hub then
/// compares `PRAGMA data_version`, which tells another connection's commit from this process's own writes.
///
/// ``start(databasePath:onChange:)`` returns `nil` where it cannot work, and the hub polls instead: on platforms
/// without inotify (kqueue on Apple platforms needs a descriptor of the file itself, which this library never
/// opens), on a network file system (NFS, SMB, FUSE...), whose changes made by other machines inotify does not see,
/// and when inotify refuses (out of watches or descriptors).
final class FileChangeWatcher: Sendable {
    private let inotify: Int32
    private let wake: Int32
    private let names: [[UInt8]]
    private let onChange: @Sendable () -> Void

    deinit {
        // The thread holds the watcher while it runs, so both descriptors outlive every use.
        close(inotify)
        close(wake)
    }

    private init(inotify: Int32, wake: Int32, names: [[UInt8]], onChange: @escaping @Sendable () -> Void) {
        self.inotify = inotify
        self.wake = wake
        self.names = names
        self.onChange = onChange
    }

    /// Starts watching the files of the database at `databasePath`; `nil` where events cannot be had.
    ///
    /// - Parameters:
    ///   - databasePath: The database file.
    ///   - onChange: Called on the watcher's thread after each batch of events that concern the database's files.
    static func start(databasePath: String, onChange: @escaping @Sendable () -> Void) -> FileChangeWatcher? {
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
            let watcher = FileChangeWatcher(inotify: inotify, wake: wake, names: names, onChange: onChange)
            // The thread holds the watcher, and so its descriptors, until it returns.
            return DetachedThread.start({ watcher.run() }) ? watcher : nil
        #else
            return nil
        #endif
    }

    /// How long, in microseconds, the thread rests after reporting an event before it looks for the next, when
    /// none came during its last rest.
    static let shortestRest = 1000

    /// The longest rest, in microseconds, while events keep coming: the hub checks at most once every
    /// ``ObservationHub/eventCheckInterval`` (10 ms) a millisecond after an event, so an event reported up to
    /// 9 ms late is checked no later than at once.
    static let longestRest = 9000

    /// Ends the thread. Safe to call more than once.
    func stop() {
        var one: UInt64 = 1
        _ = write(wake, &one, MemoryLayout<UInt64>.size)
    }

    /// The thread: waits for events or the stop, reports the events that concern the database's files.
    private func run() {
        #if os(Linux)
            let capacity = 8192
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
            defer { buffer.deallocate() }
            var descriptors = [
                pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            var rest = Self.shortestRest
            while true {
                let ready = poll(&descriptors, 2, -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return
                }
                if descriptors[1].revents != 0 { return }
                guard descriptors[0].revents != 0 else { continue }
                var concerns = false
                while true {
                    let count = read(inotify, buffer, capacity)
                    guard count > 0 else { break }
                    concerns = concerns || eventsConcernDatabase(buffer, count: count)
                }
                guard concerns else { continue }
                onChange()
                // A burst of commits (this process's own, thousands a second) would wake this thread at each write
                // of the WAL: after an event it rests, while the kernel merges the events that arrive meanwhile into
                // one. An event alone is reported at once. The rest is a millisecond (the check waits that long
                // after an event anyway), and doubles each time events came during the last one, up to
                // ``longestRest``: no sooner than the hub's next check.
                usleep(UInt32(rest))
                var pending = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
                rest = poll(&pending, 1, 0) > 0 ? min(rest * 2, Self.longestRest) : Self.shortestRest
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
