import CSQLiteSwiftly

extension Connection {
    /// Applies a changeset to this database, all or nothing, asking `resolve` what to do at each conflict.
    ///
    /// The changes are made in one transaction (a savepoint inside one already open) with SQLite's
    /// `sqlite3changeset_apply_v2`. A change conflicts when the database does not hold what it expects (see
    /// ``ChangesetConflict/Kind``); `resolve` then skips it, writes it anyway, or aborts. By default every conflict
    /// aborts. When anything fails (an abort, `resolve` throwing, invalid bytes) nothing of the changeset is kept.
    ///
    /// Before anything is applied, every table the changeset names must exist in the `main` database with the
    /// same primary key and at least the changeset's columns (more, added later with `ALTER TABLE ADD COLUMN`,
    /// take their defaults); SQLite itself would silently leave out the changes of a table that does not.
    ///
    /// ```swift
    /// let result = try replica.apply(changeset) { conflict in
    ///     conflict.kind == .data ? .replace : .skip
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - changeset: The changes to make.
    ///   - resolve: Decides each conflict. It runs during the application, on this connection's thread, and must
    ///     not use this connection.
    /// - Returns: What was applied, replaced and skipped.
    /// - Throws: ``SQLiteError/Kind/changesetConflict`` when a conflict was resolved with
    ///   ``ChangesetConflict/Resolution/abort`` (it names the table); what `resolve` throws;
    ///   ``SQLiteError/Kind/schemaMismatch`` for a changeset made for another schema;
    ///   ``SQLiteError/Kind/invalidChangeset`` for bytes that are not a changeset;
    ///   ``SQLiteError/Kind/sessionUnavailable``; SQLite's errors (busy, I/O). The database is then as it was.
    @discardableResult
    public func apply(
        _ changeset: Changeset,
        onConflict resolve: (ChangesetConflict) throws -> ChangesetConflict.Resolution = { _ in .abort }
    ) throws -> AppliedChangeset {
        try applyChanges(changeset.bytes, patchset: false, resolve)
    }

    /// Applies a patchset to this database, all or nothing, asking `resolve` what to do at each conflict.
    ///
    /// As ``apply(_:onConflict:)-(Changeset,_)``. A patchset has no old values, so an UPDATE or DELETE of a row that exists never
    /// conflicts with ``ChangesetConflict/Kind/data``: it is applied over whatever the row holds.
    ///
    /// - Parameters:
    ///   - patchset: The changes to make.
    ///   - resolve: Decides each conflict; it must not use this connection.
    /// - Returns: What was applied, replaced and skipped.
    /// - Throws: As ``apply(_:onConflict:)-(Changeset,_)``.
    @discardableResult
    public func apply(
        _ patchset: Patchset,
        onConflict resolve: (ChangesetConflict) throws -> ChangesetConflict.Resolution = { _ in .abort }
    ) throws -> AppliedChangeset {
        try applyChanges(patchset.bytes, patchset: true, resolve)
    }

    /// Checks the bytes and the schema, then applies them in a transaction.
    func applyChanges(
        _ bytes: [UInt8], patchset: Bool, _ resolve: (ChangesetConflict) throws -> ChangesetConflict.Resolution
    ) throws -> AppliedChangeset {
        try requireOpen()
        let functions = try SessionFunctions.available()
        guard !bytes.isEmpty else { return AppliedChangeset(appliedCount: 0, replacedCount: 0, skipped: []) }
        let layout = try ChangesetBytes.layout(bytes, patchset: patchset)
        return try transaction(.immediate) { () throws -> AppliedChangeset in
            for table in layout.tables { try checkApplicable(table) }
            // SQLite's own statements make the changes: no statement of the library reports the tables written.
            changeTracker.willWrite(tables: layout.tables.map { ($0.name, $0.kinds) })
            let outcome = try withoutActuallyEscaping(resolve) { resolve in
                let context = ApplyContext(
                    functions: functions, interrupts: interruptHandle, enforcesForeignKeys: enforcesForeignKeys,
                    resolve: resolve)
                defer { context.resolve = nil }  // the closure must not outlive this call
                let code = try ChangesetBytes.withBytes(bytes) { count, start throws(SQLiteError) in
                    functions.api.changeset_apply_v2(
                        handle, count, start, nil, ApplyContext.callback, Unmanaged.passUnretained(context).toOpaque(),
                        nil, nil, Self.noSavepoint)
                }
                return (code: code, failure: context.failure, skipped: context.skipped, replaced: context.replacedCount)
            }
            if let failure = outcome.failure { throw failure }
            guard outcome.code == SQLITE_OK else { throw applyFailure(outcome.code) }
            return AppliedChangeset(
                appliedCount: layout.changeCount - outcome.skipped.count, replacedCount: outcome.replaced,
                skipped: outcome.skipped)
        }
    }

    /// `SQLITE_CHANGESETAPPLY_NOSAVEPOINT`: the library's transaction (or savepoint) already makes the
    /// application all or nothing, and rolls it back on failure.
    private static let noSavepoint: Int32 = 0x0001

    /// Refuses a table that the changeset's changes cannot be applied to as recorded, where SQLite would skip
    /// them silently (`sessionChangesetApply`: no such table, fewer columns, another primary key).
    private func checkApplicable(_ table: ChangesetLayout.Table) throws {
        // sqlite_stat1 has no declared key; SQLite applies it by its (tbl, idx) pair.
        guard table.name.sqlIdentifierKey != "sqlite_stat1" else { return }
        // The columns SQLite's session code sees: `PRAGMA table_info`, without hidden and generated ones.
        let key = try fetchAll(
            KeyPlace.self,
            "SELECT pk FROM pragma_table_xinfo(\(table.name), 'main') WHERE hidden = 0 ORDER BY cid"
        ).map(\.place)
        func mismatch(_ what: String) -> SQLiteError {
            var error = SQLiteError(
                .schemaMismatch, code: .schema,
                message: "the changeset was made for another schema: \(what); nothing was applied")
            error.table = table.name
            return error
        }
        guard !key.isEmpty else { throw mismatch("table \"\(table.name)\" does not exist in the main database") }
        guard key.count >= table.columnCount else {
            throw mismatch("the table has \(key.count) columns, the changeset \(table.columnCount)")
        }
        let expected = table.primaryKey.map(Int.init) + Array(repeating: 0, count: key.count - table.columnCount)
        guard key == expected else { throw mismatch("the table's primary key is not the changeset's") }
    }

    /// The error of an application that SQLite failed.
    private func applyFailure(_ code: Int32) -> SQLiteError {
        guard ResultCode(rawValue: code).primary != .corrupt else {
            return ChangesetBytes.failure(code, while: "applying the changeset")
        }
        return SQLiteError(code: code, db: handle)
    }
}

/// A column's place in the primary key (0 when not part of it), as `pragma_table_xinfo` gives it.
private struct KeyPlace: RowDecodable {
    let place: Int

    init(row: borrowing Row) throws {
        place = try row[0]
    }
}

/// What the conflict callback needs during one application: the handler, and what it decided.
private final class ApplyContext {
    let functions: SessionFunctions
    /// The connection's interrupt handle: once it is raised, no more conflict is handed to the handler.
    let interrupts: InterruptHandle
    /// Whether the connection enforces foreign keys: a foreign-key conflict cannot be skipped then.
    let enforcesForeignKeys: Bool
    var resolve: ((ChangesetConflict) throws -> ChangesetConflict.Resolution)?
    /// Why the application was aborted: the handler's error, or the conflict it aborted at.
    var failure: (any Error)?
    var skipped: [ChangesetConflict] = []
    var replacedCount = 0

    init(
        functions: SessionFunctions, interrupts: InterruptHandle, enforcesForeignKeys: Bool,
        resolve: @escaping (ChangesetConflict) throws -> ChangesetConflict.Resolution
    ) {
        self.functions = functions
        self.interrupts = interrupts
        self.enforcesForeignKeys = enforcesForeignKeys
        self.resolve = resolve
    }

    /// The `xConflict` callback SQLite calls; the context is this object, unretained (it outlives the call to
    /// `sqlite3changeset_apply_v2`).
    static let callback: @convention(c) (UnsafeMutableRawPointer?, Int32, OpaquePointer?) -> Int32 = {
        context, kind, iterator in
        guard let context, let iterator else { return CSQLITE_CHANGESET_ABORT }
        return Unmanaged<ApplyContext>.fromOpaque(context).takeUnretainedValue().decide(Int32(kind), iterator)
    }

    /// Runs the handler for one conflict and returns SQLite's code for its decision.
    ///
    /// This is the one place where Swift code runs inside an application. Once the connection is interrupted (or
    /// the access cancelled), the handler is not called: the application aborts with the interruption, and nothing
    /// of it is kept.
    private func decide(_ code: Int32, _ iterator: OpaquePointer) -> Int32 {
        guard let resolve else { return CSQLITE_CHANGESET_ABORT }
        if interrupts.isRaised {
            failure = SQLiteError(
                .sqlite, code: .interrupt, message: "interrupted while applying a changeset; nothing was applied")
            return CSQLITE_CHANGESET_ABORT
        }
        do {
            let conflict = try conflict(code, iterator)
            switch try resolve(conflict) {
            case .skip:
                if conflict.kind != .foreignKey {
                    skipped.append(conflict)
                } else if enforcesForeignKeys {
                    // SQLite would commit the broken keys: turning `defer_foreign_keys` off forgets them.
                    failure = SQLiteError(
                        .changesetConflict, code: .constraintForeignKey,
                        message: "the changeset would break \(conflict.foreignKeyViolations) foreign key(s), and this "
                            + "connection enforces foreign keys, so they cannot be kept with .skip; nothing was applied"
                    )
                    return CSQLITE_CHANGESET_ABORT
                }
                return CSQLITE_CHANGESET_OMIT
            case .replace:
                guard conflict.kind == .data || conflict.kind == .conflict else {
                    var error = SQLiteError(
                        .misuse,
                        message: "a conflict of kind \(conflict.kind) cannot be resolved with .replace, only "
                            + ".skip or .abort (\(conflict.summary)); nothing was applied")
                    error.table = conflict.change?.table
                    failure = error
                    return CSQLITE_CHANGESET_ABORT
                }
                replacedCount += 1
                return CSQLITE_CHANGESET_REPLACE
            case .abort:
                var error = SQLiteError(
                    .changesetConflict, code: .abort,
                    message: "the changeset conflicts with the database: \(conflict.summary); nothing was applied")
                error.table = conflict.change?.table
                failure = error
                return CSQLITE_CHANGESET_ABORT
            }
        } catch {
            failure = error
            return CSQLITE_CHANGESET_ABORT
        }
    }

    /// The conflict SQLite describes with `code` and `iterator`.
    private func conflict(_ code: Int32, _ iterator: OpaquePointer) throws(SQLiteError) -> ChangesetConflict {
        let kind = ChangesetConflict.Kind(rawValue: code)
        if kind == .foreignKey {
            // The iterator of a foreign-key conflict describes no change: only the count can be read.
            var count: Int32 = 0
            _ = functions.api.changeset_fk_conflicts(iterator, &count)
            return ChangesetConflict(kind: kind, change: nil, foreignKeyViolations: Int(count))
        }
        let change = try RecordedChange(iterator: iterator, functions: functions)
        var current: [SQLiteValue]?
        if kind == .data || kind == .conflict {
            let api = functions.api
            current = try RecordedChange.values(count: Int32(change.primaryKeyColumns.count), table: change.table) {
                index, value in api.changeset_conflict(iterator, index, value)
            }.map { $0 ?? .null }
        }
        return ChangesetConflict(kind: kind, change: change, currentValues: current)
    }
}
