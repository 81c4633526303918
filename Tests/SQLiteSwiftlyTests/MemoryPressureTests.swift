import Foundation
import SQLiteSwiftly
import Testing

/// The MemoryProbe executable, built next to the test bundle.
let memoryProbePath = builtExecutable("MemoryProbe")

@Suite struct MemoryPressureTests {
    @Test(
        "large TEXT and BLOB reads under a tightening heap limit: the right value or noMemory, never a wrong one",
        .timeLimit(.minutes(2)), arguments: ["UTF-8", "UTF-16le"])
    func readsUnderHeapLimit(encoding: String) async throws {
        try await offPool {
            let probe = try #require(memoryProbePath, "the MemoryProbe executable was not built next to the tests")
            let directory = try TemporaryDirectory()
            let path = directory.path("memory.sqlite")
            do {
                let db = try Connection(creating: path)
                // In a UTF-16 database every TEXT read as UTF-8 is converted, in memory SQLite allocates.
                try db.execute(SQL(verbatim: "PRAGMA encoding = '\(encoding)'"))
                try db.execute("CREATE TABLE big (t TEXT NOT NULL, b BLOB NOT NULL)")
                let text = String((0..<6000).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
                let blob = (0..<6000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
                try db.execute("INSERT INTO big VALUES (?, ?)", [text, blob])
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: probe)
            process.arguments = [path]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            try #require(
                process.terminationReason == .exit && process.terminationStatus == 0, "the probe failed: \(problem)")
            let words = printed.split(whereSeparator: \.isWhitespace)
            var counts: [String: Int] = [:]
            for index in stride(from: 0, to: words.count - 1, by: 2) {
                counts[String(words[index])] = Int(words[index + 1])
            }
            #expect(counts["wrong"] == 0, "reads returned a wrong value without an error: \(printed)")
            #expect(counts["other"] == 0, "reads failed with another error than noMemory: \(printed)")
            // The limits reach both ways: reads that ran out of memory, and reads with room to succeed.
            #expect((counts["nomemory"] ?? 0) > 0, "\(printed)")
            #expect((counts["correct"] ?? 0) > 0, "\(printed)")
        }
    }
}
