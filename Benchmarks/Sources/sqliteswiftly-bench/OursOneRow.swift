import SQLiteSwiftly

// SQLiteSwiftly's one-row calls on Connection, whose statements the connection caches per model: db.insert(_:)
// beside the InsertStatement of `Ours`, and fetchOne(_:id:) beside the prepared lookups.

enum OursOneRow {
    static let insertInts = Implementation(name: "SQLiteSwiftly db.insert(_:)") { location, rows in
        let db = try Ours.prepared(location, schema: Dataset.intsSchema)
        let models = (0..<rows).map(OursInts.init(index:))
        return {
            try db.transaction {
                for model in models { try db.insert(model) }
            }
            return Int64(models.count)
        }
    }

    static let insertMixed = Implementation(name: "SQLiteSwiftly db.insert(_:)") { location, rows in
        let db = try Ours.prepared(location, schema: Dataset.mixedSchema)
        let models = (0..<rows).map(OursMixed.init(index:))
        return {
            try db.transaction {
                for model in models { try db.insert(model) }
            }
            return Int64(models.count)
        }
    }

    static let lookup = Implementation(name: "SQLiteSwiftly fetchOne(_:id:)") { location, rows in
        let db = try Ours.prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        let ids = Dataset.lookupIDs(rows)
        return {
            try db.transaction(.deferred) {
                var sum: Int64 = 0
                for id in ids {
                    if let model = try db.fetchOne(OursInts.self, id: id) { sum += Int64(model.c1) }
                }
                return sum
            }
        }
    }
}
