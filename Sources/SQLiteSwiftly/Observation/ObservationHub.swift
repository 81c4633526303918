import Synchronization

/// The observers of one writing ``SharedConnection``: query observations and ``DatabaseChange`` subscribers.
///
/// The hub knows what each observation's last fetch read, and marks it changed when a committed transaction
/// touched that region. It says which hooks the connection needs (``wanted``), which the connection applies at the
/// start of its next access, and it checks SQLite's data version every so often while anyone observes, for
/// commits made by other connections and processes. It holds no connection: its owner polls through a weak
/// reference, and closes the hub when it goes away.
final class ObservationHub: Sendable {
    /// The hooks the connection needs.
    struct Wanted: Hashable, Sendable {
        /// Commits must be reported, at table level.
        var tracksChanges = false
        /// Row ids must be reported too (SQLite's update hook), for ``DatabaseChange`` subscribers.
        var reportsRows = false
        /// Row ids must be collected for the regions of observations narrowed to rows.
        var tracksRows = false

        /// Whether SQLite's update hook is needed.
        var collectsRows: Bool { reportsRows || tracksRows }
    }

    struct Observer {
        /// What the last fetch read; `nil` before the first fetch ends.
        var region: ObservedRegion?
        /// The changes published while a fetch runs, kept until it says what it read.
        var missed = ObservedRegion()
        var isChanged = false
        var isCancelled = false
        var waiter: CheckedContinuation<Bool, Never>?
        var interval: Duration
        /// Whether the observer takes file events (see ``ObservationOptions/watchesFiles``) rather than polling.
        var watchesFiles: Bool
    }

    struct State {
        var observers: [Int: Observer] = [:]
        var subscribers: [Int: AsyncStream<DatabaseChange>.Continuation] = [:]
        var nextID = 0
        var isClosed = false
        var poller: Task<Void, Never>?
        /// The interval the poller sleeps now: an observer that asks for a shorter one restarts it.
        var pollerInterval: Duration?
        var pollsOtherConnections = false
        /// The database file, for the file watcher.
        var databasePath: String?
        /// The file watcher while an observer takes file events; `watcherFailed` once it could not start here.
        var watcher: FileChangeWatcher?
        var watcherFailed = false
        /// The task that runs checks the file watcher asked for, while it runs, and whether it should check once
        /// more; when the last successful check (by any path) started.
        var checkTask: Task<Void, Never>?
        var checkAgain = false
        var lastCheckStart: ContinuousClock.Instant?
        /// How many checks were asked of the task (for tests).
        var requestedChecks = 0
        /// Whether the connection has attached databases, whose files the watcher does not watch: then every
        /// observer polls too.
        var hasAttachedDatabases = false
        /// The observations whose last fetch read each table (by key) whole, so that a commit finds the ones it
        /// touches without looking at the others.
        var readers: [String: Set<Int>] = [:]
        /// The observations whose last fetch read each table only at some rows: by table, and by table and rowid.
        var rowReaders: RowReaders = RowReaders()
        /// The observations whose last fetch read an unknown region, and those whose fetch is running (or has not
        /// run yet): both see every change.
        var readersOfEverything: Set<Int> = []
        var fetching: Set<Int> = []

        /// Files the observation under the tables of `region`, or takes it out (`region` `nil`).
        mutating func index(_ id: Int, from old: ObservedRegion?, to new: ObservedRegion?) {
            if let old {
                readersOfEverything.remove(id)
                for table in old.tables where old.rows[table] == nil {
                    readers[table]?.remove(id)
                    if readers[table]?.isEmpty == true { readers[table] = nil }
                }
                if !old.rows.isEmpty { rowReaders.remove(id, old.rows) }
            }
            if let new {
                if new.isEverything { readersOfEverything.insert(id) }
                for table in new.tables where new.rows[table] == nil { readers[table, default: []].insert(id) }
                if !new.rows.isEmpty { rowReaders.insert(id, new.rows) }
            }
        }
        weak var owner: SharedConnection?

        /// The interval the poller must check at: the shortest of the observers that poll (all of them when the
        /// file watcher is not running), at most ``ObservationHub/backstopInterval`` while the watcher runs, or
        /// `nil` when nothing is observed.
        var pollingInterval: Duration? {
            let polling = observers.values.filter { !$0.watchesFiles || watcher == nil || hasAttachedDatabases }
                .map(\.interval).min()
            guard watcher != nil, !observers.isEmpty else { return polling }
            return min(polling ?? ObservationHub.backstopInterval, ObservationHub.backstopInterval)
        }
    }

    let state = TrackedMutex(State())
    /// The bits of ``Wanted``, read by the connection at the start of every access.
    private let wantedBits = Atomic<Int>(0)
    /// When the file watcher last reported a change that no check has followed yet (see ``clockReading(_:)``), or 0.
    let unsettledEvent = Atomic<Int64>(0)
    /// The origin of ``clockReading(_:)``.
    let origin = ContinuousClock.now
    /// The last value given to ``noteAttachedDatabases(_:)``, so that an access that changes nothing takes no lock.
    private let hasAttachedDatabases = Atomic<Bool>(false)

    /// The hooks the connection needs now.
    var wanted: Wanted {
        let bits = wantedBits.load(ordering: .acquiring)
        return Wanted(tracksChanges: bits & 1 != 0, reportsRows: bits & 2 != 0, tracksRows: bits & 4 != 0)
    }

    /// Stores the bits of ``wanted`` for the state.
    private func storeWanted(_ state: State) {
        let tracks = !state.observers.isEmpty
        let bits =
            (tracks ? 1 : 0) | (state.subscribers.isEmpty ? 0 : 2) | (tracks && !state.rowReaders.isEmpty ? 4 : 0)
        wantedBits.store(bits, ordering: .releasing)
    }

    /// How many observations and change subscribers are registered (for tests of their release).
    var observerCount: Int {
        state.withLock { $0.observers.count }  // a subscriber has an entry there too
    }

    /// Sets the connection whose data version is polled while anyone observes.
    ///
    /// A private in-memory database has no other connection, so it is never polled.
    func attach(_ owner: SharedConnection) {
        state.withLock { state in
            state.owner = owner
            state.pollsOtherConnections = owner.mode != .inMemory
            state.databasePath = owner.mode.path
        }
    }

    // MARK: - Registration

    /// Registers an observation; `nil` when the owner is gone.
    func addObserver(options: ObservationOptions) -> Int? {
        state.withLock { state -> Int? in
            guard !state.isClosed else { return nil }
            state.nextID += 1
            state.observers[state.nextID] = Observer(
                interval: ObservationOptions.usable(options.otherConnectionCheckInterval),
                watchesFiles: options.watchesFiles)
            state.fetching.insert(state.nextID)
            update(&state)
            return state.nextID
        }
    }

    /// Registers a change subscriber; returns `false` (and finishes it) when the owner is gone.
    func addSubscriber(_ continuation: AsyncStream<DatabaseChange>.Continuation, options: ObservationOptions) -> Int? {
        let id = state.withLock { state -> Int? in
            guard !state.isClosed else { return nil }
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            // A subscriber takes part in polling with an observer entry that is never waited on.
            state.observers[-state.nextID] = Observer(
                region: ObservedRegion(), interval: ObservationOptions.usable(options.otherConnectionCheckInterval),
                watchesFiles: options.watchesFiles)
            update(&state)
            return state.nextID
        }
        if id == nil { continuation.finish() }
        return id
    }

    /// Removes an observation or subscriber, waking a waiting observation.
    func remove(_ id: Int) {
        let (waiter, subscriber) = state.withLock { state in
            let observer = state.observers.removeValue(forKey: id)
            state.observers[-id] = nil
            state.fetching.remove(id)
            state.index(id, from: observer?.region, to: nil)
            let subscriber = state.subscribers.removeValue(forKey: id)
            update(&state)
            return (observer?.waiter, subscriber)
        }
        waiter?.resume(returning: false)
        subscriber?.finish()
    }

    /// Ends every observation: the owner is gone.
    func close() {
        let (waiters, subscribers) = state.withLock { state in
            state.isClosed = true
            let waiters = state.observers.values.compactMap(\.waiter)
            let subscribers = Array(state.subscribers.values)
            state.observers = [:]
            state.subscribers = [:]
            state.readers = [:]
            state.rowReaders = RowReaders()
            state.readersOfEverything = []
            state.fetching = []
            update(&state)
            return (waiters, subscribers)
        }
        for waiter in waiters { waiter.resume(returning: false) }
        for subscriber in subscribers { subscriber.finish() }
    }

    /// Recomputes the wanted hooks, and starts or stops the file watcher and polling.
    ///
    /// Observers that take file events share one watcher; the others, and all of them where the watcher cannot
    /// start, are served by the poller at the shortest interval any of them asked for.
    private func update(_ state: inout State) {
        let tracks = !state.observers.isEmpty
        storeWanted(state)
        let notices = tracks && !state.isClosed && state.pollsOtherConnections
        let wantsEvents = notices && state.observers.values.contains(where: \.watchesFiles)
        if wantsEvents && state.watcher == nil && !state.watcherFailed, let path = state.databasePath {
            state.watcher = FileChangeWatcher.start(databasePath: path) { [weak self] in self?.noticed($0) }
            state.watcherFailed = state.watcher == nil
        } else if !wantsEvents, let watcher = state.watcher {
            watcher.stop()
            state.watcher = nil
        }
        let pollInterval = state.pollingInterval
        if let poller = state.poller, let sleeping = state.pollerInterval, let shortest = pollInterval,
            shortest < sleeping
        {
            // A new observer asks for a shorter interval than the poller sleeps: it must not wait that sleep out.
            poller.cancel()
            state.poller = nil
            state.pollerInterval = nil
        }
        if notices && pollInterval != nil && state.poller == nil {
            state.poller = Task { [weak self] in await self?.poll() }
        } else if !notices || pollInterval == nil, let poller = state.poller {
            poller.cancel()
            state.poller = nil
            state.pollerInterval = nil
        }
    }

    /// How other connections' commits are being noticed now (for tests): whether file events are watched, and the
    /// interval of the poller, if it runs.
    var noticing: (watchesFiles: Bool, pollInterval: Duration?) {
        state.withLock { ($0.watcher != nil, $0.poller != nil ? $0.pollingInterval : nil) }
    }

    /// How often the data version is checked while file events are watched, as a backstop: a WAL commit becomes
    /// visible after its writer's `fsync`, which raises no event, so one that a loaded disk delays past the checks
    /// that follow its events (about 1.3 s) is still noticed within this interval.
    static let backstopInterval: Duration = .seconds(10)

    /// Records whether the connection has attached databases (at the end of each access while anything is
    /// observed), and starts or stops polling for them.
    func noteAttachedDatabases(_ attached: Bool) {
        guard hasAttachedDatabases.load(ordering: .relaxed) != attached else { return }
        hasAttachedDatabases.store(attached, ordering: .relaxed)
        state.withLock { state in
            guard state.hasAttachedDatabases != attached else { return }
            state.hasAttachedDatabases = attached
            update(&state)
        }
    }

    // MARK: - Fetches and changes

    /// Marks the start of a fetch: changes from now on are kept until the fetch says what it read.
    func fetchWillStart(_ id: Int) {
        state.withLock { state in
            guard state.observers[id] != nil else { return }
            state.fetching.insert(id)
            state.observers[id]?.missed = ObservedRegion()
        }
    }

    /// Records what a fetch read; marks the observation changed if a change made during the fetch touched it.
    func fetchDidEnd(_ id: Int, region: ObservedRegion) {
        state.withLock { state in
            guard var observer = state.observers[id] else { return }
            let wasNarrowed = !state.rowReaders.isEmpty
            state.index(id, from: observer.region, to: region)
            if wasNarrowed != !state.rowReaders.isEmpty { storeWanted(state) }
            state.fetching.remove(id)
            observer.region = region
            if observer.missed.intersects(region) { observer.isChanged = true }
            observer.missed = ObservedRegion()
            state.observers[id] = observer
        }
    }

    /// Waits until a change touches the observation's region. Returns `false` when the observation ends instead
    /// (removed, the owner gone, the task cancelled).
    func waitForChange(_ id: Int) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer = state.withLock { state -> Bool? in
                    guard var observer = state.observers[id], !observer.isCancelled else { return false }
                    if observer.isChanged {
                        observer.isChanged = false
                        state.observers[id] = observer
                        return true
                    }
                    observer.waiter = continuation
                    state.observers[id] = observer
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.observers[id]?.isCancelled = true
                defer { state.observers[id]?.waiter = nil }
                return state.observers[id]?.waiter
            }
            waiter?.resume(returning: false)
        }
    }

    /// Delivers committed transactions: to the observations whose region they touch, and to every subscriber.
    func publish(_ committed: (region: ObservedRegion, changes: [DatabaseChange])?) {
        guard let (touched, changes) = committed else { return }
        let (waiters, subscribers) = state.withLock { state in
            for id in state.fetching { state.observers[id]?.missed.formUnion(touched) }
            var touchedIDs = state.readersOfEverything
            if touched.isEverything {
                for (id, observer) in state.observers where id > 0 && observer.region?.isEmpty == false {
                    touchedIDs.insert(id)
                }
            } else {
                let (readsWhole, readsRows) = (!state.readers.isEmpty, !state.rowReaders.isEmpty)
                for table in touched.tables {
                    if readsWhole, let ids = state.readers[table] { touchedIDs.formUnion(ids) }
                    if readsRows { state.rowReaders.collect(table, rows: touched.rows[table], into: &touchedIDs) }
                }
            }
            var waiters: [CheckedContinuation<Bool, Never>] = []
            for id in touchedIDs where !state.fetching.contains(id) {
                if let waiter = state.observers[id]?.waiter {
                    waiters.append(waiter)
                    state.observers[id]?.waiter = nil
                } else {
                    state.observers[id]?.isChanged = true
                }
            }
            return (waiters, state.subscribers.isEmpty ? [] : Array(state.subscribers.values))
        }
        for waiter in waiters { waiter.resume(returning: true) }
        for subscriber in subscribers {
            for change in changes { subscriber.yield(change) }
        }
    }

    // MARK: - Other connections

    /// The database file moved: wakes every observation (its next fetch fails with the error) and ends every change
    /// stream.
    private func endAfterMove() {
        let subscribers = state.withLock { state in
            state.poller = nil
            state.pollerInterval = nil
            state.watcher?.stop()
            state.watcher = nil
            state.watcherFailed = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        publish((ObservedRegion(isEverything: true), []))
        for subscriber in subscribers { subscriber.finish() }
    }

    /// Checks the data version at the shortest interval any observer asked for, while anyone observes.
    private func poll() async {
        while true {
            let next = state.withLock { state -> Duration? in
                guard state.owner != nil, !Task.isCancelled else { return nil }
                state.pollerInterval = state.pollingInterval
                return state.pollerInterval
            }
            guard let interval = next else { return }
            do {
                try await Task.sleep(for: interval)
            } catch {
                return  // cancelled: nobody observes any more
            }
            guard await checkOtherConnections() else { return }
        }
    }

    /// Checks the data version on the owner, and publishes a change of every table when another connection or
    /// process committed; returns `false` when nothing is left to check (the owner is gone, or its file moved).
    func checkOtherConnections() async -> Bool {
        // The owner is looked up each time, so that checking never keeps it alive.
        guard let owner = state.withLock({ $0.owner }) else { return false }
        let started = ContinuousClock.now
        // This check covers the changes reported long enough ago: the access it runs in need not check again.
        let event = unsettledEvent.load(ordering: .acquiring)
        if event != 0 && clockReading(started) >= event + Self.settleNanoseconds {
            _ = unsettledEvent.compareExchange(expected: event, desired: 0, ordering: .acquiringAndReleasing)
        }
        do {
            guard let committed = try await owner.otherConnectionCommitted() else { return true }
            recordCheck(startedAt: started)
            if committed { publishOtherConnectionCommit() }
        } catch let error as SQLiteError where error.kind == .databaseMoved {
            // Every observation fetches again, and its fetch fails with this error, which ends it; change
            // streams cannot carry an error, and end. Polling stops: there is nothing left to notice.
            endAfterMove()
            return false
        } catch {
            // A busy or interrupted check: the next one will tell.
        }
        return true
    }
}
