import CSQLiteSwiftly

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The database files this process has open through the library, so that no other file operation of the library
/// opens one of them, or one of their side files, with a descriptor of its own.
///
/// POSIX advisory locks belong to a process and a file: closing *any* descriptor of a file releases every lock the
/// process holds on it, including the locks SQLite took through its own descriptors for other connections. SQLite
/// then believes it still holds them, and another process can checkpoint and delete a WAL under a live connection,
/// or write under a reader. See <https://www.sqlite.org/howtocorrupt.html> (2.2). Files are compared by device and
/// inode, which a rename or a link does not change; side files (`-wal`, `-shm`, `-journal`) by name, since SQLite
/// creates and deletes them as it goes.
enum OpenDatabaseFiles {
    /// A file's identity: its device and inode.
    struct Identity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// How many connections have each file open.
    private static let open = TrackedMutex<[Identity: Int]>([:])

    /// Records an open connection to the file at `path`; returns its identity, or `nil` if it cannot be read.
    static func register(_ path: String) -> Identity? {
        guard let identity = identity(of: path) else { return nil }
        open.withLock { $0[identity, default: 0] += 1 }
        return identity
    }

    /// Records that a connection to the file closed.
    static func unregister(_ identity: Identity) {
        open.withLock { files in
            let count = (files[identity] ?? 1) - 1
            files[identity] = count > 0 ? count : nil
        }
    }

    /// Whether a connection of this process has the file open.
    static func isOpen(_ identity: Identity) -> Bool {
        open.withLock { $0[identity] != nil }
    }

    /// The identity of the file at `path` (following links), or `nil` when nothing is there.
    static func identity(of path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The suffixes SQLite appends to a database's path for its side files.
    static let sideFileSuffixes = ["-wal", "-shm", "-journal"]

    /// Refuses a path that is a database this process has open through the library, or a side file of one
    /// (existing or not: a file created under such a name would be taken for a journal).
    ///
    /// - Parameters:
    ///   - path: The file the library is about to open.
    ///   - purpose: What the file is for, for the error message.
    /// - Throws: ``SQLiteError/Kind/misuse`` naming the path.
    static func refuseDatabaseFile(_ path: String, for purpose: String) throws(SQLiteError) {
        let files = open.withLock { $0 }
        guard !files.isEmpty else { return }
        var refusal: String?
        if let identity = identity(of: path), files[identity] != nil {
            refusal = "it is a database this process has open"
        } else if let suffix = sideFileSuffixes.first(where: { path.hasSuffix($0) }),
            let base = identity(of: String(path.dropLast(suffix.count))), files[base] != nil
        {
            refusal = "it is the \(suffix) file of a database this process has open"
        }
        guard let refusal else { return }
        var error = SQLiteError(
            .misuse,
            message: "refusing to use '\(path)' as \(purpose): \(refusal), and closing a descriptor of it would drop "
                + "SQLite's locks")
        error.path = path
        throw error
    }
}

extension Connection {
    /// Whether the database file was unlinked, renamed or replaced since this connection opened it: one `stat` of
    /// its path, compared with the open file (SQLite's `SQLITE_FCNTL_HAS_MOVED`). Always `false` in memory.
    var fileHasMoved: Bool {
        mode.path != nil && csqlite_database_has_moved(handle) == 1
    }

    /// Throws ``SQLiteError/Kind/databaseMoved`` when the database file is no longer at its path.
    ///
    /// - Parameter what: What was about to happen, for the message ("starting a write transaction").
    func requireFileInPlace(before what: String) throws(SQLiteError) {
        guard fileHasMoved else { return }
        var error = ChangeTracker.movedError(while: "refused before \(what)")
        error.path = path
        throw error
    }
}
