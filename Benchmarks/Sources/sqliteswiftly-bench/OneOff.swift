import RawC
import SQLiteSwiftly

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// One-off SQL, as a query console or a test runner sends it: N statements whose texts all differ, each compiled,
// run once and dropped. Even statements read a row (`fetchAll(UntypedRow.self, ...)`), odd ones update one
// (`execute`). Timed in CPU time. The raw C twin compiles with sqlite3_prepare_v2, reads every column by its
// storage class (copying text) and finalizes.

enum OneOff {
    /// The statements, every text different; the same for every implementation.
    static func statements(_ rows: Int) -> [String] {
        Dataset.lookupIDs(rows).enumerated().map { offset, id in
            offset % 2 == 0
                ? "SELECT id, c1, c2, 'row ' || id FROM ints WHERE id = \(id)"
                : "UPDATE ints SET c9 = c9 + 1 WHERE id = \(id)"
        }
    }

    static let raw = Implementation(name: Raw.name) { location, rows in
        let db = try Raw.prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        let texts = statements(rows).map { strdup($0) }
        let pointers = CStrings(texts)
        return {
            var sum: Int64 = 0
            try pointers.withPointers { buffer in
                try RawConnection.check(
                    rawc_one_off(db.handle, buffer.baseAddress, Int32(buffer.count), &sum), "rawc_one_off")
            }
            return sum
        }
    }

    static let ours = Implementation(name: "SQLiteSwiftly fetchAll(UntypedRow.self)/execute") { location, rows in
        let db = try Ours.prepared(location, schema: Dataset.intsSchema, fill: Dataset.fillInts(rows))
        let texts = statements(rows)
        return {
            var sum: Int64 = 0
            for (offset, text) in texts.enumerated() {
                if offset % 2 == 1 {
                    sum += Int64(try db.execute(SQL(verbatim: text)))
                    continue
                }
                for row in try db.fetchAll(UntypedRow.self, SQL(verbatim: text)) {
                    for value in row.values {
                        switch value {
                        case .integer(let integer): sum += integer
                        case .real(let real): sum += Int64(real)
                        case .text(let text): sum += Int64(text.utf8.count)
                        case .blob(let bytes): sum += Int64(bytes.count)
                        case .null: break
                        }
                    }
                }
            }
            return sum
        }
    }
}

/// C strings kept alive (and freed) together, lent as an array of `const char *`.
final class CStrings {
    private let strings: [UnsafePointer<CChar>?]

    init(_ strings: [UnsafeMutablePointer<CChar>?]) { self.strings = strings.map { $0.map { UnsafePointer($0) } } }

    deinit { for string in strings { free(UnsafeMutablePointer(mutating: string)) } }

    func withPointers<T>(_ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) throws -> T) rethrows -> T {
        try strings.withUnsafeBufferPointer(body)
    }
}
