import GRDB

// GRDB.swift 7.10.0 associations, as its documentation writes them: `including(required:)` for the join and
// `including(all:)` for the children of each parent, with hand-written records (GRDB's fastest record decoding).

struct GRDBParent: FetchableRecord, TableRecord {
    var id: Int
    var name: String
    static let databaseTableName = "parents"
    static let children = hasMany(GRDBChild.self)

    init(row: GRDB.Row) throws {
        id = row["id"]
        name = row["name"]
    }
}

struct GRDBChild: FetchableRecord, TableRecord {
    var id: Int
    var parentID: Int
    var name: String
    var value: Int
    static let databaseTableName = "children"
    static let parent = belongsTo(GRDBParent.self)

    init(row: GRDB.Row) throws {
        id = row["id"]
        parentID = row["parent_id"]
        name = row["name"]
        value = row["value"]
    }
}

/// A child and its parent, decoded from a row that includes the parent.
struct GRDBChildInfo: FetchableRecord {
    var child: GRDBChild
    var parent: GRDBParent

    init(row: GRDB.Row) throws {
        child = try GRDBChild(row: row)
        parent = row["parent"]
    }
}

/// A parent and its children, decoded from a row that includes them all.
struct GRDBParentInfo: FetchableRecord {
    var parent: GRDBParent
    var children: [GRDBChild]

    init(row: GRDB.Row) throws {
        parent = try GRDBParent(row: row)
        children = row["children"]
    }
}

enum GRDBRelations {
    static let join = Implementation(name: "GRDB including(required:)") { location, rows in
        let queue = try GRDBBench.prepared(
            location, schema: RelationsBench.schema,
            fill: RelationsBench.fill(parents: RelationsBench.parentCount(rows), perParent: 100))
        return {
            try queue.read { db in
                let infos = try GRDBChildInfo.fetchAll(db, GRDBChild.including(required: GRDBChild.parent))
                var sum: Int64 = 0
                for info in infos {
                    sum += Int64(
                        info.child.id + info.parent.id + info.child.value + info.child.name.utf8.count
                            + info.parent.name.utf8.count)
                }
                return sum
            }
        }
    }

    static let list = Implementation(name: "GRDB including(all:)") { location, rows in
        let queue = try GRDBBench.prepared(
            location, schema: RelationsBench.schema,
            fill: RelationsBench.fill(parents: RelationsBench.parentCount(rows), perParent: 10))
        return {
            try queue.read { db in
                let request = GRDBParent.including(all: GRDBParent.children).order(Column("id"))
                let infos = try GRDBParentInfo.fetchAll(db, request)
                var sum = Int64(infos.count)
                for (position, info) in infos.enumerated() {
                    for child in info.children {
                        sum += Int64(child.id + child.value + child.name.utf8.count + position)
                    }
                }
                return sum
            }
        }
    }
}
