import Foundation
import SQLiteSwiftly
import Testing

/// The CrashWriter executable, built next to the test bundle (the build products directory).
let crashWriterPath = builtExecutable("CrashWriter")

/// How many times each journal mode's writer is killed: SQLITESWIFTLY_CRASH_KILLS, or 20.
let crashKills = ProcessInfo.processInfo.environment["SQLITESWIFTLY_CRASH_KILLS"].flatMap { Int($0) } ?? 20

@Suite struct CrashSafetyTests {
    static let rowsPerTransaction = 20

    @Test(
        "SIGKILL at random moments loses no acknowledged commit and never half-applies a transaction",
        .timeLimit(.minutes(10)), arguments: ["DELETE", "WAL"])
    func killedWriter(journalMode: String) async throws {
        try await offPool {
            let writer = try #require(crashWriterPath, "the CrashWriter executable was not built next to the tests")
            let directory = try TemporaryDirectory()
            let path = directory.path("crash.sqlite")
            do {
                let db = try Connection(creating: path)
                #expect(
                    try db.fetchValue(String.self, SQL(verbatim: "PRAGMA journal_mode = \(journalMode)"))?.uppercased()
                        == journalMode)
                try db.executeScript(
                    """
                    CREATE TABLE items (tx INTEGER NOT NULL, seq INTEGER NOT NULL, payload BLOB NOT NULL,
                                        PRIMARY KEY (tx, seq));
                    CREATE TABLE progress (id INTEGER PRIMARY KEY CHECK (id = 1), tx INTEGER NOT NULL);
                    INSERT INTO progress VALUES (1, 0);
                    """)
            }
            var acknowledged = 0
            var killedWhileWriting = 0
            var leftovers = 0
            var unacknowledgedCommits = 0
            var generator = SystemRandomNumberGenerator()
            for round in 1...crashKills {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: writer)
                process.arguments = [path, String(Self.rowsPerTransaction)]
                let output = Pipe()
                let errors = Pipe()
                process.standardOutput = output
                process.standardError = errors
                try process.run()
                // Odd rounds kill at a random moment after the start (possibly while opening or recovering); even
                // rounds wait for the first acknowledged commit, so that the kill lands among commits even when the
                // writer starts slowly (sanitizers, a loaded machine).
                var printedData = Data()
                if round % 2 == 0 {
                    printedData = output.fileHandleForReading.availableData
                    usleep(UInt32.random(in: 0...50_000, using: &generator))
                } else {
                    usleep(UInt32.random(in: 10_000...150_000, using: &generator))
                }
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                printedData += output.fileHandleForReading.readDataToEndOfFile()
                let printed = String(decoding: printedData, as: UTF8.self)
                let acks = printed.split(separator: "\n").compactMap { Int($0) }
                let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                try #require(
                    process.terminationReason == .uncaughtSignal,
                    "round \(round): the writer ended by itself (\(process.terminationStatus)): \(problem)")
                if let last = acks.last { acknowledged = max(acknowledged, last) }
                if !acks.isEmpty { killedWhileWriting += 1 }
                let leftover = journalMode == "WAL" ? path + "-wal" : path + "-journal"
                if let size = try? FileManager.default.attributesOfItem(atPath: leftover)[.size] as? Int, size > 0 {
                    leftovers += 1
                }
                let committed = try verify(path, round: round, acknowledged: acknowledged)
                unacknowledgedCommits += committed > acknowledged ? 1 : 0
                acknowledged = max(acknowledged, committed)
            }
            // The summary is for on-demand runs (SQLITESWIFTLY_CRASH_KILLS set); a plain `swift test` prints nothing.
            if ProcessInfo.processInfo.environment["SQLITESWIFTLY_CRASH_KILLS"] != nil {
                print(
                    "CrashSafetyTests \(journalMode): \(crashKills) kills survived (\(killedWhileWriting) after commits had "
                        + "begun, \(leftovers) left a journal or WAL to recover, \(unacknowledgedCommits) commits that landed "
                        + "without their acknowledgement), \(acknowledged) transactions of \(Self.rowsPerTransaction) rows "
                        + "committed, none lost, none half-applied")
            }
            #expect(killedWhileWriting > 0, "no kill landed after the writer had started committing")
        }
    }

    /// Recovers the database (by opening it) and checks it; returns the last committed transaction number.
    private func verify(_ path: String, round: Int, acknowledged: Int) throws -> Int {
        let db = try Connection(opening: path)
        #expect(try db.fetchValue(String.self, "PRAGMA integrity_check") == "ok", "round \(round)")
        let groups = try db.fetchAll(UntypedRow.self, "SELECT tx, count(*) FROM items GROUP BY tx ORDER BY tx")
        let numbers = groups.compactMap { row -> Int? in
            if case .integer(let number) = row.values[0] { Int(number) } else { nil }
        }
        let last = numbers.last ?? 0
        #expect(numbers == Array(1...max(last, 1)).prefix(last).map { $0 }, "round \(round): a gap in the commits")
        let partial = groups.filter { $0.values[1] != .integer(Int64(Self.rowsPerTransaction)) }
        #expect(partial.isEmpty, "round \(round): half-applied transactions \(partial)")
        #expect(try db.fetchValue(Int.self, "SELECT tx FROM progress") == last, "round \(round): progress disagrees")
        #expect(last >= acknowledged, "round \(round): acknowledged commit \(acknowledged) lost (last is \(last))")
        #expect(last <= acknowledged + 1, "round \(round): more than one commit without acknowledgement")
        return last
    }
}
