import CSQLiteSwiftly

/// The connection's part of observation: SQLite's commit, rollback and update hooks, the authorizer that tells
/// which tables a statement reads and writes, and the changes of the transaction in progress.
///
/// Every method runs on the connection's owner (one thread at a time), like the connection itself. The hooks get
/// an unretained pointer to the tracker, which the connection owns and keeps until after it closes the handle.
/// See <https://www.sqlite.org/c3ref/commit_hook.html>, <https://www.sqlite.org/c3ref/update_hook.html> and
/// <https://www.sqlite.org/c3ref/set_authorizer.html>.
@usableFromInline
final class ChangeTracker {
    let db: OpaquePointer
    /// How many transactions SQLite rolled back (see ``Connection/transaction(_:_:)``).
    var rollbackCount = 0
    /// How many commits the commit hook refused because a transaction body was running (see
    /// ``openTransactionBodies``): SQLite rolled each of them back instead.
    var refusedCommitCount = 0
    /// Moves at every commit, every rollback and every schema statement this connection runs: between two moves
    /// the schema cannot change under a model write (another connection's change needs a transaction of this one
    /// to end first), so a model write verifies its model only when it moved (see `ModelWrite.run`).
    @usableFromInline @exclusivity(unchecked) var schemaEpoch = 0
    /// How many ``Connection/transaction(_:_:)`` bodies are running. While one is, any commit would keep part of
    /// the body's work: a `COMMIT` (or `END`) is refused before it runs (see ``commitInBody(sql:)``), and any
    /// other commit (the `RELEASE` of a savepoint opened outside the body, a write in autocommit mode after the
    /// body ended the transaction) is refused by the commit hook, which makes SQLite roll back instead.
    @usableFromInline @exclusivity(unchecked) var openTransactionBodies = 0
    /// Whether statements must be reported: changes are tracked, or a fetch's reads are recorded. Checked at the
    /// start of every statement run, so it is the only cost of observation support while nothing is observed.
    @usableFromInline @exclusivity(unchecked) var isActive = false
    /// What the connection was configured for: see ``ObservationHub/Wanted``.
    @exclusivity(unchecked) private(set) var configuration = ObservationHub.Wanted()
    @exclusivity(unchecked) private var isRecording = false
    @exclusivity(unchecked) private var recorded = ObservedRegion()
    /// The statements run while recording: one that SQLite re-prepares at its step (after a schema change, a view
    /// redefined) may read other tables than its region said at the start of the run.
    @exclusivity(unchecked) private var recordedStatements: [RawStatement] = []
    /// The region being collected by the authorizer, while a statement is prepared for that purpose.
    @exclusivity(unchecked) private var collecting: StatementRegion?
    private var isAuthorizerInstalled = false
    /// The statements of a recording that may read rows by rowid, until their first step, when their values are
    /// bound and what they read is worked out (see ``narrowedReads(of:_:)``).
    @exclusivity(unchecked) private var awaitingRows: [RawStatement] = []
    /// The main database's b-trees at a schema cookie, for ``ProgramAnalysis``.
    var schemaObjects: (cookie: Int32, objects: [Int32: ProgramAnalysis.SchemaObject])?
    /// Whether the update hook was installed while the transaction in progress had already written: rows it
    /// changed before are unknown, and its commit concerns its tables whole.
    @exclusivity(unchecked) private var rowsAreIncomplete = false
    @exclusivity(unchecked) private var pending = PendingTables()
    /// The table the update hook named last: its name as SQLite passed it (with the terminating NUL), as a String,
    /// and its key. A statement reports its rows table by table, so most calls compare a few bytes instead of
    /// building and lowercasing a String.
    @exclusivity(unchecked) private var lastHookTable: (bytes: [CChar], name: String, key: String)?
    @exclusivity(unchecked) private var pendingSchemaChange = false
    /// Set by the commit hook; the commit is real once the connection is back in autocommit mode.
    @exclusivity(unchecked) private var commitRequested = false
    /// The tables the transaction in progress changed: what observations are matched against. Kept apart from
    /// `pending`, which holds the details only ``DatabaseChange`` subscribers need, so that a commit seen by
    /// observations alone allocates nothing (a statement's region is shared, not copied).
    @exclusivity(unchecked) private var pendingRegion = ObservedRegion()
    /// The tables of the transactions committed since the last ``takeCommitted()``.
    @exclusivity(unchecked) private var committedRegion = ObservedRegion()
    /// Their changes, one per transaction, when subscribers want them.
    @exclusivity(unchecked) private var committedChanges: [DatabaseChange] = []

    /// The data version of each database (main and attached ones) at the last check (`PRAGMA data_version`): it
    /// moves when another connection commits.
    var dataVersion: [String: Int64]?

    /// The connection's error record: a commit refused because the file moved leaves its error there.
    private let errors: FunctionErrors
    /// Whether commits check that the database file is still at its path (a file database).
    private let checksFileMoves: Bool

    init(db: OpaquePointer, errors: FunctionErrors, checksFileMoves: Bool) {
        self.db = db
        self.errors = errors
        self.checksFileMoves = checksFileMoves
        sqlite3_commit_hook(
            db,
            { context in
                guard let context else { return 0 }
                return Unmanaged<ChangeTracker>.fromOpaque(context).takeUnretainedValue().willCommit()
            }, Unmanaged.passUnretained(self).toOpaque())
        sqlite3_rollback_hook(
            db,
            { context in
                guard let context else { return }
                Unmanaged<ChangeTracker>.fromOpaque(context).takeUnretainedValue().didRollBack()
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    // MARK: - Configuration

    /// Installs or removes the hooks that ``ObservationHub`` asks for; does nothing when they are in place.
    func configure(_ wanted: ObservationHub.Wanted) {
        guard wanted != configuration else { return }
        settle()
        let context = Unmanaged.passUnretained(self).toOpaque()
        if wanted.tracksChanges != configuration.tracksChanges {
            if wanted.tracksChanges {
                installAuthorizer()
                dataVersion = readDataVersion()
            } else {
                pending = PendingTables()
                pendingRegion = ObservedRegion()
                pendingSchemaChange = false
                commitRequested = false
                committedRegion = ObservedRegion()
                committedChanges = []
                dataVersion = nil
            }
        }
        if wanted.collectsRows != configuration.collectsRows {
            if wanted.collectsRows {
                sqlite3_update_hook(
                    db,
                    { context, operation, database, table, rowID in
                        guard let context, let table else { return }
                        Unmanaged<ChangeTracker>.fromOpaque(context).takeUnretainedValue()
                            .didChangeRow(operation: operation, database: database, table: table, rowID: rowID)
                    }, context)
                // Rows changed before the hook are unknown.
                if sqlite3_get_autocommit(db) == 0 || !pendingRegion.isEmpty { rowsAreIncomplete = true }
            } else {
                sqlite3_update_hook(db, nil, nil)
                pending = PendingTables()
            }
        }
        configuration = wanted
        isActive = wanted.tracksChanges || isRecording
    }

    // MARK: - Statements and what they read

    /// Reports a statement about to run: its reads join a recording, its writes the pending changes.
    @usableFromInline func willRun(_ raw: RawStatement) {
        settle()
        // BEGIN, COMMIT and the like: nothing to note, and a statement that names no table reads none after a
        // re-prepare either.
        if !isRecording, let shared = raw.region, shared.isInert { return }
        let reprepares = raw.reprepareCount
        if raw.region == nil || raw.regionAtReprepare != reprepares {
            raw.region = SharedStatementRegion(region(of: raw.sql))
            raw.regionAtReprepare = reprepares
        }
        guard let shared = raw.region else { return }
        if isRecording {
            let awaitsRows = shared.value.mayNarrowReads
            note(shared, deferringReads: awaitsRows)
            recordedStatements.append(raw)
            if awaitsRows { awaitingRows.append(raw) }
        } else if !shared.writesNothing {
            note(shared)
        }
    }

    /// Reports a statement after a step: one that SQLite re-prepared during it (after a schema change, a trigger
    /// created) may write other tables than its region said when the run began.
    ///
    /// A recorded statement that may read rows by rowid has its values bound now: what its run read is worked out.
    @usableFromInline func didStep(_ raw: RawStatement) {
        if awaitingRows.isEmpty, let shared = raw.region, shared.isInert { return }
        let awaited = awaitingRows.isEmpty ? nil : awaitingRows.firstIndex { $0 === raw }
        if let awaited { awaitingRows.remove(at: awaited) }
        let reprepares = raw.reprepareCount
        if raw.regionAtReprepare != reprepares {
            raw.region = SharedStatementRegion(region(of: raw.sql))
            raw.regionAtReprepare = reprepares
            if let shared = raw.region { note(shared, deferringReads: awaited != nil) }
        }
        // The run's values are bound, and its program is the one SQLite compiles for the schema now.
        if awaited != nil, let shared = raw.region {
            let reads = shared.value.reads
            recorded.formUnion(shared.value.mayNarrowReads ? narrowedReads(of: raw, reads) : reads)
        }
    }

    /// Reports a statement of a script about to run.
    func willRun(sql: String) {
        settle()
        note(SharedStatementRegion(region(of: sql, analyzingProgram: false)))
    }

    /// Reports a blob handle about to open: a read joins a recording; a write is a change that reaches no SQLite
    /// hook.
    func willOpenBlob(table: String, rowID: Int64, writable: Bool) {
        if isRecording { recorded.formUnion(ObservedRegion(tables: [table.sqlIdentifierKey])) }
        guard writable && configuration.tracksChanges else { return }
        settle()
        let key = table.sqlIdentifierKey
        pendingRegion.tables.insert(key)
        let position = pending.entry(key, name: table)
        pending[position].kinds.insert(.update)
        pending[position].rowIDs.insert(rowID)
    }

    /// Reports writes that no statement of the library makes (a changeset applied by SQLite's session code): the
    /// tables, and the kinds of change to each.
    func willWrite(tables: [(name: String, kinds: DatabaseChange.Kinds)]) {
        guard configuration.tracksChanges else { return }
        settle()
        for (name, kinds) in tables {
            let key = name.sqlIdentifierKey
            pendingRegion.tables.insert(key)
            guard configuration.collectsRows else { continue }
            let position = pending.entry(key, name: name)
            pending[position].kinds.formUnion(kinds)
            pending[position].rowsAreKnown = false  // the session code reaches no hook
        }
    }

    /// Adds a statement's reads to a recording (unless they are added after its first step, narrowed), and its
    /// writes to the transaction in progress.
    private func note(_ shared: SharedStatementRegion, deferringReads: Bool = false) {
        if isRecording && !deferringReads { recorded.formUnion(shared.value.reads) }
        guard configuration.tracksChanges, !shared.writesNothing else { return }
        if !shared.value.writeRegion.isEmpty { pendingRegion.formUnion(shared.value.writeRegion) }
        if shared.value.changesSchema { pendingSchemaChange = true }
        // VACUUM (never inside a transaction) commits without the commit hook, and may renumber rows.
        if shared.value.commitsWithoutHook { commitRequested = true }
        guard configuration.collectsRows else { return }
        for (key, write) in shared.value.writes {
            let position = pending.entry(key, name: write.name)
            pending[position].kinds.formUnion(write.kinds)
            if !shared.value.truncations.isEmpty && shared.value.truncations.contains(key) {
                pending[position].rowsAreKnown = false
            }
            if !shared.value.unreportedRows.isEmpty && shared.value.unreportedRows.contains(key) {
                pending[position].missesRows = true
            }
        }
    }

    /// Prepares `sql` once more with the authorizer collecting, to learn what it reads and writes; with
    /// `analyzingProgram`, its program too, for the rows it may read and the changes the update hook may miss
    /// (without it, as for scripts, which run once, every written table's rows count as unknown).
    private func region(of sql: String, analyzingProgram: Bool = true) -> StatementRegion {
        installAuthorizer()
        collecting = StatementRegion()
        defer { collecting = nil }
        var statement: OpaquePointer?
        // The length includes the NUL that withCString guarantees, which spares SQLite a copy of the text.
        let length = Int32(clamping: sql.utf8.count + 1)
        let code = sql.withCString { sqlite3_prepare_v2(db, $0, length, &statement, nil) }
        if let statement { sqlite3_finalize(statement) }
        guard code == SQLITE_OK, var region = collecting else { return .unknown }
        collecting = nil
        analyzeProgram(of: sql, into: &region, analyzingProgram: analyzingProgram)
        // A delete that reads none of its table's columns has no WHERE on them: maybe a truncation.
        region.truncations = region.truncations.filter { !region.reads.tables.contains($0) }
        region.writeRegion = ObservedRegion(tables: Set(region.writes.keys), isEverything: region.changesSchema)
        return region
    }

    /// Installs the authorizer once: installing one makes SQLite re-prepare every statement, so it stays.
    private func installAuthorizer() {
        guard !isAuthorizerInstalled else { return }
        isAuthorizerInstalled = true
        sqlite3_set_authorizer(
            db,
            { context, action, first, second, _, _ in
                guard let context else { return SQLITE_OK }
                Unmanaged<ChangeTracker>.fromOpaque(context).takeUnretainedValue()
                    .authorize(action: action, table: first)
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Collects one authorization request: `table` is the table for reads and writes.
    private func authorize(action: Int32, table: UnsafePointer<CChar>?) {
        guard collecting != nil else { return }
        let table = table.map { String(cString: $0) }
        switch action {
        case SQLITE_READ:
            if let table { collecting?.reads.tables.insert(table.sqlIdentifierKey) }
        case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE:
            guard let table, !table.sqlIdentifierKey.hasPrefix("sqlite_") else { return }
            let kind: DatabaseChange.Kinds =
                action == SQLITE_INSERT ? .insert : action == SQLITE_UPDATE ? .update : .delete
            let key = table.sqlIdentifierKey
            collecting?.writes[key, default: (table, [])].kinds.insert(kind)
            if action == SQLITE_DELETE { collecting?.truncations.insert(key) }
        case SQLITE_CREATE_INDEX...SQLITE_CREATE_VIEW, SQLITE_DROP_INDEX...SQLITE_DROP_VIEW, SQLITE_ALTER_TABLE,
            SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE:
            collecting?.changesSchema = true
        default:
            break
        }
    }

    /// Starts recording the tables the statements run from now on read.
    func startRecording() {
        isRecording = true
        recorded = ObservedRegion()
        isActive = true
    }

    /// Stops recording and returns what was read.
    func stopRecording() -> ObservedRegion {
        awaitingRows = []
        for raw in recordedStatements where raw.reprepareCount != raw.regionAtReprepare {
            raw.regionAtReprepare = raw.reprepareCount
            raw.region = SharedStatementRegion(region(of: raw.sql))
            if let shared = raw.region { recorded.formUnion(shared.value.reads) }
        }
        recordedStatements = []
        isRecording = false
        isActive = configuration.tracksChanges
        return recorded
    }

    // MARK: - Commits, here and elsewhere

    /// The commit hook: 0 lets the commit go on; 1, while a transaction body runs or when the database file was
    /// moved, turns it into a rollback.
    ///
    /// A connection keeps the file it opened after that file is unlinked, renamed or replaced at its path: a commit
    /// would then land in a file no other program finds, and an interplay of journals with the file now at the path
    /// can report a commit as failed after it was written. One `stat` of the path per commit (SQLite's
    /// `SQLITE_FCNTL_HAS_MOVED`) refuses it before anything is written.
    private func willCommit() -> Int32 {
        guard openTransactionBodies == 0 else {
            refusedCommitCount += 1
            return 1
        }
        if checksFileMoves && csqlite_database_has_moved(db) == 1 {
            errors.replace(.constraint, with: Self.movedError(while: "committing: the transaction was rolled back"))
            return 1
        }
        schemaEpoch &+= 1
        if configuration.tracksChanges { commitRequested = true }
        return 0
    }

    private func didRollBack() {
        rollbackCount += 1
        schemaEpoch &+= 1
        pending.removeAll()
        rowsAreIncomplete = false
        pendingRegion = ObservedRegion()
        pendingSchemaChange = false
        commitRequested = false
    }

    private func didChangeRow(
        operation: Int32, database: UnsafePointer<CChar>?, table: UnsafePointer<CChar>, rowID: Int64
    ) {
        let (name, key) = hookTable(table)
        let kind: DatabaseChange.Kinds =
            operation == SQLITE_INSERT ? .insert : operation == SQLITE_UPDATE ? .update : .delete
        // Regions name tables without their database: a row of a same-named table elsewhere is no row of `main`.
        let isMain = database.map { strcmp($0, "main") == 0 } ?? true
        // In place, so that the row set is not copied at each row.
        let position = pending.entry(key, name: name)
        pending[position].record(kind, rowID: rowID, isMain: isMain)
    }

    /// The name and key of the table the update hook names; see ``lastHookTable``.
    private func hookTable(_ table: UnsafePointer<CChar>) -> (name: String, key: String) {
        if let last = lastHookTable,
            last.bytes.withUnsafeBufferPointer({ bytes in bytes.baseAddress.map { strcmp($0, table) == 0 } ?? false })
        {
            return (last.name, last.key)
        }
        let name = String(cString: table)
        let key = name.sqlIdentifierKey
        lastHookTable = (Array(UnsafeBufferPointer(start: table, count: strlen(table) + 1)), name, key)
        return (name, key)
    }

    /// Moves the changes of a transaction that committed (the commit hook ran and the connection is back in
    /// autocommit mode) to the committed list. A commit that failed after its hook leaves the transaction open, and
    /// the changes pending.
    private func settle() {
        guard commitRequested else { return }
        commitRequested = false
        guard sqlite3_get_autocommit(db) != 0 else { return }
        guard !pendingRegion.isEmpty else {
            rowsAreIncomplete = false
            return
        }
        if configuration.reportsRows {
            let tables = pending.active.map { entry in
                DatabaseChange.TableChange(
                    table: entry.name, kinds: entry.kinds,
                    rowIDs: entry.rowsAreKnown && !entry.rowIDs.isEmpty ? entry.rowIDs : nil)
            }
            committedChanges.append(DatabaseChange(tables: tables, changesSchema: pendingSchemaChange))
        }
        if configuration.collectsRows && !rowsAreIncomplete {
            pendingRegion.rows = pending.committedRows(of: pendingRegion.tables)
        }
        pending.removeAll()
        rowsAreIncomplete = false
        committedRegion.formUnion(pendingRegion)
        pendingRegion = ObservedRegion()
        pendingSchemaChange = false
    }

    /// The tables changed by the transactions committed since the last call, and their changes (one per
    /// transaction, in commit order) when subscribers want them; `nil` when none committed.
    func takeCommitted() -> (region: ObservedRegion, changes: [DatabaseChange])? {
        settle()
        guard !committedRegion.isEmpty else { return nil }
        defer {
            committedRegion = ObservedRegion()
            if !committedChanges.isEmpty { committedChanges = [] }
        }
        return (committedRegion, committedChanges)
    }
}
