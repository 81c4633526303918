import CSQLiteSwiftly

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The SQLite C API called from Swift, as a Swift developer writes it without a library (the "hand-written C API
// calls" of issue #14): sqlite3_* directly, producing the same Swift values and structs as the SQLiteSwiftly
// implementations. Text is read with sqlite3_column_text + sqlite3_column_bytes + String(decoding:as:), blobs with
// Data(bytes:count:); text and blobs are bound SQLITE_STATIC (a nil destructor) inside the closures that lend
// their bytes. Each body mirrors its raw C twin in rawc.c (prepare_v3 PERSISTENT, one transaction, bind, step,
// reset) and reads columns without checking their types, as rawc.c does. The connection is the raw C one
// (RawConnection), opened and filled before timing.

extension OursInts {
    init(id: Int, c1: Int, c2: Int, c3: Int, c4: Int, c5: Int, c6: Int, c7: Int, c8: Int, c9: Int) {
        self.id = id
        self.c1 = c1
        self.c2 = c2
        self.c3 = c3
        self.c4 = c4
        self.c5 = c5
        self.c6 = c6
        self.c7 = c7
        self.c8 = c8
        self.c9 = c9
    }
}

extension OursMixed {
    init(id: Int, score: Double, name: String, note: String?, payload: Data) {
        self.id = id
        self.score = score
        self.name = name
        self.note = note
        self.payload = payload
    }
}

extension OursOrder {
    init(
        id: Int, customerID: Int, total: Double, status: String, email: String?, phone: String?, shipName: String?,
        shipLine1: String?, shipLine2: String?, shipCity: String?, shipRegion: String?, shipPostcode: String?,
        shipCountry: String?, note: String?
    ) {
        self.id = id
        self.customerID = customerID
        self.total = total
        self.status = status
        self.email = email
        self.phone = phone
        self.shipName = shipName
        self.shipLine1 = shipLine1
        self.shipLine2 = shipLine2
        self.shipCity = shipCity
        self.shipRegion = shipRegion
        self.shipPostcode = shipPostcode
        self.shipCountry = shipCountry
        self.note = note
    }
}

/// The workloads written against the SQLite C API from Swift, with no library in between.
enum SwiftCAPI {
    static let name = "C API from Swift"

    static let insertIntsSQL =
        "INSERT INTO ints (id, c1, c2, c3, c4, c5, c6, c7, c8, c9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    static let selectIntsSQL = "SELECT id, c1, c2, c3, c4, c5, c6, c7, c8, c9 FROM ints"
    static let lookupIntsSQL = "SELECT id, c1, c2, c3, c4, c5, c6, c7, c8, c9 FROM ints WHERE id = ?"
    static let insertMixedSQL = "INSERT INTO mixed (id, score, name, note, payload) VALUES (?, ?, ?, ?, ?)"
    static let selectMixedSQL = "SELECT id, score, name, note, payload FROM mixed"
    static let selectOrdersSQL =
        "SELECT id, customer_id, total, status, email, phone, ship_name, ship_line1, ship_line2, ship_city, "
        + "ship_region, ship_postcode, ship_country, note FROM orders"

    // MARK: - Helpers

    static func failure(_ db: OpaquePointer, _ code: Int32, _ what: String) -> BenchError {
        BenchError("\(what) failed with SQLite code \(code): \(String(cString: sqlite3_errmsg(db)))")
    }

    static func check(_ db: OpaquePointer, _ code: Int32, _ what: String) throws {
        guard code == SQLITE_OK else { throw failure(db, code, what) }
    }

    static func exec(_ db: OpaquePointer, _ sql: String) throws {
        try check(db, sqlite3_exec(db, sql, nil, nil, nil), sql)
    }

    /// Compiles `sql` as rawc.c does: sqlite3_prepare_v3 with SQLITE_PREPARE_PERSISTENT.
    static func prepare(_ db: OpaquePointer, _ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        try check(db, sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil), sql)
        guard let statement else { throw BenchError("no statement in \(sql)") }
        return statement
    }

    /// Column `column` as a String: sqlite3_column_text, then sqlite3_column_bytes, decoded as UTF-8.
    @inline(__always) static func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        guard let text = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Column `column` as a String, or nil for SQL NULL (checked with sqlite3_column_type).
    @inline(__always) static func optionalText(_ statement: OpaquePointer, _ column: Int32) -> String? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : text(statement, column)
    }

    @inline(__always) static func ints(_ statement: OpaquePointer) -> OursInts {
        OursInts(
            id: Int(sqlite3_column_int64(statement, 0)), c1: Int(sqlite3_column_int64(statement, 1)),
            c2: Int(sqlite3_column_int64(statement, 2)), c3: Int(sqlite3_column_int64(statement, 3)),
            c4: Int(sqlite3_column_int64(statement, 4)), c5: Int(sqlite3_column_int64(statement, 5)),
            c6: Int(sqlite3_column_int64(statement, 6)), c7: Int(sqlite3_column_int64(statement, 7)),
            c8: Int(sqlite3_column_int64(statement, 8)), c9: Int(sqlite3_column_int64(statement, 9)))
    }

    /// Column `column` as an Int, refused unless its storage class is INTEGER, as SQLiteSwiftly reads an `Int`:
    /// sqlite3_column_value, sqlite3_value_type, sqlite3_value_int64 (the reads of "raw C, checked").
    @inline(__always) static func checkedInt(_ statement: OpaquePointer, _ column: Int32) throws -> Int {
        let value = sqlite3_column_value(statement, column)
        guard sqlite3_value_type(value) == SQLITE_INTEGER else { throw notInteger(column) }
        return Int(sqlite3_value_int64(value))
    }

    static func notInteger(_ column: Int32) -> BenchError { BenchError("column \(column) does not hold an INTEGER") }

    @inline(__always) static func checkedInts(_ statement: OpaquePointer) throws -> OursInts {
        OursInts(
            id: try checkedInt(statement, 0), c1: try checkedInt(statement, 1), c2: try checkedInt(statement, 2),
            c3: try checkedInt(statement, 3), c4: try checkedInt(statement, 4), c5: try checkedInt(statement, 5),
            c6: try checkedInt(statement, 6), c7: try checkedInt(statement, 7), c8: try checkedInt(statement, 8),
            c9: try checkedInt(statement, 9))
    }

    /// Steps `statement` through its rows, calling `body` on each; throws on an error.
    @inline(__always) static func forEachRow(
        _ db: OpaquePointer, _ statement: OpaquePointer, _ body: () throws -> Void
    ) throws {
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw failure(db, code, "sqlite3_step") }
            try body()
        }
    }

    /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT`, rolling back if it throws.
    @inline(__always) static func inTransaction(_ handle: OpaquePointer, _ body: () throws -> Void) throws {
        try exec(handle, "BEGIN IMMEDIATE")
        do {
            try body()
        } catch {
            sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
        try exec(handle, "COMMIT")
    }

    /// Checks that an insert's step is done, and resets the statement for the next row.
    @inline(__always) static func finishInsert(_ handle: OpaquePointer, _ statement: OpaquePointer, _ code: Int32)
        throws
    {
        guard code == SQLITE_DONE else { throw failure(handle, code, "sqlite3_step") }
        try check(handle, sqlite3_reset(statement), "sqlite3_reset")
    }

    // MARK: - Workloads

    static let insertInts = Implementation(name: name) { location, rows in
        let db = try Raw.prepared(location, schema: Dataset.intsSchema)
        let models = (0..<rows).map(OursInts.init(index:))
        return {
            let handle = db.handle
            let statement = try prepare(handle, insertIntsSQL)
            defer { sqlite3_finalize(statement) }
            try inTransaction(handle) {
                for model in models {
                    sqlite3_bind_int64(statement, 1, Int64(model.id))
                    sqlite3_bind_int64(statement, 2, Int64(model.c1))
                    sqlite3_bind_int64(statement, 3, Int64(model.c2))
                    sqlite3_bind_int64(statement, 4, Int64(model.c3))
                    sqlite3_bind_int64(statement, 5, Int64(model.c4))
                    sqlite3_bind_int64(statement, 6, Int64(model.c5))
                    sqlite3_bind_int64(statement, 7, Int64(model.c6))
                    sqlite3_bind_int64(statement, 8, Int64(model.c7))
                    sqlite3_bind_int64(statement, 9, Int64(model.c8))
                    sqlite3_bind_int64(statement, 10, Int64(model.c9))
                    try finishInsert(handle, statement, sqlite3_step(statement))
                }
            }
            return Int64(models.count)
        }
    }

    /// How a workload reads a row of `ints`: a type, not a closure, so that the workloads below are specialized
    /// for it and the read is inlined, as hand-written code would have it.
    protocol IntsRead { static func read(_ statement: OpaquePointer) throws -> OursInts }
    /// `sqlite3_column_int64` on each column, no type check.
    enum UncheckedRead: IntsRead {
        @inline(__always) static func read(_ statement: OpaquePointer) -> OursInts { ints(statement) }
    }
    /// Each column's storage class checked before it is read, as SQLiteSwiftly reads an `Int`.
    enum CheckedRead: IntsRead {
        @inline(__always) static func read(_ statement: OpaquePointer) throws -> OursInts { try checkedInts(statement) }
    }

    /// Reads every row of `ints` into an array of structs.
    @inline(__always) static func fetchInts<Read: IntsRead>(named name: String, _: Read.Type) -> Implementation {
        Implementation(name: name) { location, rows in
            let db = try Raw.prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
            return {
                let statement = try prepare(db.handle, selectIntsSQL)
                defer { sqlite3_finalize(statement) }
                var models: [OursInts] = []
                try forEachRow(db.handle, statement) { models.append(try Read.read(statement)) }
                return models.reduce(0) { $0 + Int64($1.c1) }
            }
        }
    }

    /// Steps through every row of `ints`, reading all ten columns (as rawc_stream_ints does), and sums one.
    @inline(__always) static func cursorInts<Read: IntsRead>(named name: String, _: Read.Type) -> Implementation {
        Implementation(name: name) { location, rows in
            let db = try Raw.prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
            return {
                let statement = try prepare(db.handle, selectIntsSQL)
                defer { sqlite3_finalize(statement) }
                var sum: Int64 = 0
                try forEachRow(db.handle, statement) { sum += Int64(try Read.read(statement).c1) }
                return sum
            }
        }
    }

    static let fetchInts = fetchInts(named: name, UncheckedRead.self)
    static let cursorInts = cursorInts(named: name, UncheckedRead.self)

    /// The name of the two workloads below: the C API from Swift, checking each column's storage class.
    static let checkedName = "C API from Swift, checked"

    /// fetchInts with every column's storage class checked before it is read, as SQLiteSwiftly reads an `Int`.
    static let fetchIntsChecked = fetchInts(named: checkedName, CheckedRead.self)
    /// cursorInts with every column's storage class checked before it is read.
    static let cursorIntsChecked = cursorInts(named: checkedName, CheckedRead.self)

    /// Binds `model` and steps once. Text and blob are bound SQLITE_STATIC inside the closures that lend their
    /// bytes, so the step happens inside them too; the statement is reset (and rebound) before the pointers are
    /// used again.
    @inline(__always) static func insert(_ model: OursMixed, _ statement: OpaquePointer) -> Int32 {
        sqlite3_bind_int64(statement, 1, Int64(model.id))
        sqlite3_bind_double(statement, 2, model.score)
        return model.name.withCString { name in
            sqlite3_bind_text64(statement, 3, name, UInt64(model.name.utf8.count), nil, UInt8(SQLITE_UTF8))
            return model.payload.withUnsafeBytes { payload in
                // A non-empty Data always lends a base address (an empty one would bind NULL).
                sqlite3_bind_blob64(statement, 5, payload.baseAddress, UInt64(payload.count), nil)
                guard let note = model.note else {
                    sqlite3_bind_null(statement, 4)
                    return sqlite3_step(statement)
                }
                return note.withCString { text in
                    sqlite3_bind_text64(statement, 4, text, UInt64(note.utf8.count), nil, UInt8(SQLITE_UTF8))
                    return sqlite3_step(statement)
                }
            }
        }
    }

    static let insertMixed = Implementation(name: name) { location, rows in
        let db = try Raw.prepared(location, schema: Dataset.mixedSchema)
        let models = (0..<rows).map(OursMixed.init(index:))
        return {
            let handle = db.handle
            let statement = try prepare(handle, insertMixedSQL)
            defer { sqlite3_finalize(statement) }
            try inTransaction(handle) {
                for model in models { try finishInsert(handle, statement, insert(model, statement)) }
            }
            return Int64(models.count)
        }
    }

    static let fetchMixed = Implementation(name: name) { location, rows in
        let db = try Raw.prepared(location, schema: Dataset.mixedSchema, fill: Dataset.fillMixed(rows))
        return {
            let statement = try prepare(db.handle, selectMixedSQL)
            defer { sqlite3_finalize(statement) }
            var models: [OursMixed] = []
            try forEachRow(db.handle, statement) {
                let id = Int(sqlite3_column_int64(statement, 0))
                let score = sqlite3_column_double(statement, 1)
                let name = text(statement, 2)
                let note = optionalText(statement, 3)
                let bytes = sqlite3_column_blob(statement, 4)
                let count = Int(sqlite3_column_bytes(statement, 4))
                let payload = bytes.map { Data(bytes: $0, count: count) } ?? Data()
                models.append(OursMixed(id: id, score: score, name: name, note: note, payload: payload))
            }
            return models.reduce(0) { $0 + Int64($1.id) }
        }
    }

    static let lookup = Implementation(name: name) { location, rows in
        let db = try Raw.prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        let ids = Dataset.lookupIDs(rows).map(Int64.init)
        return {
            let handle = db.handle
            try exec(handle, "BEGIN DEFERRED")
            let statement = try prepare(handle, lookupIntsSQL)
            var sum: Int64 = 0
            do {
                defer { sqlite3_finalize(statement) }
                for id in ids {
                    sqlite3_bind_int64(statement, 1, id)
                    let code = sqlite3_step(statement)
                    if code == SQLITE_ROW {
                        sum += Int64(ints(statement).c1)
                    } else if code != SQLITE_DONE {
                        throw failure(handle, code, "sqlite3_step")
                    }
                    try check(handle, sqlite3_reset(statement), "sqlite3_reset")
                }
            }
            try exec(handle, "COMMIT")
            return sum
        }
    }

    static let fetchOrders = Implementation(name: name) { location, rows in
        let db = try Raw.prepared(location, schema: Orders.schema, fill: Orders.fill(rows))
        return {
            let statement = try prepare(db.handle, selectOrdersSQL)
            defer { sqlite3_finalize(statement) }
            var models: [OursOrder] = []
            try forEachRow(db.handle, statement) {
                models.append(
                    OursOrder(
                        id: Int(sqlite3_column_int64(statement, 0)),
                        customerID: Int(sqlite3_column_int64(statement, 1)),
                        total: sqlite3_column_double(statement, 2), status: text(statement, 3),
                        email: optionalText(statement, 4), phone: optionalText(statement, 5),
                        shipName: optionalText(statement, 6), shipLine1: optionalText(statement, 7),
                        shipLine2: optionalText(statement, 8), shipCity: optionalText(statement, 9),
                        shipRegion: optionalText(statement, 10), shipPostcode: optionalText(statement, 11),
                        shipCountry: optionalText(statement, 12), note: optionalText(statement, 13)))
            }
            var sum: Int64 = 0
            for index in models.indices { sum += models[index].checksum }
            return sum
        }
    }

    /// One-off SQL: each statement compiled with sqlite3_prepare_v2, stepped and finalized. Rows are read by
    /// storage class into Swift values (Int64, Double, String, [UInt8]) and summed as OneOff.ours sums them; an
    /// UPDATE adds sqlite3_changes, as OneOff.ours adds the result of `execute`.
    static let oneOff = Implementation(name: name) { location, rows in
        let db = try Raw.prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        let texts = OneOff.statements(rows)
        return {
            let handle = db.handle
            var sum: Int64 = 0
            for (offset, sql) in texts.enumerated() {
                var prepared: OpaquePointer?
                try check(handle, sqlite3_prepare_v2(handle, sql, -1, &prepared, nil), sql)
                guard let statement = prepared else { throw BenchError("no statement in \(sql)") }
                defer { sqlite3_finalize(statement) }
                if offset % 2 == 1 {
                    let code = sqlite3_step(statement)
                    guard code == SQLITE_DONE else { throw failure(handle, code, "sqlite3_step") }
                    sum += Int64(sqlite3_changes(handle))
                    continue
                }
                let columns = sqlite3_column_count(statement)
                try forEachRow(handle, statement) {
                    for column in 0..<columns {
                        switch sqlite3_column_type(statement, column) {
                        case SQLITE_INTEGER:
                            sum += sqlite3_column_int64(statement, column)
                        case SQLITE_FLOAT:
                            sum += Int64(sqlite3_column_double(statement, column))
                        case SQLITE_TEXT:
                            sum += Int64(text(statement, column).utf8.count)
                        case SQLITE_BLOB:
                            let blob = sqlite3_column_blob(statement, column)
                            let count = Int(sqlite3_column_bytes(statement, column))
                            let bytes = [UInt8](UnsafeRawBufferPointer(start: blob, count: count))
                            sum += Int64(bytes.count)
                        default:
                            break
                        }
                    }
                }
            }
            return sum
        }
    }
}
