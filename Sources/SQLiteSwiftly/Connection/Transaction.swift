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
    /// nothing of the transaction is kept. A `COMMIT` (or `END`) that the body runs is refused before it commits,
    /// with ``SQLiteError/Kind/misuse``: it would commit part of the body's work. A body that rolls the
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
        let (rollbacksBefore, commitsBefore) = (changeTracker.rollbackCount, changeTracker.commitCount)
        // Whether the body ended this transaction itself, even if it began another one after: that one is not
        // this transaction, and committing it would keep half of the body's work.
        func bodyEnded() -> SQLiteError? {
            let (rolledBack, committed) = (
                changeTracker.rollbackCount != rollbacksBefore, changeTracker.commitCount != commitsBefore
            )
            guard rolledBack || committed else { return nil }
            return endedByBody(rolledBack: rolledBack, committedOutside: committed)
        }
        let result: Result
        do {
            changeTracker.openTransactionBodies += 1
            defer { changeTracker.openTransactionBodies -= 1 }
            result = try body()
        } catch {
            let (stillOpen, committedPart) = (isInTransaction, changeTracker.commitCount != commitsBefore)
            let bodyRolledBack = changeTracker.rollbackCount != rollbacksBefore  // before the rollback below
            if stillOpen { try? rollBack(undo) }
            // A body that committed part of its work and then threw: the commit is the misuse to report.
            if committedPart {
                throw lift(
                    endedByBody(
                        rolledBack: bodyRolledBack,
                        committedOutside: true))
            }
            if stillOpen { throw error }
            throw Self.rolledBack(error, lift: lift)
        }
        if let ended = bodyEnded() {
            // A transaction the body began after ending this one: its part is not kept.
            if isInTransaction && !nested { try? rollBack(undo) }
            throw lift(ended)
        }
        guard isInTransaction else { throw lift(endedByBody(rolledBack: false, committedOutside: false)) }
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

    /// The error for a body that returned after the transaction had ended: rolled back (by SQLite after an
    /// error, or by a `ROLLBACK` in the body), or committed (the commit hook saw a commit the body made; a
    /// `COMMIT` statement is refused before it runs, see `ChangeTracker.openTransactionBodies`, so this is a
    /// second line of defence); `committedOutside` when writes were committed outside the transaction (writes in
    /// autocommit mode after a rollback).
    private func endedByBody(rolledBack: Bool, committedOutside: Bool) -> SQLiteError {
        if rolledBack {
            return SQLiteError(
                .transactionRolledBack,
                message: "the transaction was rolled back before it could commit (by SQLite after an error, or by "
                    + "a ROLLBACK in the body); "
                    + (committedOutside
                        ? "nothing of it was committed, but writes the body made after the rollback were committed "
                            + "on their own"
                        : "nothing was committed"))
        }
        return SQLiteError(
            .misuse,
            message: "the transaction body committed the transaction itself (releasing a savepoint begun outside "
                + "it commits): what it wrote before is committed, and what it wrote in a transaction it began after "
                + "is rolled back; end a transaction only by returning from its body (or throwing, to roll back)")
    }

    /// Marks an SQLite error as having ended the transaction.
    private static func rolledBack<Failure: Error>(_ error: Failure, lift: (SQLiteError) -> Failure) -> Failure {
        guard var error = error as? SQLiteError, error.kind == .sqlite else { return error }
        error.kind = .transactionRolledBack
        error.message = "SQLite rolled the transaction back: " + error.message
        return lift(error)
    }
}
