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
    public var busyTimeout: Duration
    /// Whether foreign keys are enforced (`PRAGMA foreign_keys = ON`). On by default.
    ///
    /// SQLite itself leaves foreign keys unenforced unless each connection asks: a `REFERENCES` clause, and
    /// its `ON DELETE CASCADE`, then do nothing. SQLiteSwiftly turns enforcement on for every connection it
    /// opens, so that an orphan row is refused with a constraint error naming the table. Turn it off only for a
    /// database whose existing data breaks its own foreign keys.
    public var enforcesForeignKeys: Bool

    /// The defaults: a 5-second busy timeout, foreign keys enforced.
    public static let `default` = ConnectionOptions()

    /// Creates options.
    ///
    /// - Parameters:
    ///   - busyTimeout: How long to wait for another connection's lock; 5 seconds by default.
    ///   - enforcesForeignKeys: Whether foreign keys are enforced; `true` by default.
    public init(busyTimeout: Duration = .seconds(5), enforcesForeignKeys: Bool = true) {
        self.busyTimeout = busyTimeout
        self.enforcesForeignKeys = enforcesForeignKeys
    }
}
