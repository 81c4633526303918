/// A query's results over time: the current result first, then a fresh result after each committed transaction
/// that changed what the query read.
///
/// Create one with ``SharedConnection/observe(options:_:)`` or ``ConnectionPool/observe(options:_:)`` (or their
/// model-and-SQL variants), and iterate it:
///
/// ```swift
/// let notes = shared.observe { db in try db.fetchAll(Note.self, "SELECT * FROM notes ORDER BY id") }
/// for try await current in notes {
///     show(current)
/// }
/// ```
///
/// - **What counts as a change.** While the fetch runs, SQLite's authorizer reports every table its statements
///   read. A transaction committed through the same ``SharedConnection`` or pool that writes to one of them, or a
///   commit by another connection or process (noticed within ``ObservationOptions/otherConnectionCheckInterval``),
///   triggers a new fetch. Rolled-back transactions never do; a transaction notifies once, after its commit.
/// - **Fresh results.** Each fetch runs after the commit that triggered it, so it sees that commit or a newer
///   state. Commits that arrive while a fetch runs or while the consumer is busy are coalesced into one more fetch:
///   the last state is always delivered, intermediate ones may be skipped. ``removingDuplicates()`` also skips
///   results equal to the previous one.
/// - **Lifetime.** Iteration starts the observation; ending it (leaving the loop, cancelling the task, dropping the
///   iterator) releases it, and SQLite's hooks go when the last observation goes. The sequence holds its
///   connection or pool weakly: when the owner goes away, the sequence ends. A fetch that throws ends the
///   sequence with that error.
///
/// Each iterator is an observation of its own, with its own fetches.
public struct QueryObservation<Value: Sendable>: AsyncSequence, Sendable {
    /// A result of the query.
    public typealias Element = Value

    let owner: WeakObservationOwner
    let options: ObservationOptions
    let fetch: @Sendable (Connection) throws -> Value
    let isDuplicate: (@Sendable (Value, Value) -> Bool)?
    /// Whether an iterator goes on after a fetch throws, for ``LiveQuery``: `next()` throws the error, and the
    /// following call waits for the next commit (to any table, since the failed fetch did not say what it read).
    var continuesAfterErrors = false

    init(
        owner: any ObservationOwner, options: ObservationOptions,
        fetch: @escaping @Sendable (Connection) throws -> Value
    ) {
        self.owner = WeakObservationOwner(owner)
        self.options = options
        self.fetch = fetch
        self.isDuplicate = nil
    }

    private init(copying other: Self, isDuplicate: @escaping @Sendable (Value, Value) -> Bool) {
        owner = other.owner
        options = other.options
        fetch = other.fetch
        continuesAfterErrors = other.continuesAfterErrors
        self.isDuplicate = isDuplicate
    }

    /// Starts an observation.
    ///
    /// - Returns: An iterator whose first element is the current result.
    public func makeAsyncIterator() -> Iterator {
        Iterator(observation: self)
    }

    /// Iterates a ``QueryObservation``: each iterator observes on its own.
    public struct Iterator: AsyncIteratorProtocol {
        private let observation: QueryObservation
        private var registration: Registration?
        private var last: Value?
        private var isFinished = false

        init(observation: QueryObservation) {
            self.observation = observation
        }

        /// The next result: the current one at the first call, then one after each change.
        ///
        /// - Returns: A result, or `nil` when the observation ended (the task was cancelled, or the connection or
        ///   pool is gone).
        /// - Throws: The error of a fetch, which ends the observation.
        public mutating func next() async throws -> Value? {
            guard !isFinished else { return nil }
            do {
                if let value = try await produce() { return value }
            } catch {
                if observation.continuesAfterErrors, !Task.isCancelled, let registration {
                    // Any commit runs the fetch again, and its result is delivered even if it equals the last one.
                    registration.hub.fetchDidEnd(registration.id, region: ObservedRegion(isEverything: true))
                    last = nil
                    throw error
                }
                finish()
                if Task.isCancelled { return nil }
                throw error
            }
            finish()
            return nil
        }

        private mutating func finish() {
            isFinished = true
            registration = nil
        }

        private mutating func produce() async throws -> Value? {
            guard let registration else {
                guard let owner = observation.owner.owner,
                    let id = owner.observationHub.addObserver(options: observation.options)
                else { return nil }
                let registration = Registration(hub: owner.observationHub, id: id)
                self.registration = registration
                // The writer installs its hooks before the first fetch starts, so no commit after it goes unseen.
                try await owner.startTracking()
                let value = try await fetch(owner, registration)
                if observation.isDuplicate != nil { last = value }
                return value
            }
            while true {
                guard await registration.hub.waitForChange(registration.id), let owner = observation.owner.owner else {
                    return nil
                }
                let value = try await fetch(owner, registration)
                if let isDuplicate = observation.isDuplicate {
                    if let last, isDuplicate(last, value) { continue }
                    last = value
                }
                return value
            }
        }

        private func fetch(_ owner: any ObservationOwner, _ registration: Registration) async throws -> Value {
            registration.hub.fetchWillStart(registration.id)
            let (value, region) = try await owner.observedFetch(observation.fetch)
            registration.hub.fetchDidEnd(registration.id, region: region)
            return value
        }
    }

    /// Unregisters an observation when its iterator goes away.
    final class Registration: Sendable {
        let hub: ObservationHub
        let id: Int

        init(hub: ObservationHub, id: Int) {
            self.hub = hub
            self.id = id
        }

        deinit {
            hub.remove(id)
        }
    }
}

extension QueryObservation where Value: Equatable {
    /// The same observation, skipping each result equal to the one delivered before it.
    ///
    /// - Returns: An observation that never delivers the same result twice in a row.
    public func removingDuplicates() -> QueryObservation {
        QueryObservation(copying: self, isDuplicate: { $0 == $1 })
    }
}

/// How an observation notices changes made by other connections and processes.
///
/// A commit made through the observed ``SharedConnection`` or ``ConnectionPool`` is noticed at once. Another
/// connection's or process's commit is noticed when the database's files change on disk, through the operating
/// system's file-change notification (inotify on Linux), within a few milliseconds and at no cost while nothing
/// changes. Where the platform or the file system cannot report changes (Apple platforms, network file systems such
/// as NFS or SMB), or when ``watchesFiles`` is `false`, the data version is checked every
/// ``otherConnectionCheckInterval`` instead.
public struct ObservationOptions: Sendable, Hashable {
    /// How often the data version is checked for commits made by other connections or processes where file events
    /// are not used (see ``watchesFiles``): 100 milliseconds by default.
    ///
    /// Each check is one `PRAGMA data_version` on the writing connection, waiting its turn behind writes. When
    /// several observations ask for different intervals, the shortest one applies, from the moment it is asked
    /// for. The interval used is at least 1 millisecond and at most one day, whatever this property says.
    public var otherConnectionCheckInterval: Duration
    /// Whether other processes' commits are noticed through file-change notifications, where the platform and the
    /// file system offer them, rather than by checking every ``otherConnectionCheckInterval``. `true` by default.
    ///
    /// With file events, an idle observation costs nothing: a thread waits in the kernel, and wakes only when the
    /// database's files change; the data version is then checked once, to tell another connection's commit from
    /// this process's own writes. Turn it off to poll instead, for instance where the database's directory is
    /// changed so often by other files that the events would cost more than polling.
    public var watchesFiles: Bool

    /// The defaults: file events where available, otherwise a check every 100 milliseconds.
    public static let `default` = ObservationOptions()

    /// Creates options.
    ///
    /// - Parameters:
    ///   - otherConnectionCheckInterval: How often to check for commits of other connections and processes where
    ///     file events are not used; 100 milliseconds by default, at least 1 millisecond and at most one day.
    ///   - watchesFiles: Whether to notice other processes' commits through file-change notifications where
    ///     available; `true` by default.
    public init(otherConnectionCheckInterval: Duration = .milliseconds(100), watchesFiles: Bool = true) {
        self.otherConnectionCheckInterval = Self.usable(otherConnectionCheckInterval)
        self.watchesFiles = watchesFiles
    }

    /// An interval brought within 1 millisecond and one day: shorter would spin, longer can overflow the clock
    /// (`Task.sleep` traps on `.seconds(Int64.max)`). Applied again where the interval is used, since the
    /// property can be set to anything after `init`.
    static func usable(_ interval: Duration) -> Duration {
        min(max(interval, .milliseconds(1)), .seconds(86_400))
    }
}

/// What a ``QueryObservation`` observes: a ``SharedConnection`` or a ``ConnectionPool``.
protocol ObservationOwner: AnyObject, Sendable {
    /// The hub of the connection that writes.
    var observationHub: ObservationHub { get }
    /// Waits until the writer has applied the hub's wanted hooks.
    func startTracking() async throws
    /// Runs `fetch` as a read and returns what it read.
    func observedFetch<Value: Sendable>(_ fetch: @escaping @Sendable (Connection) throws -> Value) async throws
        -> (Value, ObservedRegion)
}

/// A weak reference to an observation's owner, so that an observation never keeps it alive.
final class WeakObservationOwner: Sendable {
    weak let owner: (any ObservationOwner)?

    init(_ owner: any ObservationOwner) {
        self.owner = owner
    }
}
