/// A set of tables, by their keys (`sqlIdentifierKey`: ASCII letters lowercased), or every table.
struct ObservedRegion: Sendable, Hashable {
    var tables: Set<String> = []
    var isEverything = false

    var isEmpty: Bool { !isEverything && tables.isEmpty }

    /// Adds `other`; sharing its storage, without allocating, when `self` is empty or already holds it.
    mutating func formUnion(_ other: ObservedRegion) {
        isEverything = isEverything || other.isEverything
        if tables.isEmpty {
            tables = other.tables
        } else if !other.tables.isSubset(of: tables) {
            tables.formUnion(other.tables)
        }
    }

    /// Whether a change to `other` may change what was read from `self`.
    func intersects(_ other: ObservedRegion) -> Bool {
        guard !isEmpty && !other.isEmpty else { return false }
        return isEverything || other.isEverything || !tables.isDisjoint(with: other.tables)
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
    /// Whether the statement changes the schema (`CREATE`, `DROP`, `ALTER`).
    var changesSchema = false
    /// The keys of `writes`, or everything for a schema change: what the statement adds to a transaction's region.
    var writeRegion = ObservedRegion()

    /// The region of a statement SQLite would not prepare again: everything, to be safe.
    static let unknown = StatementRegion(
        reads: ObservedRegion(isEverything: true), writes: [:], truncations: [], changesSchema: true,
        writeRegion: ObservedRegion(isEverything: true))
}
