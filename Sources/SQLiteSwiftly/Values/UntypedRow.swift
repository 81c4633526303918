/// A result row as plain values, for queries that do not map to a model.
///
/// ```swift
/// for row in try db.fetchAll(UntypedRow.self, "SELECT name, moons FROM planets") {
///     print(row["name"] ?? .null, row[1])
///     let moons = try row["moons", as: Int?.self]  // typed: throws naming the column
/// }
/// ```
public struct UntypedRow: RowDecodable, Hashable, Sendable {
    /// The column names, in order.
    public let columnNames: [String]
    /// The values, in column order.
    public let values: [SQLiteValue]

    /// Creates a row from names and values, one value per name.
    ///
    /// - Parameters:
    ///   - columnNames: The column names, in order.
    ///   - values: The values, in the same order.
    /// - Throws: ``SQLiteError/Kind/misuse`` when the counts differ.
    public init(columnNames: [String], values: [SQLiteValue]) throws(SQLiteError) {
        guard columnNames.count == values.count else {
            throw SQLiteError(
                .misuse,
                message: "an UntypedRow needs one value per column: \(columnNames.count) names, \(values.count) values")
        }
        self.columnNames = columnNames
        self.values = values
    }

    /// Reads every column of the current row.
    ///
    /// - Parameter row: The current result row.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for TEXT that is not valid UTF-8 (read such a column as
    ///   `[UInt8]` with a row type of your own), naming the column and row.
    public init(row: borrowing Row) throws(SQLiteError) {
        var values: [SQLiteValue] = []
        values.reserveCapacity(row.count)
        for index in 0..<row.count {
            values.append(try row.sqliteValue(at: index))
        }
        // One array of names for all the rows of a run, read at its first row.
        columnNames = row.raw.columnNames(of: row)
        self.values = values
    }

    /// The value at a 0-based column index, or `nil` when the index is out of range.
    ///
    /// - Parameter index: The column index.
    public subscript(_ index: Int) -> SQLiteValue? {
        // Not a ternary: `SQLiteValue` is nil-literal expressible, so `: nil` there would give `.null`.
        guard values.indices.contains(index) else { return nil }
        return values[index]
    }

    /// The value of the column named `name` (ASCII case-insensitive), or `nil` if no column has that name, or
    /// more than one has (`SELECT a.id, b.id ...`: read those by index).
    ///
    /// - Parameter name: The column name.
    public subscript(_ name: String) -> SQLiteValue? {
        let key = name.sqlIdentifierKey
        let matches = columnNames.indices.filter { columnNames[$0].sqlIdentifierKey == key }
        guard matches.count == 1 else { return nil }  // not a ternary: see the subscript by index
        return values[matches[0]]
    }

    /// The value at a 0-based column index, converted to `Value`.
    ///
    /// The conversion follows the library's rules: nothing converts silently (NULL into a non-optional, TEXT or
    /// REAL into an integer, an integer out of the type's range all throw).
    ///
    /// - Parameters:
    ///   - index: The column index.
    ///   - type: The type to read.
    /// - Returns: The converted value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` naming the column when the value does not convert, or when
    ///   `index` is out of range.
    public subscript<Value: SQLiteValueConvertible>(_ index: Int, as type: Value.Type) -> Value {
        get throws(SQLiteError) {
            guard values.indices.contains(index) else {
                throw SQLiteError.conversion(
                    "column index \(index) is out of range: the row has \(values.count) columns")
            }
            return try convert(values[index], column: columnNames[index])
        }
    }

    /// The value of the column named `name` (ASCII case-insensitive), converted to `Value`.
    ///
    /// ```swift
    /// let moons = try row["moons", as: Int?.self]
    /// ```
    ///
    /// - Parameters:
    ///   - name: The column name.
    ///   - type: The type to read.
    /// - Returns: The converted value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` naming the column when no column has that name, when more
    ///   than one has it (read those by index), or when the value does not convert.
    public subscript<Value: SQLiteValueConvertible>(_ name: String, as type: Value.Type) -> Value {
        get throws(SQLiteError) {
            let key = name.sqlIdentifierKey
            let matches = columnNames.indices.filter { columnNames[$0].sqlIdentifierKey == key }
            guard matches.count == 1 else {
                let names = columnNames.joined(separator: ", ")
                var error = SQLiteError.conversion(
                    matches.isEmpty
                        ? "the row has no column named \"\(name)\" (it has \(names))"
                        : "the row has \(matches.count) columns named \"\(name)\"; read them by index")
                error.column = name
                throw error
            }
            return try convert(values[matches[0]], column: columnNames[matches[0]])
        }
    }

    private func convert<Value: SQLiteValueConvertible>(_ value: SQLiteValue, column: String) throws(SQLiteError)
        -> Value
    {
        do throws(SQLiteError) {
            if value == .null && !Value.isNullable {
                throw SQLiteError.conversion("expected \(Value.declaredType.affinity), found NULL")
            }
            return try Value(sqliteValue: value)
        } catch {
            throw error.with(column: column)
        }
    }
}

extension UntypedRow: CustomStringConvertible {
    /// The columns and their values: `[name: TEXT "Mars", moons: NULL]`.
    public var description: String {
        "[" + zip(columnNames, values).map { "\($0): \($1)" }.joined(separator: ", ") + "]"
    }
}
