#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The rows every implementation inserts or reads. Inserted rows are built in Swift before timing; tables for the
// fetch and lookup workloads are filled by the same SQL (`fillSQL`) in every implementation, untimed.

enum Dataset {
    /// Column `k` (0 = id) of integer row `r` (0-based).
    @inline(__always) static func int(_ row: Int, _ column: Int) -> Int {
        column == 0 ? row + 1 : (row + 1) * column + 1000 * column
    }

    static func name(_ row: Int) -> String { "The quick brown fox #\(row)" }
    static func note(_ row: Int) -> String? { row % 2 == 0 ? "an optional note for row \(row)" : nil }
    static func score(_ row: Int) -> Double { Double(row) * 0.5 + 0.25 }
    static func payload(_ row: Int) -> [UInt8] { (0..<32).map { UInt8(truncatingIfNeeded: row &+ $0) } }

    /// The schema, as SQLiteSwiftly's `createTableSQL(for:)` writes it for the benchmark models.
    nonisolated(unsafe) static var intsSchema = ""
    nonisolated(unsafe) static var mixedSchema = ""

    static let intColumns = "id, c1, c2, c3, c4, c5, c6, c7, c8, c9"
    static let mixedColumns = "id, score, name, note, payload"

    static func fillInts(_ rows: Int) -> String {
        let values = (1...9).map { "(r + 1) * \($0) + \(1000 * $0)" }.joined(separator: ", ")
        return "WITH RECURSIVE s(r) AS (SELECT 0 UNION ALL SELECT r + 1 FROM s WHERE r + 1 < \(rows)) "
            + "INSERT INTO ints (\(intColumns)) SELECT r + 1, \(values) FROM s"
    }

    static func fillMixed(_ rows: Int) -> String {
        "WITH RECURSIVE s(r) AS (SELECT 0 UNION ALL SELECT r + 1 FROM s WHERE r + 1 < \(rows)) "
            + "INSERT INTO mixed (\(mixedColumns)) SELECT r + 1, r * 0.5 + 0.25, 'The quick brown fox #' || r, "
            + "CASE WHEN r % 2 = 0 THEN 'an optional note for row ' || r END, randomblob(32) FROM s"
    }

    /// Sum of column c1 over `rows` integer rows: the fetch checksum.
    static func c1Sum(_ rows: Int) -> Int64 {
        (0..<rows).reduce(Int64(0)) { $0 + Int64(int($1, 1)) }
    }

    /// The ids looked up by the point-lookup workload: every id once, in a scrambled but fixed order.
    static func lookupIDs(_ rows: Int) -> [Int] {
        var ids = Array(1...max(rows, 1))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in stride(from: ids.count - 1, to: 0, by: -1) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let other = Int((state >> 33) % UInt64(index + 1))
            ids.swapAt(index, other)
        }
        return ids
    }
}
