import SQLiteSwiftly

// The mixed-row model with its blob as [UInt8] instead of Data: one allocation per blob instead of two (Data
// keeps a storage object and its bytes), to show what Foundation's Data costs in the mixed workloads.

struct OursMixedBytes: TableModel {
    var id: Int
    var score: Double
    var name: String
    var note: String?
    var payload: [UInt8]

    static let tableName = "mixed"
    static let columns = [
        Column("id", Int.self, primaryKey: true), Column("score", Double.self), Column("name", String.self),
        Column("note", String?.self), Column("payload", [UInt8].self),
    ]

    init(index row: Int) {
        id = row + 1
        score = Dataset.score(row)
        name = Dataset.name(row)
        note = Dataset.note(row)
        payload = Dataset.payload(row)
    }

    init(row: borrowing Row) throws {
        id = try row[0]
        score = try row[1]
        name = try row[2]
        note = try row[3]
        payload = try row[4]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(score)
        try encoder.encode(name)
        try encoder.encode(note)
        try encoder.encode(payload)
    }
}

enum OursBytes {
    static let insertMixed = Implementation(name: "SQLiteSwiftly hand-written, [UInt8] blob") { location, rows in
        let db = try Ours.prepared(location, schema: Dataset.mixedSchema)
        let models = (0..<rows).map(OursMixedBytes.init(index:))
        let insert = try db.makeInsertStatement(for: OursMixedBytes.self)
        return {
            try db.transaction {
                for model in models { try insert.insert(model) }
            }
            return Int64(models.count)
        }
    }

    static let fetchMixed = Implementation(name: "SQLiteSwiftly hand-written, [UInt8] blob") { location, rows in
        let db = try Ours.prepared(location, schema: Dataset.mixedSchema, fill: Dataset.fillMixed(rows))
        return {
            let models = try db.fetchAll(OursMixedBytes.self)
            return models.reduce(0) { $0 + Int64($1.id) }
        }
    }
}
