/// Whether a connection has opened its writers' turnstile yet, and with what outcome.
enum TurnstileSlot {
    /// Not needed yet: no write transaction has queued.
    case unopened
    /// The connection does not queue: queueing is off, the database is in memory or read-only, or the file
    /// could not be opened.
    case unavailable
    /// The open turnstile.
    case open(WriterTurnstile)
}

extension Connection {
    /// Runs `begin` (`BEGIN IMMEDIATE` or `BEGIN EXCLUSIVE`) after taking this connection's turn among the
    /// database's writers; the whole wait, for the turn and then for SQLite's lock, lasts at most the busy
    /// timeout.
    ///
    /// - Returns: The turnstile to leave after `COMMIT` or `ROLLBACK`, or `nil` when the connection does not
    ///   queue (see ``ConnectionOptions/queuesWriters``).
    /// - Throws: ``SQLiteError/Kind/databaseMoved`` when the database file is no longer at its path; a busy
    ///   ``SQLiteError`` naming `begin` when other writers kept the turn for the whole timeout; an interrupt error
    ///   when ``InterruptHandle/interrupt()`` was called or the task was cancelled during the wait; or the error of
    ///   `begin` (the turn is left then).
    func beginInTurn(_ begin: String) throws(SQLiteError) -> WriterTurnstile? {
        try requireFileInPlace(before: "starting a write transaction")
        guard let turnstile = openTurnstile() else {
            try executeKept(begin)
            return nil
        }
        let timeout = BusyWait.clamped(options.busyTimeout)
        let start = ContinuousClock.now
        // An interrupt that arrived before this transaction is not for it; a cancelled access stays raised, and the
        // wait below stops at its first turn.
        _ = interruptHandle.lower()
        let interrupts = interruptHandle
        switch turnstile.enter(before: start + timeout, shouldStop: { interrupts.isRaised || currentTaskIsCancelled() })
        {
        case .entered: break
        case .timedOut:
            throw SQLiteError(
                .sqlite, code: .busy,
                message: "database is locked: other writers kept the turn at '\(path ?? "")\(WriterTurnstile.suffix)' "
                    + "for the whole busy timeout (\(timeout))",
                sql: begin)
        case .stopped:
            var error = BusyWait.stopped(
                "waiting for the writers' turn at '\(path ?? "")\(WriterTurnstile.suffix)'",
                byCancellation: currentTaskIsCancelled())
            error.sql = begin
            throw error
        }
        busyWait.pointee.timeout = max(.zero, timeout - (ContinuousClock.now - start))
        defer { busyWait.pointee.timeout = timeout }
        do {
            try executeKept(begin)
        } catch {
            turnstile.leave()
            throw error
        }
        return turnstile
    }

    /// The turnstile, opened at the first call on a connection that queues its writers.
    private func openTurnstile() -> WriterTurnstile? {
        switch turnstile {
        case .open(let turnstile): return turnstile
        case .unavailable: return nil
        case .unopened:
            let opened: WriterTurnstile?
            switch mode {
            case .create(let path), .open(let path):
                opened = options.queuesWriters && !isReadOnly ? WriterTurnstile(databasePath: path) : nil
            case .openReadOnly, .inMemory:
                opened = nil
            }
            turnstile = opened.map(TurnstileSlot.open) ?? .unavailable
            return opened
        }
    }
}
