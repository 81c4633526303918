import RawC

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The raw C API baseline (Sources/RawC/rawc.c). The Swift side only prepares C arrays before timing.

/// An open raw connection, closed when released.
final class RawConnection {
    let handle: OpaquePointer

    init(_ location: Location) throws {
        guard let handle = rawc_open(location.isMemory ? ":memory:" : location.path) else {
            throw BenchError("rawc_open failed")
        }
        self.handle = handle
    }

    deinit { rawc_close(handle) }

    func exec(_ sql: String) throws {
        let code = rawc_exec(handle, sql)
        guard code == 0 else { throw BenchError("rawc_exec \(code): \(sql)") }
    }

    static func check(_ code: Int32, _ what: String) throws {
        guard code == 0 else { throw BenchError("\(what) failed with SQLite code \(code)") }
    }
}

/// Mixed rows as C structs, with their strings and blobs kept alive until released.
final class RawMixedRows {
    var rows: [rawc_mixed] = []
    private var buffers: [UnsafeMutableRawPointer] = []

    init(count: Int) {
        rows.reserveCapacity(count)
        for row in 0..<count {
            let name = copy(Array(Dataset.name(row).utf8))
            let note = Dataset.note(row).map { copy(Array($0.utf8)) }
            let payload = copy(Dataset.payload(row))
            rows.append(
                rawc_mixed(
                    id: Int64(row + 1), score: Dataset.score(row),
                    name: name.pointer.assumingMemoryBound(to: CChar.self), name_length: name.count,
                    note: note?.pointer.assumingMemoryBound(to: CChar.self), note_length: note?.count ?? 0,
                    payload: payload.pointer, payload_length: payload.count))
        }
    }

    private func copy(_ bytes: [UInt8]) -> (pointer: UnsafeMutableRawPointer, count: Int) {
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { pointer.copyMemory(from: base, byteCount: source.count) }
        }
        buffers.append(pointer)
        return (pointer, bytes.count)
    }

    deinit { for buffer in buffers { buffer.deallocate() } }
}

enum Raw {
    static let name = "raw C"

    static func prepared(_ location: Location, schema: String, fill: String? = nil) throws -> RawConnection {
        let db = try RawConnection(location)
        try db.exec(schema)
        if let fill { try db.exec(fill) }
        return db
    }

    static let insertInts = Implementation(name: name) { location, rows in
        let db = try prepared(location, schema: Dataset.intsSchema)
        let values = (0..<rows).map { row in
            rawc_ints(
                id: Int64(Dataset.int(row, 0)), c1: Int64(Dataset.int(row, 1)), c2: Int64(Dataset.int(row, 2)),
                c3: Int64(Dataset.int(row, 3)), c4: Int64(Dataset.int(row, 4)), c5: Int64(Dataset.int(row, 5)),
                c6: Int64(Dataset.int(row, 6)), c7: Int64(Dataset.int(row, 7)), c8: Int64(Dataset.int(row, 8)),
                c9: Int64(Dataset.int(row, 9)))
        }
        return {
            try values.withUnsafeBufferPointer { buffer in
                try RawConnection.check(
                    rawc_insert_ints(db.handle, buffer.baseAddress, Int32(buffer.count)), "rawc_insert_ints")
            }
            return Int64(values.count)
        }
    }

    static let fetchInts = Implementation(name: name) { location, rows in
        let db = try prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        return {
            var result: UnsafeMutablePointer<rawc_ints>?
            var count: Int32 = 0
            try RawConnection.check(rawc_fetch_ints(db.handle, &result, &count), "rawc_fetch_ints")
            defer { free(result) }
            var sum: Int64 = 0
            for index in 0..<Int(count) { sum += result?[index].c1 ?? 0 }
            return sum
        }
    }

    static let checkedName = "raw C, checked"

    /// rawc_fetch_ints with every column type-checked before it is read, as SQLiteSwiftly reads an Int.
    static let fetchIntsChecked = Implementation(name: checkedName) { location, rows in
        let db = try prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        return {
            var result: UnsafeMutablePointer<rawc_ints>?
            var count: Int32 = 0
            try RawConnection.check(rawc_fetch_ints_checked(db.handle, &result, &count), "rawc_fetch_ints_checked")
            defer { free(result) }
            var sum: Int64 = 0
            for index in 0..<Int(count) { sum += result?[index].c1 ?? 0 }
            return sum
        }
    }

    static let insertMixed = Implementation(name: name) { location, rows in
        let db = try prepared(location, schema: Dataset.mixedSchema)
        let values = RawMixedRows(count: rows)
        return {
            try values.rows.withUnsafeBufferPointer { buffer in
                try RawConnection.check(
                    rawc_insert_mixed(db.handle, buffer.baseAddress, Int32(buffer.count)), "rawc_insert_mixed")
            }
            return Int64(values.rows.count)
        }
    }

    static let fetchMixed = Implementation(name: name) { location, rows in
        let db = try prepared(location, schema: Dataset.mixedSchema, fill: Dataset.fillMixed(rows))
        return {
            var result: UnsafeMutablePointer<rawc_mixed>?
            var count: Int32 = 0
            try RawConnection.check(rawc_fetch_mixed(db.handle, &result, &count), "rawc_fetch_mixed")
            defer { rawc_free_mixed(result, count) }
            var sum: Int64 = 0
            for index in 0..<Int(count) { sum += result?[index].id ?? 0 }
            return sum
        }
    }

    static let lookup = Implementation(name: name) { location, rows in
        let db = try prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        let ids = Dataset.lookupIDs(rows).map(Int64.init)
        return {
            try db.exec("BEGIN DEFERRED")
            var sum: Int64 = 0
            try ids.withUnsafeBufferPointer { buffer in
                try RawConnection.check(
                    rawc_lookup_ints(db.handle, buffer.baseAddress, Int32(buffer.count), &sum), "rawc_lookup_ints")
            }
            try db.exec("COMMIT")
            return sum
        }
    }

    static let cursorInts = Implementation(name: name) { location, rows in
        let db = try prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        return { try stream(db).0 }
    }

    /// rawc_stream_ints with every column type-checked before it is read.
    static let cursorIntsChecked = Implementation(name: checkedName) { location, rows in
        let db = try prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        return {
            var sum: Int64 = 0
            var count: Int32 = 0
            try RawConnection.check(rawc_stream_ints_checked(db.handle, &sum, &count), "rawc_stream_ints_checked")
            return sum
        }
    }

    static func stream(_ db: RawConnection) throws -> (Int64, Int) {
        var sum: Int64 = 0
        var count: Int32 = 0
        try RawConnection.check(rawc_stream_ints(db.handle, &sum, &count), "rawc_stream_ints")
        return (sum, Int(count))
    }

    static var libversion: String { String(cString: rawc_libversion()) }
}
