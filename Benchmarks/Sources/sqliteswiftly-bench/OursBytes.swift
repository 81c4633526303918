import SQLiteSwiftly

// The mixed-row model with its blob as [UInt8] instead of Data: one allocation per blob instead of two (Data
// keeps a storage object and its bytes), to show what Foundation's Data costs in the mixed workloads.

struct OursMixedBytes: TableModel {
    let id: Int
    let score: Double
    let name: String
    let note: String?
    let payload: [UInt8]

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

    // Every column is read before the first property is set, as the Performance article recommends.
    init(row: borrowing Row) throws {
        let id: Int = try row[0]
        let score: Double = try row[1]
        let name: String = try row[2]
        let note: String? = try row[3]
        let payload: [UInt8] = try row[4]
        self.id = id
        self.score = score
        self.name = name
        self.note = note
        self.payload = payload
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
