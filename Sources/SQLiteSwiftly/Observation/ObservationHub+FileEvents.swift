import Synchronization

// What the hub does with the file watcher's notices: the checks of the data version that follow a change of the
// database's files, run at the end of an access of the owner's connection when one comes in time, in a task of
// their own otherwise.

extension ObservationHub {
    /// Takes a notice of the file watcher, on its thread.
    ///
    /// A change makes the next access of the owner's connection that ends at least
    /// ``FileChangeWatcher/commitSettleTime`` later check the data version as it ends (see ``inlineCheckIsDue``):
    /// while the process writes, its own accesses check, for the cost of a `PRAGMA`, with no thread or task to wake.
    /// A due check that no successful check has covered runs in a task (see ``requestCheck(_:)``).
    func noticed(_ notice: FileChangeWatcher.Notice) {
        switch notice {
        case .changed:
            unsettledEvent.store(clockReading(.now), ordering: .releasing)
        case .checkDue(let since):
            state.withLock { state in
                if let last = state.lastCheckStart, last >= since { return }
                requestCheck(&state)
            }
        }
    }

    /// Starts a check in a task of its own, or asks the running one for one more after it (the request may have
    /// come after it read the data version).
    func requestCheck(_ state: inout State) {
        guard !state.isClosed, state.owner != nil else { return }
        state.requestedChecks += 1
        guard state.checkTask == nil else {
            state.checkAgain = true
            return
        }
        state.checkTask = Task { [weak self] in await self?.runRequestedChecks() }
    }

    /// The requested checks, one after another; see ``requestCheck(_:)``.
    private func runRequestedChecks() async {
        var goesOn = true
        while goesOn {
            let checksMore = await checkOtherConnections()
            goesOn = state.withLock { state in
                guard checksMore && state.checkAgain else {
                    state.checkTask = nil
                    state.checkAgain = false
                    return false
                }
                state.checkAgain = false
                return true
            }
        }
    }

    /// Whether the access of the owner's connection that ends now should check the data version: the watcher
    /// reported a change at least ``FileChangeWatcher/commitSettleTime`` ago that no check has followed yet. One
    /// atomic load when none is pending.
    var inlineCheckIsDue: Bool {
        let event = unsettledEvent.load(ordering: .acquiring)
        return event != 0 && clockReading(.now) >= event + Self.settleNanoseconds
    }

    /// Checks the data version on `tracker`, the owner connection's, at the end of one of its accesses; see
    /// ``inlineCheckIsDue``. A check that fails is left to the watcher's ``FileChangeWatcher/Notice/checkDue(since:)``.
    func checkInline(_ tracker: ChangeTracker) {
        let event = unsettledEvent.load(ordering: .acquiring)
        // A newer change than the one that made the check due keeps its own time, and its own check.
        guard event != 0,
            unsettledEvent.compareExchange(expected: event, desired: 0, ordering: .acquiringAndReleasing).exchanged
        else { return }
        let started = ContinuousClock.now
        guard let committed = tracker.otherConnectionCommitted() else { return }
        recordCheck(startedAt: started)
        if committed { publishOtherConnectionCommit() }
    }

    /// Notes a successful check that started at `start`.
    func recordCheck(startedAt start: ContinuousClock.Instant) {
        state.withLock { state in
            if state.lastCheckStart.map({ $0 < start }) ?? true { state.lastCheckStart = start }
        }
    }

    /// Publishes a commit of another connection or process: every table may have changed.
    func publishOtherConnectionCommit() {
        publish((ObservedRegion(isEverything: true), [DatabaseChange(tables: [], isFromAnotherConnection: true)]))
    }

    /// `instant` in nanoseconds since the hub was made, plus one, so that 0 can mean none.
    func clockReading(_ instant: ContinuousClock.Instant) -> Int64 {
        let (seconds, attoseconds) = (instant - origin).components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000 + 1
    }

    /// ``FileChangeWatcher/commitSettleTime`` in nanoseconds.
    static let settleNanoseconds: Int64 = {
        let (seconds, attoseconds) = FileChangeWatcher.commitSettleTime.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }()
}
