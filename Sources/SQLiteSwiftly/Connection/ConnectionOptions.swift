/// How a connection behaves once open: what it enforces and how long it waits for locks.
///
/// Every connection the library opens uses these options: a ``Connection``, a ``SharedConnection`` and each
/// connection of a ``ConnectionPool``.
///
/// ```swift
/// let db = try Connection(opening: path)                                        // the defaults
/// let legacy = try Connection(opening: path, options: .init(enforcesForeignKeys: false))
/// ```
public struct ConnectionOptions: Hashable, Sendable {
    /// How long a connection waits for another connection's lock before failing with a busy error.
    ///
    /// The connection retries the lock every millisecond or so until the timeout has passed (SQLite's own
    /// handler sleeps in steps growing to 100 ms, and loses to a writer that commits often). Zero fails at once.
    /// Because the library installs its own handler, `PRAGMA busy_timeout` reads 0; setting that pragma
    /// replaces the library's handler with SQLite's.
    public var busyTimeout: Duration
    /// Whether write transactions queue behind writers that were already waiting, across processes. On by
    /// default.
    ///
    /// With queueing, a transaction begun with ``TransactionKind/immediate`` or ``TransactionKind/exclusive``
    /// through ``Connection/transaction(_:_:)`` (and every ``SharedConnection/write(_:)``) first takes its turn
    /// at a lock file beside the database, `<database>-turnstile`, which the library creates at the first
    /// such transaction and never deletes. A writer that commits short transactions back to back then cannot
    /// starve writers in other processes. No file is created for in-memory or read-only connections, and where
    /// the file cannot be created (a read-only directory) or locked (platforms other than Linux) writers wait
    /// for SQLite's lock alone. The whole wait, turn and lock, is bounded by ``busyTimeout``. Writers that do
    /// not queue (other programs, `execute("BEGIN IMMEDIATE")`, a connection with queueing off) still get the
    /// lock in the usual way; they only do not take part in the queue.
    public var queuesWriters: Bool
    /// Whether foreign keys are enforced (`PRAGMA foreign_keys = ON`). On by default.
    ///
    /// SQLite itself leaves foreign keys unenforced unless each connection asks: a `REFERENCES` clause, and
    /// its `ON DELETE CASCADE`, then do nothing. SQLiteSwiftly turns enforcement on for every connection it
    /// opens, so that an orphan row is refused with a constraint error naming the table. Turn it off only for a
    /// database whose existing data breaks its own foreign keys.
    public var enforcesForeignKeys: Bool
    /// How hard a commit pushes its data to the disk (`PRAGMA synchronous`), or `nil` to keep the SQLite build's
    /// default: `FULL` for the system SQLite of Debian and of Apple's platforms. `nil` by default.
    ///
    /// SQLite accepts the setting only outside a transaction, and each connection has its own, so the library sets
    /// it on every connection it opens, before its first access: a ``Connection``, a ``SharedConnection`` and each
    /// connection of a ``ConnectionPool``. In WAL mode (every pool), ``SynchronousMode/normal`` keeps the database
    /// consistent through a crash of the process or the machine, but a power loss can undo the last commits; it
    /// commits about 30 times as fast on this project's benchmark machine. See the *Performance* article.
    public var synchronous: SynchronousMode?
    /// SQL run on every connection the library opens, in order, right after it opens and before its first access,
    /// outside any transaction: the place for per-connection settings such as `PRAGMA cache_size = -20000` or
    /// `PRAGMA mmap_size = 268435456`. Empty by default.
    ///
    /// A statement that fails makes the open fail with its error, and a database that was being created is removed.
    /// The readers of a ``ConnectionPool`` are read-only: a statement that writes fails there.
    public var setupStatements: [String]

    /// The defaults: a 5-second busy timeout, foreign keys enforced, writers queued, SQLite's own `synchronous`.
    public static let `default` = ConnectionOptions()

    /// Creates options.
    ///
    /// - Parameters:
    ///   - busyTimeout: How long to wait for another connection's lock; 5 seconds by default.
    ///   - enforcesForeignKeys: Whether foreign keys are enforced; `true` by default.
    ///   - queuesWriters: Whether write transactions queue at the `<database>-turnstile` lock file; `true` by
    ///     default.
    ///   - synchronous: The `PRAGMA synchronous` setting of every connection, or `nil` for SQLite's default.
    ///   - setupStatements: SQL run on every connection after it opens.
    public init(
        busyTimeout: Duration = .seconds(5), enforcesForeignKeys: Bool = true, queuesWriters: Bool = true,
        synchronous: SynchronousMode? = nil, setupStatements: [String] = []
    ) {
        self.busyTimeout = busyTimeout
        self.enforcesForeignKeys = enforcesForeignKeys
        self.queuesWriters = queuesWriters
        self.synchronous = synchronous
        self.setupStatements = setupStatements
    }
}

/// How hard SQLite pushes a commit to the disk: the values of `PRAGMA synchronous`.
///
/// See <https://www.sqlite.org/pragma.html#pragma_synchronous>.
public struct SynchronousMode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The pragma's value, as SQLite names it (`OFF`, `NORMAL`, `FULL`, `EXTRA`).
    public let rawValue: String

    /// Creates a mode from the pragma's value.
    ///
    /// - Parameter rawValue: `OFF`, `NORMAL`, `FULL` or `EXTRA` (SQLite also takes 0 to 3).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The pragma's value.
    public var description: String { rawValue }

    /// No syncing: the operating system decides when data reaches the disk. A crash of the machine or a power loss
    /// can corrupt the database.
    public static let off = SynchronousMode(rawValue: "OFF")
    /// Syncs at the critical moments only. In WAL mode the database stays consistent through any crash, but a power
    /// loss or a crash of the machine can undo the last commits; in rollback-journal mode a power loss can, rarely,
    /// corrupt it.
    public static let normal = SynchronousMode(rawValue: "NORMAL")
    /// Syncs at every commit: a commit that returned survives a power loss. SQLite's usual default.
    public static let full = SynchronousMode(rawValue: "FULL")
    /// As ``full``, and in rollback-journal mode also syncs the directory after deleting the journal.
    public static let extra = SynchronousMode(rawValue: "EXTRA")
}
