/// Which result columns each member of a joined row reads: the assignment, worked out once per statement, member
/// types and re-prepare (see "Joined rows" in DESIGN.md).
///
/// A result column is assigned by where it comes from. Its key is its origin table and column as SQLite reports
/// them (through views and subqueries), or, for a column whose alias is `"table.column"` naming a member's table,
/// that table and column: an expression is assigned explicitly that way. A member that is a ``TableModel`` takes,
/// for each of its columns, the column keyed with its table and that name; when a table has several members (a
/// self-join through aliases), its columns go to them in order of appearance, the first occurrence to the first
/// member. A column SQLite cannot place (an expression, a build without column metadata) is found by its result
/// name instead, in order of appearance among the members that need that name. Members that are not models find
/// their columns by name among those no model took, and a member that reads columns as they come (no
/// ``RowDecodable/expectedColumnNames``) takes all the rest, in order.
struct JoinedColumnAssignment {
    /// A result column: its name, and its origin when SQLite knows it.
    struct ResultColumn {
        var name: String
        var table: String?
        var origin: String?
    }

    /// What a member needs from the result.
    struct Member {
        /// How errors name the member: `Author`, `Author?`.
        var typeName: String
        /// The columns it reads, in order, or `nil` for a member that reads the columns as they come.
        var names: [String]?
        /// The table of a ``TableModel`` member.
        var table: String?
        /// The indexes of `names` whose all being NULL means the joined row is absent: the primary key's, or all.
        var keyIndexes: [Int]
    }

    /// For each member, the result position of each column it reads, in its order.
    private(set) var positions: [[Int32]]
    /// For each member, the result positions whose all being NULL means its row is absent.
    private(set) var keyPositions: [[Int32]]

    /// How a column is keyed: its table and column (ASCII case folded) and how directly it names them.
    private struct Key: Hashable {
        var table: String
        var column: String
    }

    /// A column's key and preference: 0 for an explicit `"table.column"` alias, 1 for a column under its own
    /// name, 2 for a column renamed by an alias.
    private typealias Keyed = (key: Key, rank: Int)

    /// Assigns `columns` to `members`.
    ///
    /// - Throws: ``SQLiteError/Kind/modelMismatch`` naming the column a member needs that no result column can be
    ///   assigned to, that fewer result columns provide than members need (claimed twice), or that too many
    ///   provide for the assignment to be unambiguous; or when two members read the columns as they come.
    init(columns: [ResultColumn], members: [Member], sql: String) throws(SQLiteError) {
        var claimed = [Bool](repeating: false, count: columns.count)
        var found: [[Int32?]] = members.map { [Int32?](repeating: nil, count: $0.names?.count ?? 0) }
        let tables = Set(members.compactMap { $0.table?.sqlIdentifierKey })
        let keys = columns.map { Self.key(of: $0, tables: members.compactMap(\.table)) }

        // Models: each column by its table and name.
        var needs: [Key: [(member: Int, index: Int)]] = [:]
        var order: [Key] = []
        for (member, shape) in members.enumerated() {
            guard let table = shape.table?.sqlIdentifierKey, let names = shape.names else { continue }
            for (index, name) in names.enumerated() {
                let key = Key(table: table, column: name.sqlIdentifierKey)
                if needs[key] == nil { order.append(key) }
                needs[key, default: []].append((member, index))
            }
        }
        for key in order {
            guard let needing = needs[key] else { continue }
            let candidates = keys.indices.compactMap { position in
                keys[position].flatMap { $0.key == key ? (position, $0.rank) : nil }
            }
            guard !candidates.isEmpty else { continue }  // by name, below
            let chosen = try Self.choose(candidates, for: needing.map { members[$0.member] }, key: key, sql: sql)
            for (need, position) in zip(needing, chosen) {
                found[need.member][need.index] = Int32(position)
                claimed[position] = true
            }
        }

        // What SQLite could not place, by result name: first for models (never a column another member's table
        // has), then for other row types (any column no model took).
        for modelsOnly in [true, false] {
            var byName: [String: [(member: Int, index: Int)]] = [:]
            var names: [String] = []
            for (member, shape) in members.enumerated() where (shape.table != nil) == modelsOnly {
                for (index, name) in (shape.names ?? []).enumerated() where found[member][index] == nil {
                    let key = name.sqlIdentifierKey
                    if byName[key] == nil { names.append(key) }
                    byName[key, default: []].append((member, index))
                }
            }
            for name in names {
                guard let needing = byName[name] else { continue }
                let candidates = columns.indices.filter { position in
                    guard !claimed[position], columns[position].name.sqlIdentifierKey == name else { return false }
                    guard modelsOnly, let table = columns[position].table?.sqlIdentifierKey else { return true }
                    return !tables.contains(table)
                }
                guard candidates.count == needing.count else {
                    let first = needing[0]
                    throw Self.unassignable(
                        members[first.member], column: members[first.member].names?[first.index] ?? name,
                        found: candidates.count, needed: needing.map { members[$0.member].typeName }, columns: columns,
                        sql: sql)
                }
                for (need, position) in zip(needing, candidates) {
                    found[need.member][need.index] = Int32(position)
                    claimed[position] = true
                }
            }
        }

        // A member that reads the columns as they come takes the rest.
        let positional = members.indices.filter { members[$0].names == nil }
        if positional.count > 1 {
            throw SQLiteError(
                .modelMismatch,
                message: "\(positional.map { members[$0].typeName }.joined(separator: " and ")) both read the "
                    + "columns as they come (they declare no expectedColumnNames): at most one member of a joined "
                    + "row can take the columns no other member reads", sql: sql)
        }
        let rest = columns.indices.filter { !claimed[$0] }.map { Int32($0) }
        let positions = found.indices.map { member in
            members[member].names == nil ? rest : found[member].map { $0 ?? 0 }
        }
        self.positions = positions
        keyPositions = members.indices.map { member in
            let all = positions[member]
            guard members[member].names != nil, !members[member].keyIndexes.isEmpty else { return all }
            return members[member].keyIndexes.map { all[$0] }
        }
    }

    /// The key of a column: an explicit `"table.column"` alias naming a member's table (the longest such table),
    /// or its origin; `nil` when SQLite cannot tell where it comes from.
    private static func key(of column: ResultColumn, tables: [String]) -> Keyed? {
        let name = column.name.sqlIdentifierKey
        let renamed = column.origin.map { $0.sqlIdentifierKey != name } ?? true
        if renamed {
            let table = tables.map(\.sqlIdentifierKey).filter { name.hasPrefix($0 + ".") }.max { $0.count < $1.count }
            if let table {
                return (Key(table: table, column: String(name.dropFirst(table.count + 1))), 0)
            }
        }
        guard let table = column.table, let origin = column.origin else { return nil }
        return (Key(table: table.sqlIdentifierKey, column: origin.sqlIdentifierKey), renamed ? 2 : 1)
    }

    /// The `needing.count` candidates that go to the members needing a key, in result order: explicit aliases
    /// first, then columns under their own name, then renamed ones, as long as a rank fits whole.
    private static func choose(
        _ candidates: [(position: Int, rank: Int)], for needing: [Member], key: Key, sql: String
    ) throws(SQLiteError) -> [Int] {
        let count = needing.count
        let member = needing[0]
        let column = member.names?.first { $0.sqlIdentifierKey == key.column } ?? key.column
        var chosen: [Int] = []
        for rank in 0...2 where chosen.count < count {
            let ranked = candidates.filter { $0.rank == rank }.map(\.position)
            guard chosen.count + ranked.count <= count else {
                throw ambiguous(member, column: column, found: candidates.count, needed: needing, sql: sql)
            }
            chosen += ranked
        }
        guard chosen.count == count else {
            throw unassignable(
                member, column: column, found: candidates.count, needed: needing.map(\.typeName), columns: nil,
                sql: sql)
        }
        return chosen.sorted()
    }

    private static func ambiguous(_ member: Member, column: String, found: Int, needed: [Member], sql: String)
        -> SQLiteError
    {
        let table = member.table.map { " of \($0)" } ?? ""
        var error = SQLiteError(
            .modelMismatch,
            message: "column \"\(column)\"\(table) is selected \(found) times but "
                + "\(needed.map(\.typeName).joined(separator: ", ")) read it \(needed.count) time(s): select it once "
                + "per member, or give the extra ones an alias", sql: sql)
        error.column = column
        error.table = member.table
        return error
    }

    private static func unassignable(
        _ member: Member, column: String, found: Int, needed: [String], columns: [ResultColumn]?, sql: String
    ) -> SQLiteError {
        let table = member.table.map { " of \($0)" } ?? ""
        let message: String
        if found == 0 {
            let returned = columns.map { " (it returns \($0.map(\.name).joined(separator: ", ")))" } ?? ""
            message =
                "\(member.typeName) needs column \"\(column)\"\(table), which no result column provides\(returned); "
                + "select it, or alias an expression as \"\(member.table ?? "table").\(column)\""
        } else if found < needed.count {
            message =
                "column \"\(column)\"\(table) is selected \(found) time(s) but \(needed.joined(separator: ", ")) "
                + "each need it: select it once per member (a self-join selects both aliases' columns), or alias an "
                + "expression as \"\(member.table ?? "table").\(column)\""
        } else {
            message =
                "column \"\(column)\" is selected \(found) times, and SQLite cannot tell which "
                + "\(needed.joined(separator: ", ")) should read: give the others an alias, or alias the right one as "
                + "\"\(member.table ?? "table").\(column)\""
        }
        var error = SQLiteError(.modelMismatch, message: message, sql: sql)
        error.column = column
        error.table = member.table
        return error
    }
}
