import SQLiteSwiftly
import SQLiteSwiftlyMacros

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// SQLiteSwiftly with models derived by the @Table macro: the same tables, workloads and statements as the
// hand-written models, with no hand-written column list, decoder or encoder.

@Table("ints")
struct DerivedInts {
    @TableColumn(primaryKey: true) var id: Int
    var c1, c2, c3, c4, c5, c6, c7, c8, c9: Int
}

@Table("mixed")
struct DerivedMixed {
    @TableColumn(primaryKey: true) var id: Int
    var score: Double
    var name: String
    var note: String?
    var payload: Data
}

extension DerivedInts {
    init(index row: Int) {
        let value = { (column: Int) in Dataset.int(row, column) }
        self.init(
            id: value(0), c1: value(1), c2: value(2), c3: value(3), c4: value(4), c5: value(5), c6: value(6),
            c7: value(7), c8: value(8), c9: value(9))
    }
}

extension DerivedMixed {
    init(index row: Int) {
        self.init(
            id: row + 1, score: Dataset.score(row), name: Dataset.name(row), note: Dataset.note(row),
            payload: Data(Dataset.payload(row)))
    }
}

enum OursDerived {
    static let insertInts = Implementation(name: "SQLiteSwiftly @Table") { location, rows in
        let db = try Ours.prepared(location, schema: Dataset.intsSchema)
        let models = (0..<rows).map(DerivedInts.init(index:))
        let insert = try db.makeInsertStatement(for: DerivedInts.self)
        return {
            try db.transaction {
                for model in models { try insert.insert(model) }
            }
            return Int64(models.count)
        }
    }

    static let fetchInts = Implementation(name: "SQLiteSwiftly @Table") { location, rows in
        let db = try Ours.prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        return {
            let models = try db.fetchAll(DerivedInts.self)
            return models.reduce(0) { $0 + Int64($1.c1) }
        }
    }

    static let insertMixed = Implementation(name: "SQLiteSwiftly @Table") { location, rows in
        let db = try Ours.prepared(location, schema: Dataset.mixedSchema)
        let models = (0..<rows).map(DerivedMixed.init(index:))
        let insert = try db.makeInsertStatement(for: DerivedMixed.self)
        return {
            try db.transaction {
                for model in models { try insert.insert(model) }
            }
            return Int64(models.count)
        }
    }

    static let fetchMixed = Implementation(name: "SQLiteSwiftly @Table") { location, rows in
        let db = try Ours.prepared(location, schema: Dataset.mixedSchema, fill: Dataset.fillMixed(rows))
        return {
            let models = try db.fetchAll(DerivedMixed.self)
            return models.reduce(0) { $0 + Int64($1.id) }
        }
    }

    static let lookup = Implementation(name: "SQLiteSwiftly @Table, Statement.fetchOne(binding:)") { location, rows in
        let db = try Ours.prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        let ids = Dataset.lookupIDs(rows)
        let statement = try db.prepare(SQL(verbatim: "SELECT \(Dataset.intColumns) FROM ints WHERE id = ?"))
        return {
            try db.transaction(.deferred) {
                var sum: Int64 = 0
                for id in ids {
                    if let model = try statement.fetchOne(DerivedInts.self, binding: id) { sum += Int64(model.c1) }
                }
                return sum
            }
        }
    }
}
