/// What one committed transaction changed: the tables, the kinds of change, and the rows where SQLite reports them.
///
/// ``SharedConnection/changes(options:)`` and ``ConnectionPool/changes(options:)`` deliver one value per committed
/// transaction, after the commit, outside the write lock. A rolled-back transaction delivers nothing. A commit made by another
/// connection or process is delivered as a change with ``isFromAnotherConnection`` set and no tables: SQLite says
/// that the database changed, not what changed.
///
/// ```swift
/// for await change in shared.changes() {
///     if change.touches(table: "notes") { cache.removeAll() }
/// }
/// ```
public struct DatabaseChange: Sendable, Hashable {
    /// The kinds of change made to a table: insertions, updates, deletions.
    public struct Kinds: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: UInt8

        /// Creates kinds from raw bits.
        ///
        /// - Parameter rawValue: The bits: 1 insert, 2 update, 4 delete.
        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// Rows were inserted (`SQLITE_INSERT`).
        public static let insert = Kinds(rawValue: 1)
        /// Rows were updated (`SQLITE_UPDATE`).
        public static let update = Kinds(rawValue: 2)
        /// Rows were deleted (`SQLITE_DELETE`).
        public static let delete = Kinds(rawValue: 4)
    }

    /// The changes made to one table.
    public struct TableChange: Sendable, Hashable {
        /// The table's name, as the schema spells it.
        public var table: String
        /// The kinds of change the transaction's statements made to the table, or may have made: a statement that
        /// could delete rows counts even when its `WHERE` matched none.
        public var kinds: Kinds
        /// The row ids of the changed rows, or `nil` when they are unknown: treat the whole table as changed.
        ///
        /// Row ids are what SQLite's update hook reports. They are `nil` for `WITHOUT ROWID` tables, for a `DELETE`
        /// without `WHERE` (which SQLite may run as a truncation), and for transactions that change more than
        /// 10,000 rows of the table. SQLite does not report rows deleted by `REPLACE` conflict resolution.
        public var rowIDs: Set<Int64>?

        /// Creates a table change.
        ///
        /// - Parameters:
        ///   - table: The table's name.
        ///   - kinds: The kinds of change.
        ///   - rowIDs: The changed rows, or `nil` for the whole table.
        public init(table: String, kinds: Kinds, rowIDs: Set<Int64>?) {
            self.table = table
            self.kinds = kinds
            self.rowIDs = rowIDs
        }
    }

    /// The changed tables, sorted by name.
    public var tables: [TableChange]
    /// Whether the transaction changed the schema (`CREATE`, `DROP`, `ALTER`): any query may read differently now.
    public var changesSchema: Bool
    /// Whether the commit was made by another connection or process, noticed through SQLite's data version; it
    /// names no tables, so treat every table as changed.
    public var isFromAnotherConnection: Bool

    /// Creates a change.
    ///
    /// - Parameters:
    ///   - tables: The changed tables, in any order.
    ///   - changesSchema: Whether the schema changed.
    ///   - isFromAnotherConnection: Whether another connection or process made the commit.
    public init(tables: [TableChange], changesSchema: Bool = false, isFromAnotherConnection: Bool = false) {
        self.tables = tables.sorted { $0.table < $1.table }
        self.changesSchema = changesSchema
        self.isFromAnotherConnection = isFromAnotherConnection
    }

    /// The change of the table named `table` (compared ignoring ASCII case, as SQLite does), or `nil`.
    ///
    /// - Parameter table: A table name.
    /// - Returns: That table's change, or `nil` when the transaction did not change it (or is from another
    ///   connection, whose tables are unknown).
    public subscript(table table: String) -> TableChange? {
        let key = table.sqlIdentifierKey
        return tables.first { $0.table.sqlIdentifierKey == key }
    }

    /// Whether the change may concern `table`: the transaction changed it, changed the schema, or is from another
    /// connection.
    ///
    /// - Parameter table: A table name.
    /// - Returns: `true` when data read from `table` may be out of date.
    public func touches(table: String) -> Bool {
        changesSchema || isFromAnotherConnection || self[table: table] != nil
    }
}

extension DatabaseChange.Kinds: CustomStringConvertible {
    /// The kinds by name: `[insert, delete]`.
    public var description: String {
        listedDescription([(.insert, "insert"), (.update, "update"), (.delete, "delete")])
    }
}

extension DatabaseChange.TableChange: CustomStringConvertible {
    /// The table, the kinds and the rows: `notes [insert, update] rows 3, 7`, or `all rows` when they are unknown.
    public var description: String {
        let rows = rowIDs.map { "rows " + $0.sorted().map(String.init).joined(separator: ", ") } ?? "all rows"
        return "\(table) \(kinds) \(rows)"
    }
}

extension DatabaseChange: CustomStringConvertible {
    /// The changed tables and flags: `DatabaseChange(notes [insert] rows 3; schema changed)`.
    public var description: String {
        var parts = tables.map(\.description)
        if changesSchema { parts.append("schema changed") }
        if isFromAnotherConnection { parts.append("from another connection") }
        return "DatabaseChange(\(parts.joined(separator: "; ")))"
    }
}
