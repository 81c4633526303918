import CSQLiteSwiftly

/// The current row of a running statement, read by 0-based column index.
///
/// A row is lent to ``RowDecodable/init(row:)`` and is valid only during that call. It is noncopyable and only
/// ever borrowed, so it cannot be kept past the call: storing it in a property or capturing it in an escaping
/// closure does not compile.
///
/// The indexes are those of the row type. A type that declares ``RowDecodable/expectedColumnNames`` (every
/// ``TableModel`` does) reads its columns in its own order, whatever the order of the statement's result: the
/// statement works out, once, where each of the type's columns is, so `SELECT *` reads a model correctly even
/// after a migration added or reordered columns. Other types see the statement's columns as they are.
///
/// Reading never converts silently: NULL into a non-optional, TEXT or REAL into an integer, or an integer out of
/// the Swift type's range all throw ``SQLiteError/Kind/conversionFailed``, naming the column, the row, the SQL
/// and the table.
public struct Row: ~Copyable {
    @usableFromInline let statement: OpaquePointer
    /// The statement's owner, for the context of errors. Unowned: a row never outlives the run that lends it.
    @usableFromInline unowned(unsafe) let raw: RawStatement
    /// For each of the row type's columns, its position in the result.
    @usableFromInline let columnMap: UnsafePointer<Int32>
    @usableFromInline let columnCount: Int32
    /// The 1-based number of this row within the statement's results.
    public let number: Int

    @inlinable init(raw: RawStatement, number: Int) {
        statement = raw.handle
        self.raw = raw
        columnMap = raw.columnMap
        columnCount = raw.visibleColumnCount
        self.number = number
    }

    /// The same row read through `columnMap`, which has `columnCount` entries: a member of a joined row. It copies
    /// the row's references, so making it retains nothing.
    @inlinable init(member row: borrowing Row, columnMap: UnsafePointer<Int32>, columnCount: Int32) {
        statement = row.statement
        raw = row.raw
        self.columnMap = columnMap
        self.columnCount = columnCount
        number = row.number
    }

    /// The number of columns the row type reads (for other types, the statement's result columns).
    public var count: Int { Int(columnCount) }

    /// Reads the column at `index` as `Value`.
    ///
    /// - Parameter index: The 0-based column index.
    /// - Returns: The converted value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` naming the column and row when the stored value does
    ///   not convert, or when `index` is out of range.
    @inlinable @inline(__always) public subscript<Value: SQLiteValueConvertible>(_ index: Int) -> Value {
        get throws(SQLiteError) {
            try self.value(at: index)
        }
    }

    /// Reads the column named `name` (ASCII case-insensitive) as `Value`.
    ///
    /// Looking up a name scans the columns; reading by index is faster.
    ///
    /// - Parameter name: The column name.
    /// - Returns: The converted value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when no column has that name, when more than one has it
    ///   (`SELECT a.id, b.id ...`: read by index, or give them aliases), or when the value does not convert.
    public subscript<Value: SQLiteValueConvertible>(_ name: String) -> Value {
        get throws(SQLiteError) {
            let key = name.sqlIdentifierKey
            let matches = (0..<count).filter { columnName(at: $0).sqlIdentifierKey == key }
            guard matches.count == 1 else {
                let problem =
                    matches.isEmpty
                    ? "the result has no column named \"\(name)\""
                    : "the result has \(matches.count) columns named \"\(name)\"; read by index, or give them aliases"
                var error = SQLiteError.conversion(problem)
                error.column = name
                throw located(error, position: nil)
            }
            return try value(at: matches[0])
        }
    }

    /// Reads the column at `index` as `Value`; the same as the subscript.
    ///
    /// - Parameters:
    ///   - index: The 0-based column index.
    ///   - type: The type to read, when inference cannot tell.
    /// - Returns: The converted value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` naming the column and row.
    @inlinable @inline(__always)
    public func value<Value: SQLiteValueConvertible>(at index: Int, as type: Value.Type = Value.self)
        throws(SQLiteError) -> Value
    {
        let position = try self.position(of: index)
        do {
            return try StoredValue(csqlite_column_value(statement, position)).decode(Value.self)
        } catch {
            // The position again from `index` (a constant where a model reads its columns), not kept from above:
            // keeping it would hold a register across the reads of every column.
            throw located(error, index: index)
        }
    }

    /// Reads the column at `index` of the current row of `raw`, as ``value(at:as:)`` does, without a `Row`: the
    /// failure paths build one, so that a caller outside a row loop (a `Codable` decoding) keeps none in memory
    /// for them. The statement is passed unretained: the caller's run holds it.
    @inline(__always) static func value<Value: SQLiteValueConvertible>(
        of raw: Unmanaged<RawStatement>, number: Int, at index: Int
    ) throws -> Value {
        try raw._withUnsafeGuaranteedRef { raw in
            guard UInt(bitPattern: index) < UInt(truncatingIfNeeded: raw.visibleColumnCount) else {
                throw Row(raw: raw, number: number).outOfRange(index)
            }
            do throws(SQLiteError) {
                return try StoredValue(csqlite_column_value(raw.handle, raw.columnMap[index])).decode(Value.self)
            } catch {
                throw Row(raw: raw, number: number).located(error, index: index)
            }
        }
    }

    /// Whether the column at `index` holds NULL.
    ///
    /// - Parameter index: The 0-based column index.
    /// - Returns: `true` for NULL.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when `index` is out of range.
    public func isNull(at index: Int) throws(SQLiteError) -> Bool {
        sqlite3_column_type(statement, try position(of: index)) == SQLITE_NULL
    }

    /// The value of the column at `index`, whatever its storage class.
    ///
    /// - Parameter index: The 0-based column index.
    /// - Returns: The value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when `index` is out of range or the text is not valid
    ///   UTF-8 (read it as `[UInt8]` instead).
    public func sqliteValue(at index: Int) throws(SQLiteError) -> SQLiteValue {
        let position = try position(of: index)
        do {
            return try StoredValue(csqlite_column_value(statement, position)).sqliteValue()
        } catch {
            throw located(error, position: position)
        }
    }

    /// The name of the column at `index`, as SQLite reports it.
    ///
    /// - Parameter index: The 0-based column index.
    /// - Returns: The name, or an empty string when `index` is out of range.
    public func columnName(at index: Int) -> String {
        rawColumnName(at: index).map { String(cString: $0) } ?? ""
    }

    /// The 0-based index of the first column named `name`, ignoring ASCII case.
    ///
    /// - Parameter name: The column name.
    /// - Returns: The index of the first column with that name (a result may have several: the subscript by name
    ///   refuses those), or `nil` if no column has that name.
    public func index(of name: String) -> Int? {
        let key = name.sqlIdentifierKey
        for index in 0..<count where columnName(at: index).sqlIdentifierKey == key { return index }
        return nil
    }

    /// The result position of the row type's column `index`.
    @inlinable @inline(__always) func position(of index: Int) throws(SQLiteError) -> Int32 {
        guard UInt(bitPattern: index) < UInt(truncatingIfNeeded: columnCount) else { throw outOfRange(index) }
        return columnMap[index]
    }

    /// SQLite's name of the column at `index`, valid until the statement is reset or finalized; `nil` when `index`
    /// is out of range or SQLite is out of memory.
    func rawColumnName(at index: Int) -> UnsafePointer<CChar>? {
        guard let position = try? position(of: index) else { return nil }
        return sqlite3_column_name(statement, position)
    }

    func name(atPosition position: Int32) -> String {
        sqlite3_column_name(statement, position).map { String(cString: $0) } ?? ""
    }

    /// `located(_:position:)` for the column at `index`, which is in range.
    @usableFromInline func located(_ error: SQLiteError, index: Int) -> SQLiteError {
        located(error, position: columnMap[index])
    }

    @usableFromInline func outOfRange(_ index: Int) -> SQLiteError {
        located(.conversion("column index \(index) is out of range: the row has \(columnCount) columns"), position: nil)
    }

    /// Adds where the error happened: column, row, SQL, and the table (the model's, or the column's origin).
    @usableFromInline func located(_ error: SQLiteError, position: Int32?) -> SQLiteError {
        var column: String?
        var table = raw.table
        if let position {
            column = name(atPosition: position)
            if let origin = csqlite_column_table_name(statement, position) { table = String(cString: origin) }
        }
        return error.with(sql: raw.sql, table: table, column: column, row: number)
    }
}
