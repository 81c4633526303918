import GRDB

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// GRDB.swift 7.10.0, as its documentation and its own performance tests write it: the fastest API (a prepared
// Statement with positional arguments, Row cursors read by index), records with hand-written `init(row:)` and
// `encode(to:)` by column name, and Codable records.

/// A record with hand-written decoding and encoding, as in GRDB's FetchRecordStructTests.
struct GRDBInts: FetchableRecord, PersistableRecord {
    var id, c1, c2, c3, c4, c5, c6, c7, c8, c9: Int
    static let databaseTableName = "ints"

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

    init(row: GRDB.Row) throws {
        id = row["id"]
        c1 = row["c1"]
        c2 = row["c2"]
        c3 = row["c3"]
        c4 = row["c4"]
        c5 = row["c5"]
        c6 = row["c6"]
        c7 = row["c7"]
        c8 = row["c8"]
        c9 = row["c9"]
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["c1"] = c1
        container["c2"] = c2
        container["c3"] = c3
        container["c4"] = c4
        container["c5"] = c5
        container["c6"] = c6
        container["c7"] = c7
        container["c8"] = c8
        container["c9"] = c9
    }
}

struct GRDBCodableInts: Codable, FetchableRecord, PersistableRecord {
    var id, c1, c2, c3, c4, c5, c6, c7, c8, c9: Int
    static let databaseTableName = "ints"

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
}

struct GRDBMixed: FetchableRecord, PersistableRecord {
    var id: Int
    var score: Double
    var name: String
    var note: String?
    var payload: Data
    static let databaseTableName = "mixed"

    init(index row: Int) {
        id = row + 1
        score = Dataset.score(row)
        name = Dataset.name(row)
        note = Dataset.note(row)
        payload = Data(Dataset.payload(row))
    }

    init(row: GRDB.Row) throws {
        id = row["id"]
        score = row["score"]
        name = row["name"]
        note = row["note"]
        payload = row["payload"]
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["score"] = score
        container["name"] = name
        container["note"] = note
        container["payload"] = payload
    }
}

struct GRDBCodableMixed: Codable, FetchableRecord, PersistableRecord {
    var id: Int
    var score: Double
    var name: String
    var note: String?
    var payload: Data
    static let databaseTableName = "mixed"

    init(index row: Int) {
        id = row + 1
        score = Dataset.score(row)
        name = Dataset.name(row)
        note = Dataset.note(row)
        payload = Data(Dataset.payload(row))
    }
}

enum GRDBBench {
    static func open(_ location: Location) throws -> DatabaseQueue {
        if location.isMemory { return try DatabaseQueue() }
        let queue = try DatabaseQueue(path: location.path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode=WAL")
            try db.execute(sql: "PRAGMA synchronous=NORMAL")
        }
        return queue
    }

    static func prepared(_ location: Location, schema: String, fill: String? = nil) throws -> DatabaseQueue {
        let queue = try open(location)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: schema)
            if let fill { try db.execute(sql: fill) }
        }
        return queue
    }

    // MARK: - Fastest API: Statement with positional arguments, rows read by index

    static let insertIntsFast = Implementation(name: "GRDB fastest API") { location, rows in
        let queue = try prepared(location, schema: Dataset.intsSchema)
        let values = (0..<rows).map { row in (0..<10).map { Dataset.int(row, $0) } }
        return {
            try queue.write { db in
                let statement = try db.makeStatement(
                    sql: "INSERT INTO ints (\(Dataset.intColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                for row in values {
                    statement.setUncheckedArguments(
                        [row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9]])
                    try statement.execute()
                }
            }
            return Int64(values.count)
        }
    }

    static let fetchIntsFast = Implementation(name: "GRDB fastest API") { location, rows in
        let queue = try prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        return {
            let models = try queue.read { db in
                var models: [GRDBInts] = []
                let cursor = try GRDB.Row.fetchCursor(db, sql: "SELECT \(Dataset.intColumns) FROM ints")
                while let row = try cursor.next() {
                    models.append(
                        GRDBInts(
                            id: row[0], c1: row[1], c2: row[2], c3: row[3], c4: row[4], c5: row[5], c6: row[6],
                            c7: row[7], c8: row[8], c9: row[9]))
                }
                return models
            }
            return models.reduce(0) { $0 + Int64($1.c1) }
        }
    }

    static let insertMixedFast = Implementation(name: "GRDB fastest API") { location, rows in
        let queue = try prepared(location, schema: Dataset.mixedSchema)
        let values = (0..<rows).map(GRDBMixed.init(index:))
        return {
            try queue.write { db in
                let statement = try db.makeStatement(
                    sql: "INSERT INTO mixed (\(Dataset.mixedColumns)) VALUES (?, ?, ?, ?, ?)")
                for row in values {
                    statement.setUncheckedArguments([row.id, row.score, row.name, row.note, row.payload])
                    try statement.execute()
                }
            }
            return Int64(values.count)
        }
    }

    static let fetchMixedFast = Implementation(name: "GRDB fastest API") { location, rows in
        let queue = try prepared(location, schema: Dataset.mixedSchema, fill: Dataset.fillMixed(rows))
        return {
            let models = try queue.read { db in
                var models: [GRDBMixed] = []
                let cursor = try GRDB.Row.fetchCursor(db, sql: "SELECT \(Dataset.mixedColumns) FROM mixed")
                while let row = try cursor.next() {
                    models.append(GRDBMixed(id: row[0], score: row[1], name: row[2], note: row[3], payload: row[4]))
                }
                return models
            }
            return models.reduce(0) { $0 + Int64($1.id) }
        }
    }

    static let lookupFast = Implementation(name: "GRDB fastest API") { location, rows in
        let queue = try prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        let ids = Dataset.lookupIDs(rows)
        return {
            try queue.read { db in
                let statement = try db.cachedStatement(sql: "SELECT \(Dataset.intColumns) FROM ints WHERE id = ?")
                var sum: Int64 = 0
                for id in ids {
                    if let row = try GRDB.Row.fetchOne(statement, arguments: [id]) {
                        let model = GRDBInts(
                            id: row[0], c1: row[1], c2: row[2], c3: row[3], c4: row[4], c5: row[5], c6: row[6],
                            c7: row[7], c8: row[8], c9: row[9])
                        sum += Int64(model.c1)
                    }
                }
                return sum
            }
        }
    }

    // MARK: - Records

    static func insertRecords<Record: PersistableRecord & SendableMetatype>(
        _ name: String, _ schema: @escaping @Sendable () -> String,
        _ make: @escaping @Sendable (Int) -> Record
    ) -> Implementation {
        Implementation(name: name) { location, rows in
            let queue = try prepared(location, schema: schema())
            let values = (0..<rows).map(make)
            return {
                try queue.write { db in
                    for value in values { try value.insert(db) }
                }
                return Int64(values.count)
            }
        }
    }

    static func fetchRecords<Record: FetchableRecord & TableRecord & SendableMetatype>(
        _ name: String, _ type: Record.Type, schema: @escaping @Sendable () -> String,
        fill: @escaping @Sendable (Int) -> String,
        checksum: @escaping @Sendable (Record) -> Int
    ) -> Implementation {
        Implementation(name: name) { location, rows in
            let queue = try prepared(location, schema: schema(), fill: fill(rows))
            return {
                let models = try queue.read { db in try Record.fetchAll(db) }
                return models.reduce(0) { $0 + Int64(checksum($1)) }
            }
        }
    }

    static func lookupRecords<Record: FetchableRecord & TableRecord & SendableMetatype>(
        _ name: String, _ type: Record.Type, checksum: @escaping @Sendable (Record) -> Int
    ) -> Implementation {
        Implementation(name: name) { location, rows in
            let queue = try prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
            let ids = Dataset.lookupIDs(rows)
            return {
                try queue.read { db in
                    var sum: Int64 = 0
                    for id in ids {
                        if let model = try Record.fetchOne(db, key: id) { sum += Int64(checksum(model)) }
                    }
                    return sum
                }
            }
        }
    }

    static let insertIntsRecord = insertRecords("GRDB records", { Dataset.intsSchema }, GRDBInts.init(index:))
    static let insertIntsCodable = insertRecords("GRDB Codable", { Dataset.intsSchema }, GRDBCodableInts.init(index:))
    static let insertMixedRecord = insertRecords("GRDB records", { Dataset.mixedSchema }, GRDBMixed.init(index:))
    static let insertMixedCodable = insertRecords(
        "GRDB Codable", { Dataset.mixedSchema }, GRDBCodableMixed.init(index:))

    static let fetchIntsRecord = fetchRecords(
        "GRDB records", GRDBInts.self, schema: { Dataset.intsSchema }, fill: Dataset.fillInts, checksum: \.c1)
    static let fetchIntsCodable = fetchRecords(
        "GRDB Codable", GRDBCodableInts.self, schema: { Dataset.intsSchema }, fill: Dataset.fillInts, checksum: \.c1)
    static let fetchMixedRecord = fetchRecords(
        "GRDB records", GRDBMixed.self, schema: { Dataset.mixedSchema }, fill: Dataset.fillMixed, checksum: \.id)
    static let fetchMixedCodable = fetchRecords(
        "GRDB Codable", GRDBCodableMixed.self, schema: { Dataset.mixedSchema }, fill: Dataset.fillMixed,
        checksum: \.id)

    static let lookupRecord = lookupRecords("GRDB records", GRDBInts.self, checksum: \.c1)
    static let lookupCodable = lookupRecords("GRDB Codable", GRDBCodableInts.self, checksum: \.c1)

    /// Streams every row of `ints` through a record cursor.
    static func stream(_ queue: DatabaseQueue) throws -> (Int64, Int) {
        try queue.read { db in
            let cursor = try GRDBInts.fetchCursor(db, sql: "SELECT \(Dataset.intColumns) FROM ints")
            var sum: Int64 = 0
            var count = 0
            while let model = try cursor.next() {
                sum += Int64(model.c1)
                count += 1
            }
            return (sum, count)
        }
    }
}

extension GRDBInts {
    init(id: Int, c1: Int, c2: Int, c3: Int, c4: Int, c5: Int, c6: Int, c7: Int, c8: Int, c9: Int) {
        (self.id, self.c1, self.c2, self.c3, self.c4) = (id, c1, c2, c3, c4)
        (self.c5, self.c6, self.c7, self.c8, self.c9) = (c5, c6, c7, c8, c9)
    }
}

extension GRDBMixed {
    init(id: Int, score: Double, name: String, note: String?, payload: Data) {
        (self.id, self.score, self.name, self.note, self.payload) = (id, score, name, note, payload)
    }
}
