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
    /// nothing of the transaction is kept.
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
        let nested = transactionDepth > 0 || isInTransaction
        let savepoint = "sqliteswiftly_\(transactionDepth + 1)"
        let begin = nested ? "SAVEPOINT \(savepoint)" : "BEGIN \(kind.rawValue)"
        let commit = nested ? "RELEASE \(savepoint)" : "COMMIT"
        try execute(begin)
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        let result: Result
        do {
            result = try body()
        } catch {
            if isInTransaction {
                try? rollBack(nested: nested, savepoint: savepoint)
                throw error
            }
            throw Self.rolledBack(error)
        }
        guard isInTransaction else {
            throw SQLiteError(
                .transactionRolledBack,
                message: "the transaction was rolled back before it could commit (by SQLite after an error, or by "
                    + "a ROLLBACK in the body); nothing was committed")
        }
        do {
            try execute(commit)
        } catch {
            if isInTransaction { try? rollBack(nested: nested, savepoint: savepoint) }
            throw error
        }
        return result
    }

    private func rollBack(nested: Bool, savepoint: String) throws(SQLiteError) {
        if nested {
            try execute("ROLLBACK TO \(savepoint)")
            try execute("RELEASE \(savepoint)")
        } else {
            try execute("ROLLBACK")
        }
    }

    /// Marks an SQLite error as having ended the transaction.
    private static func rolledBack(_ error: any Error) -> any Error {
        guard var error = error as? SQLiteError, error.kind == .sqlite else { return error }
        error.kind = .transactionRolledBack
        error.message = "SQLite rolled the transaction back: " + error.message
        return error
    }
}
