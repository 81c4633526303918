// The one row loop. Every read of rows (Connection, Statement, table reads, the library's own queries) runs
// through `forEachRow`; cursors step the same way, one row per call. It is @inlinable so that a row type's
// decoder is specialized into the caller's loop; the slow paths (errors) are not.

extension Connection {
    /// Runs `raw` and calls `body` with each row, up to `limit` rows.
    ///
    /// The statement is reset, the row type's columns are mapped (once per row type and re-prepare, so a
    /// mismatch fails before anything runs), and `bind` binds the parameters. SQLite re-prepares a statement on
    /// its first step after a schema change, so the columns are mapped again after that step if it did, and a
    /// model is verified against the schema when `checkingSchema` is set. A failure anywhere leaves the
    /// statement reset and ready for its next run.
    ///
    /// The loop throws `Failure`, the error type of `body`; `lift` turns the loop's own SQLite errors into it.
    /// The library's typed reads pass a body that throws `SQLiteError`; reads that decode with a user's
    /// ``RowDecodable/init(row:)`` throw `any Error`.
    @inlinable @inline(__always) func forEachRow<Decoded: RowDecodable, Failure: Error>(
        _ raw: RawStatement, as type: Decoded.Type, limit: Int = .max, checkingSchema: Bool = false,
        binding bind: (RawStatement) throws(SQLiteError) -> Void,
        lift: (SQLiteError) -> Failure,
        _ body: (borrowing Row) throws(Failure) -> Void
    ) throws(Failure) {
        do {
            try raw.begin()
        } catch {
            throw lift(error)
        }
        // Set for the whole run rather than around each call out (a value's `bind(to:)`, a row's `init(row:)`): a
        // run of the same statement from there starts with `begin()`, which refuses while it is set.
        raw.isCallingOut = true
        defer { raw.isCallingOut = false }
        do {
            try raw.mapColumns(for: type)
            try bind(raw)
        } catch {
            throw lift(error)
        }
        var number = 0
        while number < limit {
            let hasRow: Bool
            do {
                hasRow = try raw.step()
                if number == 0 { try afterFirstStep(raw, type, checkingSchema: checkingSchema) }
            } catch {
                // A step that fails after a schema change (a dropped table) reports the schema difference first.
                if checkingSchema, let mismatch = schemaMismatch(raw, type) { throw lift(mismatch) }
                throw lift(error)
            }
            guard hasRow else { return }
            number += 1
            do {
                try body(Row(raw: raw, number: number))
            } catch {
                raw.abandon()
                throw error
            }
        }
        raw.stopEarly()
    }

    /// Maps the row type's columns again if the first step re-prepared the statement and, for a model query,
    /// verifies the model against the schema the statement now runs with. Comparing re-prepare counts here
    /// replaces a `PRAGMA schema_version` query per run.
    @inlinable func afterFirstStep<Decoded: RowDecodable>(
        _ raw: RawStatement, _ type: Decoded.Type, checkingSchema: Bool
    ) throws(SQLiteError) {
        let reprepares = raw.reprepareCount
        try raw.remapIfReprepared(for: type, reprepares: reprepares)
        if checkingSchema && raw.schemaVerifiedAt != reprepares {
            if let mismatch = schemaMismatch(raw, type) {
                raw.abandon()
                throw mismatch
            }
            raw.schemaVerifiedAt = reprepares
        }
    }

    /// The schema error of a model query whose model no longer matches its table, if any.
    @usableFromInline func schemaMismatch<Decoded: RowDecodable>(_ raw: RawStatement, _ type: Decoded.Type)
        -> SQLiteError?
    {
        guard let model = type as? any TableModel.Type else { return nil }
        do {
            try verifyOnce(model)
            return nil
        } catch {
            return error.with(sql: raw.sql)
        }
    }

    /// Reads every row (or up to `limit`) as `Decoded`.
    @inlinable func readRows<Decoded: RowDecodable>(
        _ raw: RawStatement, as type: Decoded.Type, limit: Int = .max, checkingSchema: Bool = false,
        binding bind: (RawStatement) throws(SQLiteError) -> Void
    ) throws -> [Decoded] {
        var rows: [Decoded] = []
        try forEachRow(raw, as: type, limit: limit, checkingSchema: checkingSchema, binding: bind, lift: { $0 }) {
            row in rows.append(try Decoded(row: row))
        }
        return rows
    }

    /// Reads the first row as `Decoded`, without building an array; the statement is reset after it.
    @inlinable @inline(__always) func readFirst<Decoded: RowDecodable>(
        _ raw: RawStatement, as type: Decoded.Type, checkingSchema: Bool = false,
        binding bind: (RawStatement) throws(SQLiteError) -> Void
    ) throws -> Decoded? {
        var first: Decoded?
        try forEachRow(raw, as: type, limit: 1, checkingSchema: checkingSchema, binding: bind, lift: { $0 }) {
            row in first = try Decoded(row: row)
        }
        return first
    }

    /// Reads the first column of the first row as `Value`; `nil` when there is no row.
    @inlinable func readValue<Value: SQLiteValueConvertible>(
        _ raw: RawStatement, as type: Value.Type, binding bind: (RawStatement) throws(SQLiteError) -> Void
    ) throws(SQLiteError) -> Value? {
        guard raw.columnCount > 0 else {
            throw SQLiteError(
                .modelMismatch, message: "the statement returns no column to read a value from", sql: raw.sql)
        }
        var value: Value?
        try forEachRow(raw, as: UntypedRow.self, limit: 1, binding: bind, lift: { $0 }) {
            (row: borrowing Row) throws(SQLiteError) in value = try row.value(at: 0, as: Value.self)
        }
        return value
    }

    /// Runs a statement to its end and returns the number of changed rows.
    @usableFromInline func execute(_ raw: RawStatement, binding bind: (RawStatement) throws(SQLiteError) -> Void)
        throws(SQLiteError)
        -> Int
    {
        // sqlite3_changes64 keeps the count of the last INSERT, UPDATE or DELETE: other statements (CREATE,
        // PRAGMA, BEGIN...) leave it stale. The total count moves only when this statement changed rows.
        let before = totalChanges
        // The row loop without its column mapping: rows a statement run for its effect returns (an INSERT ...
        // RETURNING, a PRAGMA) are stepped over, never read. A failed bind or step leaves the statement reset.
        try raw.begin()
        raw.isCallingOut = true  // while a value's `bind(to:)` runs
        defer { raw.isCallingOut = false }
        try bind(raw)
        while try raw.step() {}
        return raw.isReadOnly || totalChanges == before ? 0 : changes
    }
}

extension RawStatement {
    /// Binds `arguments`, or checks that a statement without parameters gets none.
    @inlinable func bindIfNeeded(_ arguments: StatementArguments) throws(SQLiteError) {
        if parameterCount > 0 || !arguments.isEmpty { try bind(arguments) }
    }
}
