import SQLiteSwiftly

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// SQLiteSwiftly with Codable models (CodableTableModel): the same tables and statements as the hand-written
// models, with init(row:) and encode(to:) coming from the synthesized Codable conformance.

struct OursCodableInts: CodableTableModel {
    var id, c1, c2, c3, c4, c5, c6, c7, c8, c9: Int

    static let tableName = "ints"
    static let columns = OursInts.columns

    init(index row: Int) {
        let model = OursInts(index: row)
        (id, c1, c2, c3, c4) = (model.id, model.c1, model.c2, model.c3, model.c4)
        (c5, c6, c7, c8, c9) = (model.c5, model.c6, model.c7, model.c8, model.c9)
    }
}

struct OursCodableMixed: CodableTableModel {
    var id: Int
    var score: Double
    var name: String
    var note: String?
    var payload: Data

    static let tableName = "mixed"
    static let columns = OursMixed.columns

    init(index row: Int) {
        let model = OursMixed(index: row)
        (id, score, name, note, payload) = (model.id, model.score, model.name, model.note, model.payload)
    }
}

enum OursCodable {
    static let name = "SQLiteSwiftly Codable"

    static func insert<Model: TableModel & SendableMetatype>(
        _ schema: @escaping @Sendable () -> String, _ make: @escaping @Sendable (Int) -> Model
    )
        -> Implementation
    {
        Implementation(name: name) { location, rows in
            let db = try Ours.prepared(location, schema: schema())
            let models = (0..<rows).map(make)
            let insert = try db.makeInsertStatement(for: Model.self)
            return {
                try db.transaction {
                    for model in models { try insert.insert(model) }
                }
                return Int64(models.count)
            }
        }
    }

    static let insertInts = insert({ Dataset.intsSchema }, OursCodableInts.init(index:))
    static let insertMixed = insert({ Dataset.mixedSchema }, OursCodableMixed.init(index:))

    static let fetchInts = Implementation(name: name) { location, rows in
        let db = try Ours.prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        return {
            let models = try db.fetchAll(OursCodableInts.self)
            return models.reduce(0) { $0 + Int64($1.c1) }
        }
    }

    static let fetchMixed = Implementation(name: name) { location, rows in
        let db = try Ours.prepared(location, schema: Dataset.mixedSchema, fill: Dataset.fillMixed(rows))
        return {
            let models = try db.fetchAll(OursCodableMixed.self)
            return models.reduce(0) { $0 + Int64($1.id) }
        }
    }

    static let lookup = Implementation(name: name + " fetchOne(_:where:)") { location, rows in
        let db = try Ours.prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        let ids = Dataset.lookupIDs(rows)
        return {
            try db.transaction(.deferred) {
                var sum: Int64 = 0
                for id in ids {
                    if let model = try db.fetchOne(OursCodableInts.self, where: "id = ?", [id]) {
                        sum += Int64(model.c1)
                    }
                }
                return sum
            }
        }
    }
}
