import CSQLiteSwiftly

// The run loops shared by every statement type. They are @inlinable so that a model's decoder is specialized
// into the caller's loop; the slow paths (errors) are not.

extension Connection {
    /// Resets, verifies, binds and steps `raw`, decoding up to `limit` rows.
    @inlinable func readRows<Decoded: RowDecodable>(
        _ raw: RawStatement, arguments: StatementArguments, as type: Decoded.Type, limit: Int, table: String?
    ) throws -> [Decoded] {
        try readRows(raw, as: type, limit: limit, table: table) { raw throws(SQLiteError) in
            if raw.parameterCount > 0 || !arguments.isEmpty { try raw.bind(arguments) }
        }
    }

    /// Resets and verifies `raw`, lets `bind` bind its parameters, and steps it, decoding up to `limit` rows.
    @inlinable func readRows<Decoded: RowDecodable>(
        _ raw: RawStatement, as type: Decoded.Type, limit: Int, table: String?,
        binding bind: (RawStatement) throws(SQLiteError) -> Void
    ) throws -> [Decoded] {
        raw.begin()
        try raw.verify(type)
        try bind(raw)
        return try collect(raw, as: type, limit: limit, table: table)
    }

    /// Resets, verifies, binds and steps `raw`, decoding its first row only; the statement is reset after it.
    ///
    /// The same as `readRows(...limit: 1).first`, without allocating an array.
    @inlinable func readFirst<Decoded: RowDecodable>(
        _ raw: RawStatement, arguments: StatementArguments, as type: Decoded.Type, table: String?
    ) throws -> Decoded? {
        try readFirst(raw, as: type, table: table) { raw throws(SQLiteError) in
            if raw.parameterCount > 0 || !arguments.isEmpty { try raw.bind(arguments) }
        }
    }

    /// Resets and verifies `raw`, lets `bind` bind its parameters, and decodes its first row only; the statement
    /// is reset after it.
    @inlinable func readFirst<Decoded: RowDecodable>(
        _ raw: RawStatement, as type: Decoded.Type, table: String?,
        binding bind: (RawStatement) throws(SQLiteError) -> Void
    ) throws -> Decoded? {
        raw.begin()
        try raw.verify(type)
        try bind(raw)
        guard try raw.step() else { return nil }
        return try decodeFirst(raw, as: type, table: table)
    }

    /// Reads a model query's rows, as ``readRows(_:arguments:as:limit:table:)`` does; in addition the model is
    /// checked against the schema the statement runs with, before the first row is decoded.
    @inlinable func readModels<Model: TableModel>(
        _ raw: RawStatement, arguments: StatementArguments, as type: Model.Type, limit: Int
    ) throws -> [Model] {
        raw.begin()
        try raw.verify(type)
        if raw.parameterCount > 0 || !arguments.isEmpty { try raw.bind(arguments) }
        guard try firstModelStep(raw, type) else { return [] }
        return try collect(raw, as: type, limit: limit, table: Model.tableName, onRow: true)
    }

    /// Reads the first row of a model query, as ``readFirst(_:arguments:as:table:)`` does, with the schema check
    /// of ``readModels(_:arguments:as:limit:)``.
    @inlinable func readFirstModel<Model: TableModel>(
        _ raw: RawStatement, arguments: StatementArguments, as type: Model.Type
    ) throws -> Model? {
        raw.begin()
        try raw.verify(type)
        if raw.parameterCount > 0 || !arguments.isEmpty { try raw.bind(arguments) }
        guard try firstModelStep(raw, type) else { return nil }
        return try decodeFirst(raw, as: type, table: Model.tableName)
    }

    /// Steps a model query once, then makes sure the model was verified against the schema the statement was
    /// (re-)prepared with. SQLite re-prepares a statement on its first step after any schema change, so
    /// comparing re-prepare counts here replaces a `PRAGMA schema_version` query per run.
    @inlinable func firstModelStep<Model: TableModel>(_ raw: RawStatement, _ type: Model.Type) throws(SQLiteError)
        -> Bool
    {
        let hasRow: Bool
        do {
            hasRow = try raw.step()
        } catch {
            // A step that fails after a schema change (a dropped table) reports the schema difference first.
            try reverifyModel(raw, type)
            throw error
        }
        if raw.schemaVerifiedAt != raw.reprepareCount { try reverifyModel(raw, type) }
        return hasRow
    }

    /// Verifies a model for a model query's statement, and records the re-prepare count it was verified at.
    @usableFromInline func reverifyModel<Model: TableModel>(_ raw: RawStatement, _ type: Model.Type)
        throws(SQLiteError)
    {
        do {
            try verifyOnce(type)
        } catch {
            raw.abandon()
            throw error
        }
        raw.schemaVerifiedAt = raw.reprepareCount
    }

    /// Decodes the current row as row 1, then resets the statement.
    @inlinable func decodeFirst<Decoded: RowDecodable>(_ raw: RawStatement, as type: Decoded.Type, table: String?)
        throws -> Decoded
    {
        defer { raw.abandon() }
        do {
            return try Decoded(row: raw.row(number: 1))
        } catch {
            throw Self.locate(error, table: table)
        }
    }

    /// Steps an already bound statement, decoding up to `limit` rows. With `onRow`, the statement has already
    /// stepped onto its first row.
    @inlinable func collect<Decoded: RowDecodable>(
        _ raw: RawStatement, as type: Decoded.Type, limit: Int, table: String?, onRow: Bool = false
    ) throws -> [Decoded] {
        var rows: [Decoded] = []
        var number = 0
        var hasRow = try onRow || raw.step()
        while hasRow {
            number += 1
            do {
                rows.append(try Decoded(row: raw.row(number: number)))
            } catch {
                raw.abandon()
                throw Self.locate(error, table: table)
            }
            if number == limit {
                raw.abandon()
                break
            }
            hasRow = try raw.step()
        }
        return rows
    }

    /// Runs a statement to its end and returns the number of changed rows.
    func execute(_ raw: RawStatement, arguments: StatementArguments) throws(SQLiteError) -> Int {
        raw.begin()
        if raw.parameterCount > 0 || !arguments.isEmpty { try raw.bind(arguments) }
        // sqlite3_changes64 keeps the count of the last INSERT, UPDATE or DELETE: other statements (CREATE,
        // PRAGMA, BEGIN...) leave it stale. The total count moves only when this statement changed rows.
        let before = sqlite3_total_changes64(handle)
        while try raw.step() {}
        return raw.isReadOnly || sqlite3_total_changes64(handle) == before ? 0 : Int(sqlite3_changes64(handle))
    }

    /// Adds the table name to a conversion error thrown while decoding.
    @usableFromInline static func locate(_ error: any Error, table: String?) -> any Error {
        guard let error = error as? SQLiteError else { return error }
        return error.with(table: table)
    }
}
