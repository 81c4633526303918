#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A `Codable` struct used as a table model: ``RowDecodable/init(row:)`` and ``TableModel/encode(to:)`` come
/// from its `Decodable` and `Encodable` conformances.
///
/// Declare the table name and the columns; the synthesized `Codable` code does the rest:
///
/// ```swift
/// struct Moon: CodableTableModel {
///     var id: Int64?
///     var name: String
///     var discovered: Date?
///     var tags: [String]            // not a column type: stored as JSON text
///
///     static let tableName = "moons"
///     static let columns = [
///         Column("id", Int64?.self, primaryKey: true),
///         Column("name", String.self),
///         Column("discovered", Date?.self),
///         Column("tags", .text),
///     ]
/// }
/// ```
///
/// Each coding key is matched with the column of the same name (exactly, else ignoring ASCII case); rename
/// with `CodingKeys` as usual. Declare ``TableModel/columns`` with `static let`: it is read once per row.
///
/// - Values of ``SQLiteValueConvertible`` types are read and bound directly, as in a hand-written model
///   (`Date` as TEXT, `UUID` as a BLOB, `Data` as a BLOB, not as `Codable` would encode them).
/// - Other values that encode as a single value (an enum with a `String` raw value that does not conform to
///   ``SQLiteValueConvertible``) are stored as that value.
/// - Values that encode as several values (arrays, dictionaries, nested structs) are stored as JSON TEXT
///   (sorted keys), and read back from JSON.
/// - A column that the model does not encode (a `nil` optional, which synthesized code skips) is bound to
///   NULL; a missing non-nullable column is an error.
///
/// Speed: the first row records which column each key reads, in the order `init(from:)` asks; later rows of the
/// same statement follow that plan (one comparison per value) and reuse the decoder's container, so a
/// row decodes without hashing or allocating a decoder.
public protocol CodableTableModel: TableModel, Codable {}

extension CodableTableModel {
    /// Decodes the model from the current row through its `Decodable` conformance.
    ///
    /// - Parameter row: The current result row, whose columns are the model's ``TableModel/columns``.
    /// - Throws: ``SQLiteError`` naming the column and row when a value does not convert; errors thrown by a
    ///   custom `init(from:)`.
    public init(row: borrowing Row) throws {
        let state = RowDecodingState.begin(Self.self, row: row)
        defer { state.end() }
        do {
            try self.init(from: ModelDecoder(state: state))
        } catch {
            state.lookup.forgetUnfinishedPlan()
            throw error
        }
        // Once, at the row that recorded the plan: keys differing only in case would read one column twice.
        if state.lookup.isRecording, let shared = state.lookup.keysSharingColumn() {
            state.lookup.forgetUnfinishedPlan()
            var error = SQLiteError(
                .modelMismatch,
                message: "\(Self.self) decodes keys \"\(shared.first)\" and \"\(shared.second)\" from one column, "
                    + "\"\(shared.column)\": two properties cannot share a column")
            error.column = shared.column
            error.table = Self.tableName
            throw error
        }
    }

    /// Binds the model's values through its `Encodable` conformance, each to its column's parameter.
    ///
    /// - Parameter encoder: The encoder of the statement being run.
    /// - Throws: ``SQLiteError`` when a value cannot be stored, when the model encodes a key that is not a
    ///   column, or leaves a non-nullable column unencoded; errors thrown by a custom `encode(to:)`.
    public func encode(to encoder: inout RowEncoder) throws {
        try encoder.encodeByName(self)
    }
}
