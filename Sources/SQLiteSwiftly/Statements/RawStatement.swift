import CSQLiteSwiftly

/// The owner of one `sqlite3_stmt*`: finalized in `deinit`, never exposed.
///
/// Public statement types (``Statement``, ``InsertStatement``, ``Cursor``) wrap a raw statement together with a
/// strong reference to their ``Connection``. The connection's statement cache holds raw statements alone, so
/// that the cache does not keep its own connection alive.
///
/// A run always follows the same state machine: ``begin()`` resets a statement left mid-way, binding follows,
/// then ``step()`` until it reports the end, which resets the statement again. A failed step or bind resets the
/// statement and clears its bindings, so that the next run starts clean.
@usableFromInline
final class RawStatement {
    // The run-state properties below are read and written on every run; they are never accessed overlappingly
    // (a statement belongs to one connection owner), so the dynamic exclusivity checks that a class's stored
    // `var` gets by default (swift_beginAccess, about 30 instructions each) are turned off.
    @usableFromInline let handle: OpaquePointer
    @usableFromInline let sql: String
    @usableFromInline let parameterCount: Int32
    /// The connection's record of errors thrown by Swift functions, which a failed step reports.
    let functionErrors: FunctionErrors
    /// The connection's change tracker, told about each run while anything is observed.
    @usableFromInline let tracker: ChangeTracker
    /// The connection's column names of the last ``UntypedRow`` result, shared with later results named the same.
    let columnNameCache: ColumnNameCache
    /// The connection's interrupt handle: its flag is lowered when a run begins, and a step that returns a row
    /// while it is raised fails instead (a collation may have stopped comparing for the interrupt: see "Stopping"
    /// in DESIGN.md).
    @usableFromInline let interrupts: InterruptHandle
    /// What the statement reads and writes, worked out by the tracker at the first run it saw, and the re-prepare
    /// count then (a re-prepared statement may read other tables: a view was redefined).
    var region: SharedStatementRegion?
    var regionAtReprepare: Int32 = -1
    /// What the last recorded run read, by rowid (see ``ChangeTracker/narrowedReads(of:_:)``).
    var readRows: ReadRowsMemo?
    /// Whether the statement has stepped without reaching its end, and needs a reset before it runs again.
    @usableFromInline @exclusivity(unchecked) var isMidway = false
    /// Whether `sqlite3_step` is running now, possibly calling a Swift function that uses the connection.
    @usableFromInline @exclusivity(unchecked) var isStepping = false
    /// Whether a run of the statement is calling code that is not the library's: a value's `bind(to:)`, a model's
    /// `encode(to:)`, a row type's `init(row:)`. Set from ``begin()`` to the end of a run (around each decoding
    /// for a cursor, whose run stays open between rows); running the statement again from that code would reset
    /// it under the run, so ``begin()`` refuses while it is set.
    @usableFromInline @exclusivity(unchecked) var isCallingOut = false
    /// Bumped at each run, so a cursor notices that its statement was restarted under it.
    @usableFromInline @exclusivity(unchecked) var generation = 0
    /// The row type whose columns were last mapped, with the re-prepare count at that time.
    @usableFromInline @exclusivity(unchecked) var mappedRowType: ObjectIdentifier?
    @usableFromInline @exclusivity(unchecked) var mappedAtReprepare: Int32 = -1
    /// For each column of the mapped row type, its position in the result: the identity when they coincide, so
    /// that a read does not branch on whether there is a map. The identity is shared read-only memory
    /// (`csqlite_identity_columns`); another map is ``ownedColumnMap``.
    @usableFromInline @exclusivity(unchecked) var columnMap: UnsafePointer<Int32> = csqlite_identity_columns()
    /// The map this statement allocated, with room for ``ownedColumnMapCapacity`` entries; `nil` until a row
    /// type needs one.
    @exclusivity(unchecked) var ownedColumnMap: UnsafeMutablePointer<Int32>?
    @exclusivity(unchecked) var ownedColumnMapCapacity = 0
    /// The number of columns a ``Row`` of the mapped row type shows.
    @usableFromInline @exclusivity(unchecked) var visibleColumnCount: Int32 = 0
    /// The column maps of the joined row type last read (a tuple of models), made once per type and re-prepare;
    /// the value a model encoded for a column its parameter map marks as captured (a parent's key).
    @usableFromInline @exclusivity(unchecked) var joined = JoinedLayoutSlot()
    @usableFromInline @exclusivity(unchecked) var capturedValue: SQLiteValue?
    /// The mapped row type's table, when it is a ``TableModel``, for errors.
    @usableFromInline @exclusivity(unchecked) var table: String?
    /// For a model query, the re-prepare count at which the model was last verified against the schema.
    @usableFromInline @exclusivity(unchecked) var schemaVerifiedAt: Int32 = -1
    /// For a model write: the tracker's `schemaEpoch` when its model was last verified (see `ModelWrite.run`).
    @usableFromInline @exclusivity(unchecked) var verifiedEpoch = -1
    /// What the SQL's first keyword says: a schema statement (`CREATE`, `DROP`, `ALTER`) moves `schemaEpoch` at
    /// each run; a `COMMIT` is refused inside a transaction body.
    @usableFromInline let keyword: LeadingKeyword
    /// For a model write that binds only some columns (a DELETE by key), the parameter of each model column,
    /// 0 for the columns it skips; `nil` when column `n` binds parameter `n`.
    @usableFromInline @exclusivity(unchecked) var parameterMap: [Int32]?
    /// Where the text and blob values of the current run live, so that SQLite binds them without a copy.
    @usableFromInline @exclusivity(unchecked) var arena = BindingArena()
    /// The parameter a ``ParameterSlot`` bound last: checked after a type's own `bind(to:)`, which must bind.
    @usableFromInline @exclusivity(unchecked) var lastBoundParameter: Int32 = 0
    /// The state of ``CodableTableModel`` decodings, kept from row to row (see ``RowDecodingState``).
    @exclusivity(unchecked) var decodingState: RowDecodingState?
    /// The state of ``CodableTableModel`` encodings, kept from row to row (see ``RowEncodingState``).
    @exclusivity(unchecked) var encodingState: RowEncodingState?
    /// The statement cache's clock at the statement's last use, for least-recently-used eviction.
    @exclusivity(unchecked) var lastUse = 0
    /// The column names the ``UntypedRow``s of run `runColumnNamesGeneration` show, shared by every row of it.
    @exclusivity(unchecked) private var runColumnNames: [String] = []
    @exclusivity(unchecked) private var runColumnNamesGeneration = -1

    /// The column names of `row`, read at the run's first row and shared by the later ones: a run's columns
    /// cannot change after its first step (the only point where SQLite re-prepares a statement).
    func columnNames(of row: borrowing Row) -> [String] {
        if runColumnNamesGeneration != generation || runColumnNames.count != row.count {
            runColumnNames = columnNameCache.names(of: row)
            runColumnNamesGeneration = generation
        }
        return runColumnNames
    }

    init(
        handle: OpaquePointer, sql: String, functionErrors: FunctionErrors, tracker: ChangeTracker,
        columnNameCache: ColumnNameCache, interrupts: InterruptHandle
    ) {
        self.interrupts = interrupts
        self.handle = handle
        self.sql = sql
        self.functionErrors = functionErrors
        self.tracker = tracker
        self.columnNameCache = columnNameCache
        parameterCount = sqlite3_bind_parameter_count(handle)
        keyword = sql.leadingKeyword
    }

    deinit {
        sqlite3_finalize(handle)
        arena.deallocate()  // after finalizing: the statement's last bindings may point into it
        ownedColumnMap?.deallocate()
        decodingState?.release()  // their containers refer back to them
        encodingState?.release()
    }

    /// `SQLITE_TRANSIENT`: a C macro Swift cannot import. It tells SQLite to copy text and blobs at bind time.
    /// The library uses it for values larger than ``BindingArena/largestCopy``; smaller ones are copied to the
    /// statement's ``arena`` and bound `SQLITE_STATIC` (a `nil` destructor).
    @usableFromInline static var transient: sqlite3_destructor_type {
        unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    }

    /// How many times SQLite re-prepared the statement, which it does after any schema change.
    @inlinable var reprepareCount: Int32 {
        sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
    }

    /// The number of result columns now (a re-prepared `SELECT *` may have gained some).
    @usableFromInline var columnCount: Int32 {
        sqlite3_column_count(handle)
    }

    /// Starts a run: resets a statement left mid-way and invalidates cursors of earlier runs.
    ///
    /// A statement that is stepping now (a Swift function it calls runs it again) is refused: resetting it
    /// under SQLite's feet would free what the running step uses.
    @inlinable func begin() throws(SQLiteError) {
        if isStepping || isCallingOut { throw reentered() }
        if tracker.isActive { tracker.willRun(self) }
        if keyword != .other { try beginSpecial() }
        if isMidway {
            sqlite3_reset(handle)
            isMidway = false
        }
        // The last run's text and blobs are bound in place. Their memory is reused without unbinding them
        // first: SQLite reads a bound value only when the statement steps, and every run binds every parameter
        // before its first step (the count is checked, a type's own bind(to:) that binds nothing is refused,
        // and a run that fails while binding clears them all).
        if arena.isInUse { arena.reset() }
        // As SQLite forgets an interrupt that arrived before a statement starts; a cancelled access is not
        // forgotten, and only a ROLLBACK (which ends what the cancellation left) may still run in it.
        if interrupts.lower(), keyword != .rollback { throw cancelledBeforeStart() }
        generation &+= 1
    }

    /// The error of a statement that would have started in a cancelled ``SharedConnection`` access.
    @usableFromInline func cancelledBeforeStart() -> SQLiteError {
        SQLiteError(
            .sqlite, code: .interrupt, message: "interrupted: the task was cancelled before this statement started",
            sql: sql
        ).with(table: table)
    }

    /// The checks of a schema statement or a commit at the start of a run.
    @usableFromInline func beginSpecial() throws(SQLiteError) {
        switch keyword {
        case .schema: tracker.schemaEpoch &+= 1
        case .commit: if tracker.openTransactionBodies > 0 { throw ChangeTracker.commitInBody(sql: sql) }
        case .rollback, .other: break
        }
    }

    /// Steps once. Returns `true` for a row; at the end, resets and returns `false`.
    ///
    /// The statement counts as mid-way from the start of the step, so that a Swift function called by the step
    /// that runs the same SQL gets a statement of its own from the cache.
    @inlinable func step() throws(SQLiteError) -> Bool {
        if isStepping { throw reentered() }
        isStepping = true
        isMidway = true
        let code = sqlite3_step(handle)
        isStepping = false
        if tracker.isActive { tracker.didStep(self) }
        if code == SQLITE_ROW {
            if interrupts.isRaised { throw interruptedAtRow() }
            return true
        }
        if code == SQLITE_DONE {
            sqlite3_reset(handle)
            isMidway = false
            return false
        }
        throw failure(code)
    }

    /// The error of a step that returned a row after an interrupt, whose row may have been computed without the
    /// Swift code that the interrupt stopped; the statement is reset.
    @usableFromInline func interruptedAtRow() -> SQLiteError {
        abandon()
        return SQLiteError(.sqlite, code: .interrupt, message: "interrupted", sql: sql).with(table: table)
    }

    @usableFromInline func reentered() -> SQLiteError {
        SQLiteError(
            .misuse,
            message:
                "the statement is running: a function it calls, or code it calls while it binds or decodes, cannot "
                + "run it again",
            sql: sql)
    }

    /// Turns a failed step or bind into an error, and leaves the statement reset with no bindings.
    @usableFromInline func failure(_ code: Int32) -> SQLiteError {
        let error = functionErrors.resolve(SQLiteError(code: code, statement: handle)).with(table: table)
        abandon()
        return error
    }

    /// Resets a statement whose run stopped before its end because the caller has what it wanted (the first
    /// row), so that it holds no read transaction open. Its bindings stay: the next run replaces them all.
    @inlinable func stopEarly() {
        guard !isStepping else { return }  // the running step owns it; it resets itself when it ends
        sqlite3_reset(handle)
        isMidway = false
    }

    /// Resets the statement and clears its bindings, after a failure or an abandoned run.
    @usableFromInline func abandon() {
        guard !isStepping else { return }  // the running step owns it; it resets itself when it ends
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        arena.reset()
        isMidway = false
    }

    /// The result column names, as SQLite reports them now.
    ///
    /// SQLite returns NULL for a name it could not allocate; that name is empty here, never a crash (a model
    /// then fails to find its column with a typed error).
    var columnNames: [String] {
        (0..<columnCount).map { sqlite3_column_name(handle, $0).map { String(cString: $0) } ?? "" }
    }

    /// The parameter names, `nil` for anonymous `?` parameters; index 0 is parameter 1.
    var parameterNames: [String?] {
        (0..<parameterCount).map { index in sqlite3_bind_parameter_name(handle, index + 1).map { String(cString: $0) } }
    }

    /// Whether the statement only reads (a SELECT, most PRAGMAs).
    var isReadOnly: Bool {
        sqlite3_stmt_readonly(handle) != 0
    }
}

// MARK: - Mapping a row type's columns

extension RawStatement {
    /// Works out where the row type's columns are in the result, once per row type and re-prepare.
    ///
    /// A statement is re-prepared only inside a step, and the row loop compares the re-prepare count after the
    /// first step of every run, before any row is read (``Connection/afterFirstStep(_:_:checkingSchema:)``); so
    /// before the run starts, a map made for this row type is either current or about to be redone there.
    @inlinable func mapColumns<Decoded: RowDecodable>(for type: Decoded.Type) throws(SQLiteError) {
        if mappedRowType == ObjectIdentifier(type) { return }
        try map(type, reprepares: reprepareCount)
    }

    /// After a run's first step: maps the row type's columns again if the step re-prepared the statement.
    @inlinable func remapIfReprepared<Decoded: RowDecodable>(for type: Decoded.Type, reprepares: Int32)
        throws(SQLiteError)
    {
        if mappedRowType == ObjectIdentifier(type) && mappedAtReprepare == reprepares { return }
        try map(type, reprepares: reprepares)
    }

    @inlinable func map<Decoded: RowDecodable>(_ type: Decoded.Type, reprepares: Int32) throws(SQLiteError) {
        let expected = Decoded.expectedColumnNames
        // Only a type with column names can be a model: a one-off UntypedRow query skips the conformance check.
        table = expected == nil ? nil : (type as? any TableModel.Type)?.tableName
        do {
            try remapColumns(expected: expected, typeName: type)
        } catch {
            abandon()
            throw error.with(table: table)
        }
        mappedRowType = ObjectIdentifier(type)
        mappedAtReprepare = reprepares
    }

    /// Finds each expected name among the result columns (ignoring ASCII case). When the first columns are the
    /// expected ones in order, the map is the identity; otherwise each name must appear exactly once.
    @usableFromInline func remapColumns(expected: [String]?, typeName type: Any.Type) throws(SQLiteError) {
        mappedRowType = nil
        visibleColumnCount = 0
        guard let expected else {
            // No names needed: a one-off query maps once, so this is per run.
            mapIdentically(count: Int(columnCount))
            return
        }
        let actual = columnNames
        let actualKeys = actual.map(\.sqlIdentifierKey)
        let expectedKeys = expected.map(\.sqlIdentifierKey)
        if actualKeys.starts(with: expectedKeys) {
            mapIdentically(count: expected.count)
            return
        }
        var positions: [Int32] = []
        for (name, key) in zip(expected, expectedKeys) {
            let matches = actualKeys.indices.filter { actualKeys[$0] == key }
            guard matches.count == 1 else {
                var error = SQLiteError(
                    .modelMismatch,
                    message: matches.isEmpty
                        ? "\(type) needs column \"\(name)\", which the statement does not return (it returns "
                            + "\(actual.joined(separator: ", ")))"
                        : "\(type) needs column \"\(name)\", which the statement returns \(matches.count) times; "
                            + "select it once, or give the others an alias",
                    sql: sql)
                error.column = name
                throw error
            }
            positions.append(Int32(matches[0]))
        }
        useOwnedColumnMap(positions)
    }

    /// Maps each of the row type's `count` columns to the result column at the same position.
    func mapIdentically(count: Int) {
        guard count <= Int(CSQLITE_IDENTITY_COLUMNS) else {
            // Past SQLite's default column limit (a build with a higher one): a map of its own.
            return useOwnedColumnMap((0..<count).map { Int32(truncatingIfNeeded: $0) })
        }
        columnMap = csqlite_identity_columns()
        visibleColumnCount = Int32(truncatingIfNeeded: count)
    }

    /// Copies `positions` into the statement's own map, made or regrown to fit (a re-prepared `SELECT *` may
    /// have gained columns), and reads through it.
    func useOwnedColumnMap(_ positions: [Int32]) {
        let map: UnsafeMutablePointer<Int32>
        if let owned = ownedColumnMap, positions.count <= ownedColumnMapCapacity {
            map = owned
        } else {
            ownedColumnMap?.deallocate()
            map = .allocate(capacity: max(positions.count, 1))
            ownedColumnMap = map
            ownedColumnMapCapacity = max(positions.count, 1)
        }
        map.update(from: positions, count: positions.count)
        columnMap = UnsafePointer(map)
        visibleColumnCount = Int32(truncatingIfNeeded: positions.count)
    }
}

// MARK: - Binding arguments

extension RawStatement {
    /// Binds arguments after checking them against the parameters: count, and names for named arguments.
    @usableFromInline func bind(_ arguments: StatementArguments) throws(SQLiteError) {
        do throws(SQLiteError) {
            switch arguments.storage {
            case .empty:
                guard parameterCount == 0 else { throw countMismatch(arguments: 0) }
            case .positional(let values):
                guard values.count == Int(parameterCount) else { throw countMismatch(arguments: values.count) }
                for (offset, argument) in values.enumerated() {
                    try bind(argument, at: Int32(offset + 1))
                }
            case .named(let values):
                try bindNamed(values)
            }
        } catch {
            abandon()
            throw error
        }
    }

    /// Binds one value per parameter, in order, after checking the count; for the typed argument lists of
    /// ``Statement/fetchOne(_:binding:_:)`` and friends. The values are bound in place: no argument array is built.
    @inlinable func bind<each Value: SQLiteValueConvertible>(_ values: repeat each Value) throws(SQLiteError) {
        var count: Int32 = 0
        for _ in repeat (each Value).self { count += 1 }
        guard count == parameterCount else { throw countMismatch(arguments: Int(count)) }
        var index: Int32 = 0
        do throws(SQLiteError) {
            for value in repeat each values {
                index += 1
                try ParameterSlot(raw: self, index: index).bindValue(value)
            }
        } catch {
            abandon()
            throw error.with(sql: sql)
        }
    }

    @usableFromInline func countMismatch(arguments: Int) -> SQLiteError {
        let message = "the SQL has \(parameterCount) parameters but \(arguments) arguments were given"
        return SQLiteError(.parameterMismatch, message: message, sql: sql)
    }

    private func bindNamed(_ values: [String: StatementArguments.Argument]) throws(SQLiteError) {
        var used = Set<String>()
        for (offset, name) in parameterNames.enumerated() {
            let index = Int32(offset + 1)
            guard let name, let prefix = name.first, prefix != "?" else {
                var error = SQLiteError(
                    .parameterMismatch,
                    message: "parameter \(index) is positional (?) but the arguments are named: name every "
                        + "parameter (:name, @name or $name), or pass the arguments as an array", sql: sql)
                error.parameter = name ?? "?\(index)"
                throw error
            }
            let bare = String(name.dropFirst())
            let key = values[name] != nil ? name : bare
            guard let argument = values[key] else {
                var error = SQLiteError(.parameterMismatch, message: "no argument for parameter \(name)", sql: sql)
                error.parameter = name
                throw error
            }
            used.insert(key)
            try bind(argument, at: index)
        }
        if let extra = values.keys.filter({ !used.contains($0) }).sorted().first {
            var error = SQLiteError(
                .parameterMismatch, message: "argument \"\(extra)\" matches no parameter of the SQL", sql: sql)
            error.parameter = extra
            throw error
        }
    }

    func bind(_ argument: StatementArguments.Argument, at index: Int32) throws(SQLiteError) {
        let slot = ParameterSlot(raw: self, index: index)
        switch argument {
        case .value(let value):
            try slot.bind(value)
        case .invalid(let error):
            throw error.with(sql: sql, parameter: slot.parameterName)
        }
    }
}
