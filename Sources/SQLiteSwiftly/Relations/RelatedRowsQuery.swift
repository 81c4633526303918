import Synchronization

/// The one `SELECT` that reads the related rows of a chunk of parents, and how its parameters are bound.
///
/// ```sql
/// WITH "sqliteswiftly_parents"("position", "key") AS (VALUES (0, ?), (1, ?), ...)
/// SELECT "books"."id", ..., "sqliteswiftly_parents"."position" AS "sqliteswiftly_position"
/// FROM "sqliteswiftly_parents" JOIN "books" ON "books"."author_id" = "sqliteswiftly_parents"."key"
/// WHERE <condition> ORDER BY <order>
/// ```
///
/// Each parent's key is bound to one parameter, straight from its ``TableModel/encode(to:)`` through a parameter
/// map that binds only the key column (as a DELETE by primary key does), so keys of any type (text, blobs)
/// work and no key is ever read into Swift. Each row carries its parent's position in the chunk, so grouping
/// is an index, not a hash. The number of parameters is rounded up to a power of two (the rest bound to NULL,
/// which matches nothing), so that the statement cache sees a few texts per relation, not one per parent count.
struct RelatedRowsQuery {
    /// The most parents one statement reads.
    static let chunkLimit = 1024

    /// The smallest number of parameters a statement has.
    static let smallestChunk = 8

    /// The child's columns, qualified, and the joins: the statement after its `WITH` clause, without the
    /// condition and order.
    let selection: String
    /// ` WHERE ... ORDER BY ...`, with their values.
    let tail: String
    let tailArguments: [StatementArguments.Argument]
    /// The parent's column whose value is bound for each parent, its name, and how many columns a parent encodes.
    let parentKeyIndex: Int
    let parentKeyName: String
    let parentTable: String
    let parentColumnCount: Int
    /// The number of the child's columns: the parent's position is the column after them.
    let childColumnCount: Int
    /// The most parents one statement reads: ``chunkLimit``, or fewer under a low parameter limit.
    let largestChunk: Int

    /// The values lists of each number of parameters, made once per process.
    private static let valuesLists = Mutex<[Int: String]>([:])

    init<Parent: TableModel, Child: TableModel>(
        _ resolved: RelationPath.Resolved, parent: Parent.Type, child: Child.Type, where condition: SQL?,
        orderBy order: SQL?, parameterLimit: Int
    ) throws(SQLiteError) {
        let parents = RelationPath.parents.quotedSQLIdentifier
        let childTable = Child.tableName.quotedSQLIdentifier
        var selection = "SELECT "
        for column in Child.columns { selection += "\(childTable).\(column.name.quotedSQLIdentifier), " }
        selection += "\(parents).\"position\" AS \"sqliteswiftly_position\" FROM \(parents)"
        for join in resolved.joins {
            let name = (join.alias ?? join.table).quotedSQLIdentifier
            selection += " JOIN \(join.table.quotedSQLIdentifier)"
            if let alias = join.alias { selection += " AS \(alias.quotedSQLIdentifier)" }
            selection += " ON \(name).\(join.column.quotedSQLIdentifier) = \(join.equals)"
        }
        var tail = ""
        var arguments: [StatementArguments.Argument] = []
        for (keyword, part) in [(" WHERE ", condition), (" ORDER BY ", order)] {
            guard let part else { continue }
            tail += keyword + part.text
            if case .positional(let values) = part.arguments.storage { arguments += values }
        }
        let room = min(Self.chunkLimit, parameterLimit - arguments.count)
        guard room >= 1 else {
            throw SQLiteError(
                .parameterMismatch,
                message: "the condition and order have \(arguments.count) values, and the connection's parameter "
                    + "limit (\(parameterLimit)) leaves no room for the parents' keys",
                sql: selection + tail)
        }
        self.selection = selection
        self.tail = tail
        tailArguments = arguments
        parentKeyIndex = resolved.parentKeyIndex
        let parentColumns = Parent.columns
        parentKeyName = parentColumns[resolved.parentKeyIndex].name
        parentTable = Parent.tableName
        parentColumnCount = parentColumns.count
        childColumnCount = Child.columns.count
        largestChunk = room
    }

    /// The number of parameters for `count` parents: the next power of two, at least ``smallestChunk``, at most
    /// ``largestChunk``.
    func slots(for count: Int) -> Int {
        var slots = Self.smallestChunk
        while slots < count { slots *= 2 }
        return min(slots, largestChunk)
    }

    /// The statement for `slots` parents.
    func sql(slots: Int) -> String {
        let values = Self.valuesLists.withLock { lists in
            if let list = lists[slots] { return list }
            let list = (0..<slots).map { "(\($0), ?)" }.joined(separator: ", ")
            lists[slots] = list
            return list
        }
        return "WITH \(RelationPath.parents.quotedSQLIdentifier)(\"position\", \"key\") AS (VALUES \(values)) "
            + selection + tail
    }

    /// Binds the key of each parent to its parameter, NULL to the parameters no parent takes, then the values of
    /// the condition and order.
    func bind<Parent: TableModel>(_ parents: ArraySlice<Parent>, slots: Int, to raw: RawStatement) throws {
        guard Int(raw.parameterCount) == slots + tailArguments.count else {
            let error = SQLiteError(
                .parameterMismatch,
                message: "the condition and order of a relation take their values by interpolation: they have "
                    + "\(Int(raw.parameterCount) - slots) parameters but \(tailArguments.count) values",
                sql: raw.sql)
            raw.abandon()
            throw error
        }
        raw.parameterMap = [Int32](repeating: 0, count: parentColumnCount)
        defer { raw.parameterMap = nil }
        var parameter: Int32 = 0
        do {
            for parent in parents {
                parameter += 1
                raw.parameterMap?[parentKeyIndex] = parameter
                var encoder = RowEncoder(raw: raw)
                try parent.encode(to: &encoder)
                guard encoder.count == parentColumnCount else {
                    throw ModelWrite.countMismatch(
                        encoded: encoder.count, expected: parentColumnCount, in: Parent.self, sql: raw.sql)
                }
            }
            while parameter < Int32(slots) {
                parameter += 1
                try ParameterSlot(raw: raw, index: parameter).bindNull()
            }
            for argument in tailArguments {
                parameter += 1
                try raw.bind(argument, at: parameter)
            }
        } catch let error as SQLiteError {
            raw.abandon()
            throw parameter <= Int32(parents.count)
                ? error.with(sql: raw.sql, table: parentTable, column: parentKeyName) : error.with(sql: raw.sql)
        } catch {
            raw.abandon()
            throw error
        }
    }
}
