import CSQLiteSwiftly
import Synchronization

/// The `SELECT` that reads the related rows of many parents, how the parents' keys are bound, and how each row
/// finds its parents.
///
/// ```sql
/// SELECT "books"."id", ..., "books"."author_id" AS "sqliteswiftly_key" FROM "books"
/// WHERE "books"."author_id" IN (SELECT "value" FROM json_each(?)) AND (<condition>) ORDER BY <order>
/// ```
///
/// The parents' keys are read from their ``TableModel/encode(to:)`` (a parameter map routes the key column to
/// ``RawStatement/capturedValue`` and skips the others), and bound as one JSON array: one statement, one
/// parameter, whatever the number of parents, and no parameter limit. Keys JSON cannot hold (blobs, such as `UUID`
/// keys) are bound one parameter each, `IN (?, ?, ...)`, in chunks that fit the connection's parameter limit, the
/// count rounded up to a power of two (the rest bound to NULL) so that the statement cache sees a few texts. Each
/// row brings its key back, which finds its parents in a dictionary: a child that several parents share (a
/// book's author) is read once.
@usableFromInline
struct RelatedRowsQuery {
    /// The most keys one `IN (?, ...)` statement binds.
    static let chunkLimit = 1024

    /// The smallest number of parameters of an `IN (?, ...)` statement.
    static let smallestChunk = 8

    /// The name of the key column after the child's columns.
    static let keyColumn = "sqliteswiftly_key"

    /// The statement up to `IN`.
    let head: String
    /// ` AND (...) ORDER BY ...`, with their values.
    let tail: String
    @usableFromInline let tailArguments: [StatementArguments.Argument]
    /// The parent's column whose value is each parent's key, its name, its table, and how many columns a parent
    /// encodes.
    @usableFromInline let parentKeyIndex: Int
    @usableFromInline let parentKeyName: String
    @usableFromInline let parentTable: String
    @usableFromInline let parentColumnCount: Int
    /// The number of the child's columns: the key is the column after them.
    @usableFromInline let childColumnCount: Int
    /// The most keys one `IN (?, ...)` statement binds: ``chunkLimit``, or fewer under a low parameter limit.
    @usableFromInline let largestChunk: Int

    /// The `IN (?, ...)` lists of each number of parameters, made once per process.
    private static let lists = Mutex<[Int: String]>([:])

    /// The query along `path` from `Parent` to `Child`, with the condition and order.
    ///
    /// - Throws: ``SQLiteError/Kind/unsupportedRelation`` when the models' foreign keys do not support the path.
    @usableFromInline init<Parent: TableModel, Child: TableModel>(
        _ path: RelationPath, parent: Parent.Type, child: Child.Type, where condition: SQL?, orderBy order: SQL?,
        parameterLimit: Int
    ) throws(SQLiteError) {
        let resolved = try path.resolve(Parent.self, Child.self)
        let childTable = Child.tableName.quotedSQLIdentifier
        var head = "SELECT "
        for column in Child.columns { head += "\(childTable).\(column.name.quotedSQLIdentifier), " }
        head += "\(resolved.key) AS \(Self.keyColumn.quotedSQLIdentifier) FROM \(resolved.from) "
        head += "WHERE \(resolved.key) IN "
        var tail = ""
        var arguments: [StatementArguments.Argument] = []
        if let condition {
            tail += " AND (\(condition.text))"
            if case .positional(let values) = condition.arguments.storage { arguments += values }
        }
        if let order {
            tail += " ORDER BY \(order.text)"
            if case .positional(let values) = order.arguments.storage { arguments += values }
        }
        self.head = head
        self.tail = tail
        tailArguments = arguments
        parentKeyIndex = resolved.parentKeyIndex
        let parentColumns = Parent.columns
        parentKeyName = parentColumns[resolved.parentKeyIndex].name
        parentTable = Parent.tableName
        parentColumnCount = parentColumns.count
        childColumnCount = Child.columns.count
        largestChunk = min(Self.chunkLimit, parameterLimit - arguments.count)
    }

    /// The statement that binds the keys as one JSON array.
    @usableFromInline var jsonSQL: String {
        head + "(SELECT \"value\" FROM json_each(?))" + tail
    }

    /// The statement that binds `slots` keys, one parameter each.
    @usableFromInline func listSQL(slots: Int) -> String {
        let list = Self.lists.withLock { lists in
            if let list = lists[slots] { return list }
            let list = "(" + Array(repeating: "?", count: slots).joined(separator: ", ") + ")"
            lists[slots] = list
            return list
        }
        return head + list + tail
    }

    /// The number of parameters for `count` keys: the next power of two, at least ``smallestChunk``, at most
    /// ``largestChunk``.
    @usableFromInline func slots(for count: Int) -> Int {
        var slots = Self.smallestChunk
        while slots < count { slots *= 2 }
        return min(slots, largestChunk)
    }

    /// The key of each parent, read from its `encode(to:)` through `raw`, which must not be running: the parameter
    /// map keeps the key column's value and skips the others, so nothing is bound.
    @inlinable func keys<Parent: TableModel>(of parents: [Parent], through raw: RawStatement) throws -> [SQLiteValue] {
        if raw.isCallingOut || raw.isStepping { throw raw.reentered() }
        raw.isCallingOut = true  // the statement cannot run from a parent's encode(to:)
        var map = [Int32](repeating: 0, count: parentColumnCount)
        map[parentKeyIndex] = -1
        raw.parameterMap = map
        defer {
            raw.parameterMap = nil
            raw.capturedValue = nil
            raw.isCallingOut = false
        }
        var keys: [SQLiteValue] = []
        keys.reserveCapacity(parents.count)
        do {
            for parent in parents {
                raw.capturedValue = nil
                var encoder = RowEncoder(raw: raw)
                try parent.encode(to: &encoder)
                guard encoder.count == parentColumnCount else {
                    throw ModelWrite.countMismatch(
                        encoded: encoder.count, expected: parentColumnCount, in: Parent.self, sql: raw.sql)
                }
                keys.append(raw.capturedValue ?? .null)
            }
        } catch let error as SQLiteError {
            throw error.with(sql: raw.sql, table: parentTable, column: parentKeyName)
        }
        return keys
    }

    /// `keys` as a JSON array, or `nil` when one cannot be written in JSON: a blob, an infinite double.
    @usableFromInline static func json(_ keys: [SQLiteValue]) -> String? {
        var json = "["
        for (offset, key) in keys.enumerated() {
            if offset > 0 { json += "," }
            switch key {
            case .integer(let value): json += String(value)
            case .real(let value):
                guard value.isFinite else { return nil }
                json += "\(value)"
            case .text(let value): json += jsonString(value)
            case .null: json += "null"
            case .blob: return nil
            }
        }
        return json + "]"
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    static func jsonString(_ text: String) -> String {
        var json = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "\n": json += "\\n"
            case "\r": json += "\\r"
            case "\t": json += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: json.unicodeScalars.append(scalar)
            }
        }
        return json + "\""
    }

    /// Binds the keys' JSON text to the first parameter, then the condition's and order's values.
    @usableFromInline func bind(json: String, to raw: RawStatement) throws(SQLiteError) {
        try checkParameters(1, of: raw)
        do {
            try ParameterSlot(raw: raw, index: 1).bind(json)
            try bindTail(after: 1, to: raw)
        } catch {
            raw.abandon()
            throw error.with(sql: raw.sql)
        }
    }

    /// Binds `keys` to the first parameters, NULL to the `slots` parameters they leave, then the condition's and
    /// order's values.
    @usableFromInline func bind(keys: ArraySlice<SQLiteValue>, slots: Int, to raw: RawStatement) throws(SQLiteError) {
        try checkParameters(slots, of: raw)
        do {
            var parameter: Int32 = 0
            for key in keys {
                parameter += 1
                try ParameterSlot(raw: raw, index: parameter).bind(key)
            }
            while parameter < Int32(slots) {
                parameter += 1
                try ParameterSlot(raw: raw, index: parameter).bindNull()
            }
            try bindTail(after: Int32(slots), to: raw)
        } catch {
            raw.abandon()
            throw error.with(sql: raw.sql)
        }
    }

    private func bindTail(after parameter: Int32, to raw: RawStatement) throws(SQLiteError) {
        var parameter = parameter
        for argument in tailArguments {
            parameter += 1
            try raw.bind(argument, at: parameter)
        }
    }

    /// Checks that the statement has `keys` parameters for the keys and one per value of the condition and order.
    private func checkParameters(_ keys: Int, of raw: RawStatement) throws(SQLiteError) {
        guard Int(raw.parameterCount) != keys + tailArguments.count else { return }
        let error = SQLiteError(
            .parameterMismatch,
            message: "the condition and order of a relation take their values by interpolation: they have "
                + "\(Int(raw.parameterCount) - keys) parameters but \(tailArguments.count) values",
            sql: raw.sql)
        raw.abandon()
        throw error
    }

    /// The error for a row whose key no parent has, even after SQLite's conversions (a key equal to a parent's only
    /// under a collation, such as `NOCASE`): the relation's keys must be equal as values.
    @usableFromInline static func noParent(_ key: SQLiteValue, _ raw: RawStatement) -> SQLiteError {
        var error = SQLiteError(
            .conversionFailed,
            message: "a related row's key matches no parent's key as a value (\(key.storageClass)); keys that are "
                + "equal only under a collation such as NOCASE cannot be matched", sql: raw.sql)
        error.column = keyColumn
        return error
    }

    /// The key of the current row of `statement`: the column after the child's.
    @inlinable func key(of statement: OpaquePointer) throws(SQLiteError) -> SQLiteValue {
        try StoredValue(csqlite_column_value(statement, Int32(childColumnCount))).sqliteValue()
    }
}
