import SQLiteSwiftly

/// Reads the rows of a table or view once to find the columns whose stored values their Swift type cannot read.
///
/// The Swift types come from the declared types (``TypeMapping``), but SQLite lets most columns hold any value: a
/// `DATE` column may hold integers, an `INTEGER` column text. For each column whose type does not read every
/// value, one pass over the rows counts the values it would refuse; such a column is widened to ``SQLiteValue``
/// (which reads anything), with the reason in its comment. A primary key that is not declared `NOT NULL` and
/// holds NULL becomes optional. The rows can only widen a type, never narrow it: a column with no declared type
/// stays ``SQLiteValue`` even if every row holds an integer, because the schema allows any value.
struct StoredValueSurvey {
    let connection: Connection

    /// The most aggregates one query computes, well under SQLite's default limit of 2000 result columns.
    static let aggregatesPerQuery = 500

    /// Widens the columns of `schema` whose stored values do not fit their Swift type.
    ///
    /// - Parameter schema: The table or view; its columns' ``ColumnSchema/mapping`` and
    ///   ``ColumnSchema/holdsNull`` are updated.
    /// - Throws: ``SQLiteError`` when the rows cannot be read.
    func apply(to schema: inout TableSchema) throws {
        var aggregates: [(column: Int, isNullCount: Bool, sql: String)] = []
        for (index, column) in schema.columns.enumerated() {
            let quoted = column.name.quotedSQLName
            if let condition = column.mapping.unreadableCondition(column: quoted) {
                aggregates.append((index, false, "sum(\(condition))"))
            }
            if column.isPrimaryKey && !column.isNotNull {
                aggregates.append((index, true, "sum(\(quoted) IS NULL)"))
            }
        }
        var start = 0
        while start < aggregates.count {
            let chunk = aggregates[start..<min(start + Self.aggregatesPerQuery, aggregates.count)]
            let sql = "SELECT \(chunk.map(\.sql).joined(separator: ", ")) FROM \(schema.name.quotedSQLName)"
            guard let row = try connection.fetchOne(UntypedRow.self, SQL(verbatim: sql)) else { return }
            for (offset, aggregate) in chunk.enumerated() {
                guard case .integer(let count) = row[offset], count > 0 else { continue }
                if aggregate.isNullCount {
                    schema.columns[aggregate.column].holdsNull = true
                } else {
                    let mapping = schema.columns[aggregate.column].mapping
                    let rows = count == 1 ? "1 row holds a value" : "\(count) rows hold values"
                    schema.columns[aggregate.column].widening =
                        "\(rows) that \(mapping.swiftType) cannot read (not \(mapping.expectedStorage))"
                    schema.columns[aggregate.column].mapping = mapping.widened
                }
            }
            start += Self.aggregatesPerQuery
        }
    }
}
