/// A set of tables, by their keys (`sqlIdentifierKey`: ASCII letters lowercased), or every table; some of the
/// tables may be narrowed to rows.
///
/// A table of ``tables`` that has an entry in ``rows`` is concerned only through those rowids (a fetch read only
/// them, or a commit changed only them); one without an entry is concerned whole. See "Row-level regions" in
/// DESIGN.md for when a region narrows.
struct ObservedRegion: Sendable, Hashable {
    var tables: Set<String> = []
    var isEverything = false
    /// For some of ``tables``, the only rows concerned, by rowid.
    var rows: [String: Set<Int64>] = [:]

    var isEmpty: Bool { !isEverything && tables.isEmpty }

    /// Adds `other`; sharing its storage, without allocating, when `self` is empty or already holds it and neither
    /// is narrowed to rows.
    ///
    /// A table narrowed in one region and whole in the other is whole in the union; narrowed in both, it is
    /// narrowed to the union of their rows.
    mutating func formUnion(_ other: ObservedRegion) {
        isEverything = isEverything || other.isEverything
        if tables.isEmpty {
            tables = other.tables
            rows = other.rows
        } else if !rows.isEmpty || !other.rows.isEmpty {
            mergeRows(other)
            tables.formUnion(other.tables)
        } else if !other.tables.isSubset(of: tables) {
            tables.formUnion(other.tables)
        }
    }

    /// Widens ``rows`` for a union with `other`, before its tables join ``tables``.
    private mutating func mergeRows(_ other: ObservedRegion) {
        for (table, mine) in rows where other.tables.contains(table) {
            if let theirs = other.rows[table] {
                rows[table] = mine.union(theirs)
            } else {
                rows[table] = nil
            }
        }
        for (table, theirs) in other.rows where !tables.contains(table) {
            rows[table] = theirs
        }
    }

    /// Whether a change to `other` may change what was read from `self`: they share a table, and rows of it unless
    /// both are narrowed on it.
    func intersects(_ other: ObservedRegion) -> Bool {
        guard !isEmpty && !other.isEmpty else { return false }
        if isEverything || other.isEverything { return true }
        if rows.isEmpty && other.rows.isEmpty { return !tables.isDisjoint(with: other.tables) }
        for table in tables where other.tables.contains(table) {
            guard let mine = rows[table], let theirs = other.rows[table] else { return true }
            if !mine.isDisjoint(with: theirs) { return true }
        }
        return false
    }
}

/// What one statement reads and writes, as SQLite's authorizer reports it while the statement is prepared.
///
/// Table names are kept as SQLite reports them; ``ObservedRegion`` compares them ignoring ASCII case.
struct StatementRegion: Sendable {
    /// The tables the statement reads (`SQLITE_READ`).
    var reads = ObservedRegion()
    /// The tables the statement (and the triggers and foreign-key actions it fires) may change, by key, with
    /// their names as SQLite spells them.
    var writes: [String: (name: String, kinds: DatabaseChange.Kinds)] = [:]
    /// The keys of tables deleted from without reading any of their columns (`DELETE FROM t` with no `WHERE`), which SQLite may
    /// run as a truncation that its update hook does not report row by row. While collecting: every delete.
    var truncations: Set<String> = []
    /// The keys of written tables whose changed rows SQLite's update hook may not all report (a `REPLACE` conflict,
    /// a rowid changed by an `UPDATE`, a truncation, triggers and foreign-key actions, virtual tables): a commit
    /// then concerns them whole. See ``ProgramAnalysis/tablesWithUnreportedRows(_:written:schema:)``.
    var unreportedRows: Set<String> = []
    /// Whether the statement may read rows of a table by rowid only, so that what a run of it read is worth
    /// working out from its bound values (see ``ProgramAnalysis/mayNarrow(_:)``).
    var mayNarrowReads = false
    /// Whether the statement changes the schema (`CREATE`, `DROP`, `ALTER`).
    var changesSchema = false
    /// Whether the statement is a `VACUUM`, which commits without calling the commit hook and may renumber the
    /// rows of tables without an `INTEGER PRIMARY KEY`: it counts as a schema change.
    var commitsWithoutHook = false
    /// The keys of `writes`, or everything for a schema change: what the statement adds to a transaction's region.
    var writeRegion = ObservedRegion()

    /// The region of a statement SQLite would not prepare again: everything, to be safe.
    static let unknown = StatementRegion(
        reads: ObservedRegion(isEverything: true), writes: [:], truncations: [], unreportedRows: [],
        mayNarrowReads: false, changesSchema: true, commitsWithoutHook: false,
        writeRegion: ObservedRegion(isEverything: true))
}

/// A statement's region held by reference, so that each run of the statement reads its fields in place, without
/// copying (and retaining and releasing) its collections.
final class SharedStatementRegion: Sendable {
    let value: StatementRegion
    /// Whether the statement changes nothing observations see (`BEGIN`, `COMMIT`, a query): outside a recording,
    /// its runs are not noted at all.
    let writesNothing: Bool
    /// Whether the statement also reads nothing (`BEGIN`, `COMMIT`, `SELECT 1`): it names no table, so no
    /// re-prepare can make it read or write one.
    let isInert: Bool

    init(_ value: StatementRegion) {
        self.value = value
        writesNothing =
            value.writes.isEmpty && value.writeRegion.isEmpty && !value.changesSchema && !value.commitsWithoutHook
        isInert = writesNothing && value.reads.isEmpty
    }
}
