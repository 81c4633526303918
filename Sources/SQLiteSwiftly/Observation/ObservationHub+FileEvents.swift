// What the hub does when the file watcher reports that the database's files changed: the checks of the data version
// that follow an event.

extension ObservationHub {
    /// The file watcher saw the database's files change: checks the data version ``commitSettleTime`` after an
    /// event, but never sooner than ``eventCheckInterval`` after the previous check, and, once events stop, at
    /// doubling intervals until ``eventCheckHorizon`` after the last one.
    ///
    /// In WAL mode another process's commit becomes visible when it updates the WAL index in shared memory, after
    /// its last write to the WAL and, with `synchronous = FULL`, after an `fsync`; neither raises an event. A check
    /// at the event itself would usually run too early: hence the first one a millisecond later, when the commit
    /// is usually visible, and the later ones for slow disks (the poller's backstop covers the rest). The interval
    /// bounds the checks that this process's own writes cause (their events are the same): one per interval,
    /// however fast the writes come.
    func filesChanged() {
        state.withLock { state in
            state.lastFileEvent = .now
            // A task checking at short intervals notices the event by itself; one waiting in its tail is replaced.
            guard state.eventChecks == nil || state.eventChecksInTail else { return }
            state.eventChecks?.cancel()
            state.eventChecksInTail = false
            state.eventChecksGeneration += 1
            let generation = state.eventChecksGeneration
            state.eventChecks = Task { [weak self] in await self?.checkAfterEvents(generation: generation) }
        }
    }

    /// The checks after file events; see ``filesChanged()``. Ends when cancelled (a newer task took over), when
    /// ``eventCheckHorizon`` passed without an event, or when nothing is left to check.
    func checkAfterEvents(generation: Int) async {
        var lastCheck = ContinuousClock.now - Self.eventCheckInterval
        var tailGap = Self.eventCheckInterval
        while !Task.isCancelled {
            let now = ContinuousClock.now
            let wait = state.withLock { state -> Duration? in
                guard state.eventChecksGeneration == generation else { return nil }
                if state.lastFileEvent >= lastCheck {
                    // An event since the last check: 1 ms after it, at most one check per interval.
                    state.eventChecksInTail = false
                    tailGap = Self.eventCheckInterval
                    let settle = Self.commitSettleTime - (now - state.lastFileEvent)
                    let spacing = Self.eventCheckInterval - (now - lastCheck)
                    return max(settle, spacing, .zero)
                }
                guard now - state.lastFileEvent < Self.eventCheckHorizon else {
                    state.eventChecks = nil
                    state.eventChecksInTail = false
                    return nil
                }
                state.eventChecksInTail = true
                defer { tailGap *= 2 }
                return tailGap
            }
            guard let wait else { return }
            if wait > .zero {
                do { try await Task.sleep(for: wait) } catch { return }  // cancelled: a newer task took over
            }
            lastCheck = ContinuousClock.now
            guard await checkOtherConnections() else {
                return state.withLock { state in
                    guard state.eventChecksGeneration == generation else { return }
                    state.eventChecks = nil
                    state.eventChecksInTail = false
                }
            }
        }
    }

    /// How long after a file event the data version is first checked: time for the writer to finish its commit.
    static let commitSettleTime: Duration = .milliseconds(1)

    /// The shortest interval between two checks caused by file events.
    static let eventCheckInterval: Duration = .milliseconds(10)

    /// How long after the last file event the checks go on.
    static let eventCheckHorizon: Duration = .seconds(5)
}
