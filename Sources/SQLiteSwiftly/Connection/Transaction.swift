/// How a transaction takes its locks. See <https://www.sqlite.org/lang_transaction.html>.
public enum TransactionKind: String, Hashable, Sendable {
    /// `BEGIN DEFERRED`: locks are taken at the first read or write. For read-only transactions.
    case deferred = "DEFERRED"
    /// `BEGIN IMMEDIATE`: the write lock is taken at BEGIN, so a busy database fails there and not half-way.
    /// The default.
    case immediate = "IMMEDIATE"
    /// `BEGIN EXCLUSIVE`: like immediate; in rollback-journal mode, readers are shut out too.
    case exclusive = "EXCLUSIVE"
}

extension Connection {
    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// Called inside another transaction (or inside a transaction begun with `execute("BEGIN")`), it uses a
    /// savepoint instead, so the inner body can fail and roll back alone.
    ///
    /// If SQLite rolls the transaction back by itself (`SQLITE_FULL`, `SQLITE_IOERR`, `SQLITE_BUSY`,
    /// `SQLITE_NOMEM`, an interrupt) the error is reported with kind ``SQLiteError/Kind/transactionRolledBack``;
    /// when `body` swallowed the failure and returned, the commit is refused with that same kind. Either way
    /// nothing of the transaction is kept. Nothing commits while the body runs: a `COMMIT` (or `END`) that it
    /// runs is refused before it commits, with ``SQLiteError/Kind/misuse``, and any other commit (releasing a
    /// savepoint opened outside the body, a write in autocommit mode after the body ended the transaction) is
    /// turned into a rollback, reported with ``SQLiteError/Kind/transactionRolledBack``. A body that rolls the
    /// transaction back itself gets ``SQLiteError/Kind/transactionRolledBack`` (nothing is kept), even when it
    /// began another transaction after: that transaction is rolled back, not committed as if it were this one.
    ///
    /// ```swift
    /// try db.transaction {
    ///     try insert.insert(mercury)
    ///     try insert.insert(venus)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - kind: How the outermost transaction takes its locks; ignored for savepoints.
    ///   - body: The work to do atomically.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (after rolling back), or an ``SQLiteError`` from BEGIN, COMMIT or SQLite's
    ///   own rollback.
    @discardableResult
    public func transaction<Result, Failure: Error>(
        _ kind: TransactionKind = .immediate, _ body: () throws(Failure) -> Result
    ) throws -> Result {
        try withTransaction(kind, lift: { $0 as any Error }) { () throws -> Result in try body() }
    }

    /// ``transaction(_:_:)`` for the library's own bodies, which throw only `SQLiteError`.
    func withTransaction<Result>(_ kind: TransactionKind, _ body: () throws(SQLiteError) -> Result)
        throws(SQLiteError) -> Result
    {
        try withTransaction(kind, lift: { $0 }, body)
    }

    /// The transaction machinery, typed by the body's error; `lift` turns the library's own errors into it.
    func withTransaction<Result, Failure: Error>(
        _ kind: TransactionKind, lift: (SQLiteError) -> Failure, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let nested = transactionDepth > 0 || isInTransaction
        let savepoint = "sqliteswiftly_\(transactionDepth + 1)"
        let begin = nested ? "SAVEPOINT \(savepoint)" : "BEGIN \(kind.rawValue)"
        let commit = nested ? "RELEASE \(savepoint)" : "COMMIT"
        // A writer takes its turn among the database's writers first (see ConnectionOptions.queuesWriters).
        let turnstile: WriterTurnstile?
        // The statements that undo the transaction are compiled before it begins, and held (the cache may evict
        // them while the body runs): an interrupt that lands while one is being compiled, after the body failed,
        // would fail the compile and leave the transaction open.
        let undo: (RawStatement, RawStatement?)
        do {
            undo =
                nested
                ? (try kept("ROLLBACK TO \(savepoint)"), try kept("RELEASE \(savepoint)"))
                : (try kept("ROLLBACK"), nil)
            if nested || kind == .deferred {
                try executeKept(begin)
                turnstile = nil
            } else {
                turnstile = try beginInTurn(begin)
            }
        } catch {
            throw lift(error)
        }
        defer { turnstile?.leave() }
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        let (rollbacksBefore, refusalsBefore) = (changeTracker.rollbackCount, changeTracker.refusedCommitCount)
        // Whether the body ended this transaction itself, even if it began another one after: that one is not
        // this transaction, and committing it would keep half of the body's work. (A commit cannot end it: the
        // commit hook refuses every commit while a body runs, see `ChangeTracker.openTransactionBodies`.)
        func bodyEnded() -> SQLiteError? {
            if commitWasRefused() { return Self.refusedCommit }
            return changeTracker.rollbackCount != rollbacksBefore ? Self.rolledBackByBody : nil
        }
        // Whether the commit hook refused a commit of the body. SQLite then rolled everything back, but a refused
        // `RELEASE` leaves the connection out of autocommit mode with no transaction behind it: `ROLLBACK` ends that.
        func commitWasRefused() -> Bool {
            guard changeTracker.refusedCommitCount != refusalsBefore else { return false }
            if isInTransaction { try? executeKept("ROLLBACK") }
            return true
        }
        let result: Result
        do {
            changeTracker.openTransactionBodies += 1
            defer { changeTracker.openTransactionBodies -= 1 }
            result = try body()
        } catch {
            let stillOpen = isInTransaction
            if stillOpen { try? rollBack(undo) }
            // A body that tried to commit and then threw: the refused commit is what to report.
            if commitWasRefused() { throw lift(Self.refusedCommit) }
            if stillOpen { throw error }
            throw Self.rolledBack(error, lift: lift)
        }
        if let ended = bodyEnded() {
            // A transaction the body began after ending this one: its part is not kept.
            if isInTransaction && !nested { try? rollBack(undo) }
            throw lift(ended)
        }
        guard isInTransaction else { throw lift(Self.rolledBackByBody) }
        do {
            try executeKept(commit)
        } catch {
            if isInTransaction { try? rollBack(undo) }
            throw lift(error)
        }
        return result
    }

    /// Runs the held statements that undo a transaction or a savepoint.
    private func rollBack(_ undo: (RawStatement, RawStatement?)) throws(SQLiteError) {
        _ = try execute(undo.0) { _ throws(SQLiteError) in }
        if let release = undo.1 { _ = try execute(release) { _ throws(SQLiteError) in } }
    }

    /// The compiled statement of a transaction-control text, kept in the statement cache from its first run.
    private func kept(_ sql: String) throws(SQLiteError) -> RawStatement {
        try cachedStatement(sql, keepingAtFirstRun: true)
    }

    /// Runs a transaction-control text, keeping its statement from its first run.
    func executeKept(_ sql: String) throws(SQLiteError) {
        _ = try execute(kept(sql)) { _ throws(SQLiteError) in }
    }

    /// The error for a body that returned after the transaction had ended: rolled back by SQLite after an error,
    /// or by a `ROLLBACK` in the body.
    private static var rolledBackByBody: SQLiteError {
        SQLiteError(
            .transactionRolledBack,
            message: "the transaction was rolled back before it could commit (by SQLite after an error, or by a "
                + "ROLLBACK in the body); nothing was committed")
    }

    /// The error for a body that committed, or tried to, while it ran: the commit hook refused the commit, and
    /// SQLite rolled the transaction back instead.
    private static var refusedCommit: SQLiteError {
        SQLiteError(
            .transactionRolledBack,
            message: "the transaction body tried to commit (by releasing a savepoint opened outside the transaction, "
                + "or by writing in autocommit mode after it ended the transaction): the commit was refused and the "
                + "transaction rolled back, so nothing was committed; end a transaction only by returning from its "
                + "body (or throwing, to roll back)")
    }

    /// Marks an SQLite error as having ended the transaction.
    private static func rolledBack<Failure: Error>(_ error: Failure, lift: (SQLiteError) -> Failure) -> Failure {
        guard var error = error as? SQLiteError, error.kind == .sqlite else { return error }
        error.kind = .transactionRolledBack
        error.message = "SQLite rolled the transaction back: " + error.message
        return lift(error)
    }
}
