import CSQLite

// The run loops shared by every statement type. They are @inlinable so that a model's decoder is specialized
// into the caller's loop; the slow paths (errors) are not.

extension Connection {
    /// Resets, verifies, binds and steps `raw`, decoding up to `limit` rows.
    @inlinable func readRows<Decoded: RowDecodable>(
        _ raw: RawStatement, arguments: StatementArguments, as type: Decoded.Type, limit: Int, table: String?
    ) throws -> [Decoded] {
        raw.begin()
        try raw.verify(type)
        if raw.parameterCount > 0 || !arguments.isEmpty { try raw.bind(arguments) }
        return try collect(raw, as: type, limit: limit, table: table)
    }

    /// Steps an already bound statement, decoding up to `limit` rows.
    @inlinable func collect<Decoded: RowDecodable>(
        _ raw: RawStatement, as type: Decoded.Type, limit: Int, table: String?
    ) throws -> [Decoded] {
        var rows: [Decoded] = []
        var number = 0
        while try raw.step() {
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
        }
        return rows
    }

    /// Runs a statement to its end and returns the number of changed rows.
    func execute(_ raw: RawStatement, arguments: StatementArguments) throws(SQLiteError) -> Int {
        raw.begin()
        if raw.parameterCount > 0 || !arguments.isEmpty { try raw.bind(arguments) }
        while try raw.step() {}
        return raw.isReadOnly ? 0 : Int(sqlite3_changes64(handle))
    }

    /// Adds the table name to a conversion error thrown while decoding.
    @usableFromInline static func locate(_ error: any Error, table: String?) -> any Error {
        guard let error = error as? SQLiteError else { return error }
        return error.with(table: table)
    }
}
