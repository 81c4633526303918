import CSQLiteSwiftly
import RawC
import SQLiteSwiftly

// Joins and relations: a two-table join read into (child, parent), and the children of many parents loaded in one
// query and grouped by parent. Parents have `rows / 100` rows (1,000 by default); the join reads `rows` children
// (100 per parent), the related-rows workloads 10 children per parent. Names are longer than 15 bytes, so that
// Swift strings are allocated as C copies are.

struct OursParent: TableModel {
    var id: Int
    var name: String

    static let tableName = "parents"
    static let columns = [Column("id", Int.self, primaryKey: true), Column("name", String.self)]
    static let children = ToManyRelation<OursParent, OursChild>.hasMany()

    init(id: Int, name: String) {
        self.id = id
        self.name = name
    }

    init(row: borrowing Row) throws {
        let id: Int = try row[0]
        let name: String = try row[1]
        self.id = id
        self.name = name
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(name)
    }
}

struct OursChild: TableModel {
    var id: Int
    var parentID: Int
    var name: String
    var value: Int

    static let tableName = "children"
    static let columns = [
        Column("id", Int.self, primaryKey: true),
        Column("parent_id", Int.self, references: ForeignKey("parents", "id")),
        Column("name", String.self),
        Column("value", Int.self),
    ]

    init(id: Int, parentID: Int, name: String, value: Int) {
        self.id = id
        self.parentID = parentID
        self.name = name
        self.value = value
    }

    init(row: borrowing Row) throws {
        let id: Int = try row[0]
        let parentID: Int = try row[1]
        let name: String = try row[2]
        let value: Int = try row[3]
        self.id = id
        self.parentID = parentID
        self.name = name
        self.value = value
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(parentID)
        try encoder.encode(name)
        try encoder.encode(value)
    }
}

enum RelationsBench {
    static let schema = """
        CREATE TABLE parents (id INTEGER PRIMARY KEY NOT NULL, name TEXT NOT NULL);
        CREATE TABLE children (id INTEGER PRIMARY KEY NOT NULL, parent_id INTEGER NOT NULL REFERENCES parents (id),
            name TEXT NOT NULL, value INTEGER NOT NULL);
        CREATE INDEX children_by_parent ON children (parent_id);
        """

    static func parentCount(_ rows: Int) -> Int { max(rows / 100, 1) }

    /// `parents` parents, and `perParent` children each, numbered so that a parent's children are not adjacent.
    static func fill(parents: Int, perParent: Int) -> String {
        let children = parents * perParent
        return "WITH RECURSIVE p(r) AS (SELECT 0 UNION ALL SELECT r + 1 FROM p WHERE r + 1 < \(parents)) "
            + "INSERT INTO parents (id, name) SELECT r + 1, 'parent name number ' || r FROM p;\n"
            + "WITH RECURSIVE c(r) AS (SELECT 0 UNION ALL SELECT r + 1 FROM c WHERE r + 1 < \(children)) "
            + "INSERT INTO children (id, parent_id, name, value) SELECT r + 1, r % \(parents) + 1, "
            + "'child name number ' || r, r * 3 FROM c"
    }

    /// A SQLiteSwiftly connection with the tables filled (the schema is a script: `Ours.prepared` runs one statement).
    static func prepared(_ location: Location, perParent: Int, rows: Int) throws -> Connection {
        let db = try Ours.open(location)
        try db.executeScript(SQL(verbatim: schema + fill(parents: parentCount(rows), perParent: perParent)))
        return db
    }

    static let joinSQL = "SELECT children.*, parents.* FROM children JOIN parents ON parents.id = children.parent_id"

    static var workloads: [Workload] {
        [
            Workload(
                name: "join 2 tables into (child, parent)",
                implementations: [joinRaw, joinSwift, joinOurs, GRDBRelations.join]),
            Workload(
                name: "children of 1,000 parents (10 each)",
                implementations: [childrenRaw, childrenSwift, childrenOurs]),
            Workload(
                name: "1,000 parents with their children",
                implementations: [listRaw, listSwift, listOurs, GRDBRelations.list]),
        ]
    }

    static let joinRaw = Implementation(name: Raw.name) { location, rows in
        let db = try Raw.prepared(location, schema: schema, fill: fill(parents: parentCount(rows), perParent: 100))
        return {
            var result: UnsafeMutablePointer<rawc_joined>?
            var count: Int32 = 0
            try RawConnection.check(rawc_fetch_joined(db.handle, &result, &count), "rawc_fetch_joined")
            defer { rawc_free_joined(result, count) }
            return rawc_joined_checksum(result, count)
        }
    }

    static let joinOurs = Implementation(name: "SQLiteSwiftly (Child, Parent)") { location, rows in
        let db = try prepared(location, perParent: 100, rows: rows)
        return {
            joinChecksum(try db.fetchAll((OursChild, OursParent).self, SQL(verbatim: joinSQL)))
        }
    }

    /// The checksum of joined rows, read in place (as C reads its array).
    static func joinChecksum(_ joined: [(OursChild, OursParent)]) -> Int64 {
        var sum: Int64 = 0
        for index in joined.indices {
            sum += Int64(joined[index].0.id + joined[index].1.id + joined[index].0.value)
            sum += Int64(joined[index].0.name.utf8.count + joined[index].1.name.utf8.count)
        }
        return sum
    }

    /// A child from the first four columns of the current row, with the C API from Swift.
    @inline(__always) static func child(_ statement: OpaquePointer) -> OursChild {
        OursChild(
            id: Int(sqlite3_column_int64(statement, 0)), parentID: Int(sqlite3_column_int64(statement, 1)),
            name: SwiftCAPI.text(statement, 2), value: Int(sqlite3_column_int64(statement, 3)))
    }

    static let joinSwift = Implementation(name: SwiftCAPI.name) { location, rows in
        let db = try Raw.prepared(location, schema: schema, fill: fill(parents: parentCount(rows), perParent: 100))
        return {
            let statement = try SwiftCAPI.prepare(db.handle, joinSQL)
            defer { sqlite3_finalize(statement) }
            var joined: [(OursChild, OursParent)] = []
            try SwiftCAPI.forEachRow(db.handle, statement) {
                joined.append(
                    (
                        child(statement),
                        OursParent(id: Int(sqlite3_column_int64(statement, 4)), name: SwiftCAPI.text(statement, 5))
                    ))
            }
            return joinChecksum(joined)
        }
    }

    /// The children of `parents` with the C API from Swift: one `IN (?, ...)` query, grouped through a dictionary
    /// from each parent's id to its position.
    static func swiftChildren(_ db: RawConnection, of parents: [OursParent]) throws -> [[OursChild]] {
        let sql =
            "SELECT id, parent_id, name, value FROM children WHERE parent_id IN ("
            + Array(repeating: "?", count: parents.count).joined(separator: ",") + ")"
        var statement: OpaquePointer?
        try SwiftCAPI.check(db.handle, sqlite3_prepare_v2(db.handle, sql, -1, &statement, nil), sql)
        guard let statement else { throw BenchError("no statement") }
        defer { sqlite3_finalize(statement) }
        var positions: [Int: Int] = [:]
        positions.reserveCapacity(parents.count)
        for (position, parent) in parents.enumerated() {
            sqlite3_bind_int64(statement, Int32(position + 1), Int64(parent.id))
            if positions[parent.id] == nil { positions[parent.id] = position }
        }
        var grouped = [[OursChild]](repeating: [], count: parents.count)
        try SwiftCAPI.forEachRow(db.handle, statement) {
            let child = child(statement)
            if let position = positions[child.parentID] { grouped[position].append(child) }
        }
        return grouped
    }

    static func swiftParents(_ db: RawConnection) throws -> [OursParent] {
        let statement = try SwiftCAPI.prepare(db.handle, "SELECT id, name FROM parents ORDER BY id")
        defer { sqlite3_finalize(statement) }
        var parents: [OursParent] = []
        try SwiftCAPI.forEachRow(db.handle, statement) {
            parents.append(OursParent(id: Int(sqlite3_column_int64(statement, 0)), name: SwiftCAPI.text(statement, 1)))
        }
        return parents
    }

    static let childrenSwift = Implementation(name: SwiftCAPI.name + ", IN (...) and grouping") { location, rows in
        let db = try Raw.prepared(location, schema: schema, fill: fill(parents: parentCount(rows), perParent: 10))
        let parents = try swiftParents(db)
        return { checksum(try swiftChildren(db, of: parents)) }
    }

    static let listSwift = Implementation(name: SwiftCAPI.name + ", IN (...) and grouping") { location, rows in
        let db = try Raw.prepared(location, schema: schema, fill: fill(parents: parentCount(rows), perParent: 10))
        return {
            let parents = try swiftParents(db)
            return checksum(try swiftChildren(db, of: parents)) + Int64(parents.count)
        }
    }

    /// The parents as C structs, read before timing.
    final class RawParents {
        var rows: UnsafeMutablePointer<rawc_parent>?
        var count: Int32 = 0

        init(_ db: RawConnection) throws {
            try RawConnection.check(rawc_fetch_parents(db.handle, &rows, &count), "rawc_fetch_parents")
        }

        deinit { rawc_free_parents(rows, count) }
    }

    static func rawChildren(_ db: RawConnection, of parents: RawParents) throws -> Int64 {
        var grouped = rawc_grouped()
        try RawConnection.check(
            rawc_fetch_children(db.handle, parents.rows, parents.count, &grouped), "rawc_fetch_children")
        defer { rawc_free_grouped(&grouped) }
        return rawc_grouped_checksum(&grouped, parents.count)
    }

    static func checksum(_ children: [[OursChild]]) -> Int64 {
        var sum: Int64 = 0
        for parent in children.indices {
            for child in children[parent] { sum += Int64(child.id + child.value + child.name.utf8.count + parent) }
        }
        return sum
    }

    static let childrenRaw = Implementation(name: "raw C, IN (...) and grouping") { location, rows in
        let db = try Raw.prepared(location, schema: schema, fill: fill(parents: parentCount(rows), perParent: 10))
        let parents = try RawParents(db)
        return { try rawChildren(db, of: parents) }
    }

    static let childrenOurs = Implementation(name: "SQLiteSwiftly fetchRelated") { location, rows in
        let db = try prepared(location, perParent: 10, rows: rows)
        let parents = try db.fetchAll(OursParent.self, "SELECT * FROM parents ORDER BY id")
        return { checksum(try db.fetchRelated(OursParent.children, of: parents)) }
    }

    static let listRaw = Implementation(name: "raw C, IN (...) and grouping") { location, rows in
        let db = try Raw.prepared(location, schema: schema, fill: fill(parents: parentCount(rows), perParent: 10))
        return {
            let parents = try RawParents(db)
            return try rawChildren(db, of: parents) + Int64(parents.count)
        }
    }

    static let listOurs = Implementation(name: "SQLiteSwiftly fetchAll + fetchRelated") { location, rows in
        let db = try prepared(location, perParent: 10, rows: rows)
        return {
            let parents = try db.fetchAll(OursParent.self, "SELECT * FROM parents ORDER BY id")
            return checksum(try db.fetchRelated(OursParent.children, of: parents)) + Int64(parents.count)
        }
    }
}
