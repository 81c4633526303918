import Synchronization

/// A WAL-mode database shared by one writer and several readers, where reads never wait for the writer.
///
/// In WAL (write-ahead log) mode, SQLite lets readers read the last committed state while a writer writes:
/// see <https://www.sqlite.org/wal.html>. The pool opens one writing ``SharedConnection`` and `readerCount`
/// reading ones on the same file and switches the database to WAL mode (a persistent property of the file).
/// Writes are serialized on the writer; reads go to the readers in turn, so a read waits only for an earlier
/// read on the same reader, never for a write in progress.
///
/// ```swift
/// let pool = try ConnectionPool(.create(path: path), readerCount: 4)
/// try await pool.write { db in try db.execute("CREATE TABLE notes (text TEXT)") }
/// let notes = try await pool.read { db in try db.fetchAll(UntypedRow.self, "SELECT * FROM notes") }
/// ```
///
/// A read sees the database as of its start: a write committed later is invisible to it. A pool needs a file
/// (not ``OpenMode/inMemory``) that it can write (not ``OpenMode/openReadOnly(path:)``).
///
/// ## Closing
///
/// ``close()`` closes the readers, then the writer, and reports a failure. Closed or released, the pool leaves
/// the database file alone holding every commit, as SQLite does when the last connection to a WAL database
/// closes: the writer closes last (each reader keeps it open until the reader has closed), and, being able to
/// write, it checkpoints the WAL into the file and deletes the `-wal` and `-shm` files, unless another connection
/// or process still has the database open, whose own close does it then.
///
/// ## Code that is not async
///
/// ``readSynchronously(_:)`` and ``writeSynchronously(_:)`` block the calling thread instead of suspending; see
/// ``SharedConnection/writeSynchronously(_:)``.
public final class ConnectionPool: Sendable {
    /// The one connection that writes. Private: a write through it must go through ``write(_:)``.
    let writer: SharedConnection
    /// The connections that read, used in turn. Private: a read through one must go through ``read(_:)``.
    let readers: [SharedConnection]
    private let nextReaderIndex = Atomic<Int>(0)

    /// Every connection of the pool, the writer first: for what applies to all of them, such as functions.
    var connections: [SharedConnection] { [writer] + readers }

    /// Opens (or creates) the database in WAL mode with one writer and `readerCount` readers.
    ///
    /// - Parameters:
    ///   - mode: ``OpenMode/create(path:)`` or ``OpenMode/open(path:)``.
    ///   - readerCount: How many reading connections to open; at least 1. Four by default.
    ///   - options: What each connection enforces and how long it waits for locks.
    /// - Throws: ``SQLiteError/Kind/misuse`` for an in-memory or read-only mode or a reader count below 1;
    ///   the errors of ``Connection/init(_:options:)``; an SQLite error when WAL mode cannot be enabled. When
    ///   opening fails after the file was switched to WAL mode (a reader that cannot open, out of file
    ///   descriptors), the file is left as it was: removed if the pool created it, back in its journal mode if not.
    public convenience init(
        _ mode: OpenMode, readerCount: Int = 4, options: ConnectionOptions = .default
    ) throws(SQLiteError) {
        try self.init(mode, readerCount: readerCount, options: options) {
            path, options, writer throws(SQLiteError) in
            try SharedConnection(.openReadOnly(path: path), options: options, keepingOpen: writer)
        }
    }

    /// The pool, with its readers opened by `openReader`, given the path, the options and the writer that each
    /// reader keeps open until it has closed (tests make it fail part-way).
    init(
        _ mode: OpenMode, readerCount: Int, options: ConnectionOptions,
        openReader: (String, ConnectionOptions, SharedConnection) throws(SQLiteError) -> SharedConnection
    ) throws(SQLiteError) {
        let path: String
        switch mode {
        case .create(let file), .open(let file): path = file
        case .openReadOnly, .inMemory:
            throw SQLiteError(.misuse, message: "a ConnectionPool needs a database file it can write")
        }
        guard readerCount >= 1 else {
            throw SQLiteError(.misuse, message: "a ConnectionPool needs at least one reader, not \(readerCount)")
        }
        // A first connection creates or checks the file and switches it to WAL mode; it stays open until the
        // others are, so the WAL files are in place for them.
        let setup = try Connection(mode, options: options)
        let previousMode = try setup.fetchValue(String.self, "PRAGMA journal_mode") ?? "delete"
        // Leaves the file as it was after a failure: a file the pool created is removed; an existing one gets its
        // journal mode back (the pool's other connections are closed by then, so the switch can take the file).
        func putBack() {
            if case .create = mode {
                DatabaseFile.removeCreated(path)
            } else if previousMode.lowercased() != "wal" {
                _ = try? setup.fetchValue(String.self, SQL(verbatim: "PRAGMA journal_mode = \(previousMode)"))
            }
        }
        let journalMode: String?
        do {
            journalMode = try setup.fetchValue(String.self, "PRAGMA journal_mode = WAL")
        } catch {
            putBack()
            throw error
        }
        guard journalMode?.lowercased() == "wal" else {
            putBack()
            throw SQLiteError(
                .sqlite, message: "the database could not switch to WAL mode (journal mode is \(journalMode ?? "?"))",
                sql: "PRAGMA journal_mode = WAL")
        }
        // Opened together, so that a failure part-way closes the ones already open before the file is put back.
        func openConnections() throws(SQLiteError) -> (SharedConnection, [SharedConnection]) {
            let writer = try SharedConnection(.open(path: path), options: options)
            var readers: [SharedConnection] = []
            // Readers are opened read-only: SQLite refuses any write through them, whatever a read body does.
            // Each keeps the writer open until it has closed itself: a read-only connection cannot checkpoint, so
            // the writer must be the pool's last connection to close for the WAL to go (see close()).
            for _ in 0..<readerCount { readers.append(try openReader(path, options, writer)) }
            return (writer, readers)
        }
        do {
            (writer, readers) = try openConnections()
        } catch {
            putBack()
            throw error
        }
        withExtendedLifetime(setup) {}
    }

    /// Runs `body` in a write transaction on the writer; see ``SharedConnection/write(_:)``.
    ///
    /// - Parameter body: The work to do atomically.
    /// - Returns: What `body` returns.
    /// - Throws: As ``SharedConnection/write(_:)``.
    @discardableResult
    public func write<Result: Sendable>(_ body: sending (Connection) throws -> Result) async throws -> Result {
        try await writer.write(body)
    }

    /// Runs `body` as a read on the next reader; see ``SharedConnection/read(_:)``.
    ///
    /// The read never waits for the writer: it sees the last state committed before it started.
    ///
    /// - Parameter body: The reads to do.
    /// - Returns: What `body` returns.
    /// - Throws: As ``SharedConnection/read(_:)``.
    public func read<Result: Sendable>(_ body: sending (Connection) throws -> Result) async throws -> Result {
        try await nextReader().read(body)
    }

    /// Runs `body` in a write transaction on the writer from code that is not async, blocking the calling thread;
    /// see ``SharedConnection/writeSynchronously(_:)``.
    ///
    /// - Parameter body: The work to do atomically.
    /// - Returns: What `body` returns.
    /// - Throws: As ``write(_:)``; ``SQLiteError/Kind/misuse`` inside an access of any pool or shared
    ///   connection, or after ``close()``.
    @discardableResult
    public func writeSynchronously<Result: Sendable>(_ body: sending (Connection) throws -> Result) throws -> Result {
        try writer.writeSynchronously(body)
    }

    /// Runs `body` as a read on the next reader from code that is not async, blocking the calling thread; see
    /// ``SharedConnection/readSynchronously(_:)``.
    ///
    /// - Parameter body: The reads to do.
    /// - Returns: What `body` returns.
    /// - Throws: As ``read(_:)``; ``SQLiteError/Kind/misuse`` inside an access of any pool or shared
    ///   connection, or after ``close()``.
    public func readSynchronously<Result: Sendable>(_ body: sending (Connection) throws -> Result) throws -> Result {
        try nextReader().readSynchronously(body)
    }

    /// Closes every connection of the pool, the readers first, once the accesses queued before have run.
    ///
    /// The writer closes last, so that it can checkpoint: when no other connection or process has the database
    /// open, the database file alone then holds every commit (the `-wal` and `-shm` files are gone).
    /// Observations end; every later access throws ``SQLiteError/Kind/misuse``; closing again does nothing.
    ///
    /// - Throws: The first error of ``SharedConnection/close()``; the writer stays open then if a reader did not
    ///   close (so that it can still close last).
    public func close() async throws(SQLiteError) {
        writer.observationHub.close()
        for reader in readers { try await reader.close() }
        try await writer.close()
    }

    /// Closes every connection of the pool from code that is not async; see ``close()``.
    ///
    /// - Throws: As ``close()``; ``SQLiteError/Kind/misuse`` inside an access.
    public func closeSynchronously() throws(SQLiteError) {
        try ConnectionExecutor.requireOutsideAccess()  // before anything ends
        writer.observationHub.close()
        for reader in readers { try reader.closeSynchronously() }
        try writer.closeSynchronously()
    }

    /// The reader whose turn it is.
    func nextReader() -> SharedConnection {
        let index = nextReaderIndex.add(1, ordering: .relaxed).oldValue
        return readers[Int(index.magnitude % UInt(readers.count))]
    }

    deinit {
        writer.observationHub.close()  // observations end with the pool, even while a write still holds the writer
    }

    /// Interrupts whatever every connection of the pool is running now.
    public func interruptAll() {
        writer.interrupt()
        for reader in readers { reader.interrupt() }
    }
}
