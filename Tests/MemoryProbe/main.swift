// A child process for FaultTests: it reads large values under a tightening SQLite heap limit and reports how
// each read ended. The heap limit is global to the process, so it cannot be set inside the test runner, where
// other tests run in parallel.
//
//     MemoryProbe DATABASE
//
// The database holds `big (t TEXT, b BLOB)` with one row of values larger than a page. The probe reads them
// once without a limit, then again under limits from the memory in use to 64 KiB above it, and prints one line:
// `correct N nomemory N other N wrong N` (`wrong`: a read that returned another value than the first one).
import CSQLiteSwiftly
import Foundation
import SQLiteSwiftly

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: MemoryProbe DATABASE\n".utf8))
    exit(2)
}
var counts = ["correct": 0, "nomemory": 0, "other": 0, "wrong": 0]

/// Runs `read` under each limit and counts how it ended.
func probe<Value: Equatable>(
    _ db: Connection, expected: Value, into counts: inout [String: Int], _ read: () throws -> Value?
) {
    let base = sqlite3_memory_used()
    for extra in stride(from: Int64(0), to: 65_536, by: 256) {
        sqlite3_hard_heap_limit64(base + extra)
        do {
            let value = try read()
            counts[value == expected ? "correct" : "wrong", default: 0] += 1
        } catch let error as SQLiteError where error.code.primary == .noMemory {
            counts["nomemory", default: 0] += 1
        } catch {
            counts["other", default: 0] += 1
        }
        sqlite3_hard_heap_limit64(0)
    }
}

do {
    let db = try Connection(opening: CommandLine.arguments[1])
    let text = try db.fetchValue(String.self, "SELECT t FROM big") ?? ""
    let blob = try db.fetchValue([UInt8].self, "SELECT b FROM big") ?? []
    let textBytes = try db.fetchValue(Data.self, "SELECT t FROM big") ?? Data()
    guard text.utf8.count > 4096, blob.count > 4096, textBytes.count == text.utf8.count else {
        FileHandle.standardError.write(Data("MemoryProbe: the values are not the expected large ones\n".utf8))
        exit(1)
    }
    probe(db, expected: text, into: &counts) { try db.fetchValue(String.self, "SELECT t FROM big") }
    probe(db, expected: blob, into: &counts) { try db.fetchValue([UInt8].self, "SELECT b FROM big") }
    probe(db, expected: textBytes, into: &counts) { try db.fetchValue(Data.self, "SELECT t FROM big") }
    probe(db, expected: text, into: &counts) {
        try db.fetchAll(UntypedRow.self, "SELECT t FROM big").first?.values.first.flatMap {
            if case .text(let value) = $0 { value } else { nil }
        }
    }
} catch {
    FileHandle.standardError.write(Data("MemoryProbe: \(error)\n".utf8))
    exit(1)
}
let line = ["correct", "nomemory", "other", "wrong"].map { "\($0) \(counts[$0] ?? 0)" }.joined(separator: " ")
FileHandle.standardOutput.write(Data((line + "\n").utf8))
