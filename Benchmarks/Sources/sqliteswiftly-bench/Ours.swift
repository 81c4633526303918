import SQLiteSwiftly

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// SQLiteSwiftly with hand-written table models: InsertStatement, fetchAll, fetchOne, prepared statements, cursors.

struct OursInts: TableModel {
    var id, c1, c2, c3, c4, c5, c6, c7, c8, c9: Int

    static let tableName = "ints"
    static let columns = [Column("id", Int.self, primaryKey: true)] + (1...9).map { Column("c\($0)", Int.self) }

    init(index row: Int) {
        id = Dataset.int(row, 0)
        c1 = Dataset.int(row, 1)
        c2 = Dataset.int(row, 2)
        c3 = Dataset.int(row, 3)
        c4 = Dataset.int(row, 4)
        c5 = Dataset.int(row, 5)
        c6 = Dataset.int(row, 6)
        c7 = Dataset.int(row, 7)
        c8 = Dataset.int(row, 8)
        c9 = Dataset.int(row, 9)
    }

    init(row: borrowing Row) throws {
        id = try row[0]
        c1 = try row[1]
        c2 = try row[2]
        c3 = try row[3]
        c4 = try row[4]
        c5 = try row[5]
        c6 = try row[6]
        c7 = try row[7]
        c8 = try row[8]
        c9 = try row[9]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(c1)
        try encoder.encode(c2)
        try encoder.encode(c3)
        try encoder.encode(c4)
        try encoder.encode(c5)
        try encoder.encode(c6)
        try encoder.encode(c7)
        try encoder.encode(c8)
        try encoder.encode(c9)
    }
}

struct OursMixed: TableModel {
    let id: Int
    let score: Double
    let name: String
    let note: String?
    let payload: Data

    static let tableName = "mixed"
    static let columns = [
        Column("id", Int.self, primaryKey: true), Column("score", Double.self), Column("name", String.self),
        Column("note", String?.self), Column("payload", Data.self),
    ]

    init(index row: Int) {
        id = row + 1
        score = Dataset.score(row)
        name = Dataset.name(row)
        note = Dataset.note(row)
        payload = Data(Dataset.payload(row))
    }

    // Every column is read before the first property is set, as the Performance article recommends.
    init(row: borrowing Row) throws {
        let id: Int = try row[0]
        let score: Double = try row[1]
        let name: String = try row[2]
        let note: String? = try row[3]
        let payload: Data = try row[4]
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

enum Ours {
    static func open(_ location: Location) throws -> Connection {
        if location.isMemory { return try Connection.inMemory() }
        let db = try Connection(creating: location.path)
        try db.execute("PRAGMA journal_mode=WAL")
        try db.execute("PRAGMA synchronous=NORMAL")
        return db
    }

    static func prepared(_ location: Location, schema: String, fill: String? = nil) throws -> Connection {
        let db = try open(location)
        try db.execute(SQL(verbatim: schema))
        if let fill { try db.execute(SQL(verbatim: fill)) }
        return db
    }

    // MARK: - Hand-written models

    static let insertInts = Implementation(name: "SQLiteSwiftly hand-written") { location, rows in
        let db = try prepared(location, schema: Dataset.intsSchema)
        let models = (0..<rows).map(OursInts.init(index:))
        let insert = try db.makeInsertStatement(for: OursInts.self)
        return {
            try db.transaction {
                for model in models { try insert.insert(model) }
            }
            return Int64(models.count)
        }
    }

    static let insertIntsStatement = Implementation(name: "SQLiteSwiftly Statement.execute(binding:)") {
        location, rows in
        let db = try prepared(location, schema: Dataset.intsSchema)
        let models = (0..<rows).map(OursInts.init(index:))
        let insert = try db.prepare(
            SQL(verbatim: "INSERT INTO ints (\(Dataset.intColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"))
        return {
            try db.transaction {
                for m in models {
                    try insert.execute(binding: m.id, m.c1, m.c2, m.c3, m.c4, m.c5, m.c6, m.c7, m.c8, m.c9)
                }
            }
            return Int64(models.count)
        }
    }

    static let fetchInts = Implementation(name: "SQLiteSwiftly hand-written") { location, rows in
        let db = try prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        return {
            let models = try db.fetchAll(OursInts.self)
            return models.reduce(0) { $0 + Int64($1.c1) }
        }
    }

    static let cursorInts = Implementation(name: "SQLiteSwiftly Cursor") { location, rows in
        let db = try prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        return { try stream(db).0 }
    }

    static let insertMixed = Implementation(name: "SQLiteSwiftly hand-written") { location, rows in
        let db = try prepared(location, schema: Dataset.mixedSchema)
        let models = (0..<rows).map(OursMixed.init(index:))
        let insert = try db.makeInsertStatement(for: OursMixed.self)
        return {
            try db.transaction {
                for model in models { try insert.insert(model) }
            }
            return Int64(models.count)
        }
    }

    static let fetchMixed = Implementation(name: "SQLiteSwiftly hand-written") { location, rows in
        let db = try prepared(location, schema: Dataset.mixedSchema, fill: Dataset.fillMixed(rows))
        return {
            let models = try db.fetchAll(OursMixed.self)
            return models.reduce(0) { $0 + Int64($1.id) }
        }
    }

    static let lookupReadOne = Implementation(name: "SQLiteSwiftly fetchOne(_:where:)") { location, rows in
        let db = try prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        let ids = Dataset.lookupIDs(rows)
        return {
            try db.transaction(.deferred) {
                var sum: Int64 = 0
                for id in ids {
                    if let model = try db.fetchOne(OursInts.self, where: "id = ?", [id]) { sum += Int64(model.c1) }
                }
                return sum
            }
        }
    }

    static let lookupStatement = Implementation(name: "SQLiteSwiftly Statement.fetchOne([id])") { location, rows in
        let db = try prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        let ids = Dataset.lookupIDs(rows)
        let statement = try db.prepare(SQL(verbatim: "SELECT \(Dataset.intColumns) FROM ints WHERE id = ?"))
        return {
            try db.transaction(.deferred) {
                var sum: Int64 = 0
                for id in ids {
                    if let model = try statement.fetchOne(OursInts.self, [id]) { sum += Int64(model.c1) }
                }
                return sum
            }
        }
    }

    static let lookupTyped = Implementation(name: "SQLiteSwiftly Statement.fetchOne(binding:)") { location, rows in
        let db = try prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        let ids = Dataset.lookupIDs(rows)
        let statement = try db.prepare(SQL(verbatim: "SELECT \(Dataset.intColumns) FROM ints WHERE id = ?"))
        return {
            try db.transaction(.deferred) {
                var sum: Int64 = 0
                for id in ids {
                    if let model = try statement.fetchOne(OursInts.self, binding: id) { sum += Int64(model.c1) }
                }
                return sum
            }
        }
    }

    /// Streams every row of `ints` through a cursor; returns the c1 sum and the row count.
    static func stream(_ db: Connection) throws -> (Int64, Int) {
        let cursor = try db.fetchCursor(OursInts.self, SQL(verbatim: "SELECT \(Dataset.intColumns) FROM ints"))
        var sum: Int64 = 0
        var count = 0
        while let model = try cursor.next() {
            sum += Int64(model.c1)
            count += 1
        }
        return (sum, count)
    }

    static func schemas() throws -> (ints: String, mixed: String) {
        (try Connection.createTableSQL(for: OursInts.self)[0], try Connection.createTableSQL(for: OursMixed.self)[0])
    }
}
