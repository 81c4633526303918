import Foundation
import SQLiteSwiftly
import Testing

/// The ContentionWriter executable, built next to the test bundle.
let contentionWriterPath = builtExecutable("ContentionWriter")

/// How long the writers run: SQLITESWIFTLY_CONTENTION_SECONDS (full size, with figures printed), or 2 seconds.
let contentionSeconds = ProcessInfo.processInfo.environment["SQLITESWIFTLY_CONTENTION_SECONDS"].flatMap {
    Double($0)
}

/// What the writers of one run reported.
struct ContentionRun {
    /// How long each committed transaction waited for the lock, in microseconds, sorted.
    var waits: [Int]
    /// The errors of the transactions that failed.
    var failures: [String]
    /// How many transactions each writer committed.
    var commitsPerWriter: [Int]

    /// The wait that 99 % of the transactions did not exceed, in milliseconds.
    var p99Milliseconds: Double {
        guard !waits.isEmpty else { return 0 }
        let index = min(waits.count - 1, Int((Double(waits.count) * 0.99).rounded(.up)) - 1)
        return Double(waits[max(0, index)]) / 1000
    }

    /// The longest wait, in milliseconds.
    var maxMilliseconds: Double { Double(waits.last ?? 0) / 1000 }
}

@Suite struct ContentionTests {
    static let writers = 3
    static let holdMilliseconds = 20

    @Test(
        "three processes committing 20 ms transactions back to back: every writer gets the lock in time",
        .timeLimit(.minutes(5)), arguments: ["DELETE", "WAL"])
    func writersInThreeProcesses(journalMode: String) async throws {
        try await offPool {
            // Bounded for CI: 3 seconds. Full size: SQLITESWIFTLY_CONTENTION_SECONDS, with figures printed. Both use
            // the default 5-second busy timeout; a starved writer shows in its share of the commits (SQLite's own
            // handler gives shares such as [1, 95, 1] in 3 seconds) before it can time out.
            let seconds = contentionSeconds ?? 3
            let timeout = 5000
            let directory = try TemporaryDirectory()
            let run = try runWriters(
                directory, journalMode: journalMode, waiting: "queued", seconds: seconds, timeout: timeout)
            #expect(run.failures.isEmpty, "\(run.failures.count) transactions failed: \(run.failures.prefix(3))")
            let shares = run.commitsPerWriter
            #expect((shares.min() ?? 0) * 2 >= (shares.max() ?? 0) && (shares.min() ?? 0) > 0, "unfair: \(shares)")
            #expect(run.maxMilliseconds < Double(timeout))
            if contentionSeconds != nil {
                print(summary("queued (default)", journalMode, run))
                // What the library did before, and short retries without the queue, for comparison; not asserted.
                for waiting in ["sqlite", "polling"] {
                    let other = try TemporaryDirectory()
                    let compared = try runWriters(
                        other, journalMode: journalMode, waiting: waiting, seconds: seconds, timeout: timeout)
                    print(summary(waiting, journalMode, compared))
                }
            }
        }
    }

    private func summary(_ waiting: String, _ journalMode: String, _ run: ContentionRun) -> String {
        "ContentionTests \(journalMode) \(waiting): \(Self.writers) writers, \(run.waits.count) commits "
            + "\(run.commitsPerWriter), \(run.failures.count) failures, p99 wait "
            + String(format: "%.1f", run.p99Milliseconds) + " ms, max " + String(format: "%.1f", run.maxMilliseconds)
            + " ms"
    }

    /// Starts the writers together, waits for them to finish, and checks the database holds their commits.
    private func runWriters(
        _ directory: TemporaryDirectory, journalMode: String, waiting: String, seconds: Double, timeout: Int
    ) throws -> ContentionRun {
        let writer = try #require(
            contentionWriterPath, "the ContentionWriter executable was not built next to the tests")
        let path = directory.path("contention.sqlite")
        do {
            let db = try Connection(creating: path)
            #expect(
                try db.fetchValue(String.self, SQL(verbatim: "PRAGMA journal_mode = \(journalMode)"))?.uppercased()
                    == journalMode)
            try db.execute("CREATE TABLE commits (writer INTEGER NOT NULL, number INTEGER NOT NULL)")
        }
        var children: [(process: Process, input: Pipe, output: Pipe)] = []
        defer {
            for child in children where child.process.isRunning { child.process.terminate() }
        }
        for index in 1...Self.writers {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: writer)
            process.arguments = [path, "\(index)", "\(seconds)", "\(Self.holdMilliseconds)", "\(timeout)", waiting]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            children.append((process, input, output))
        }
        // Every writer has opened the database before any starts.
        for child in children {
            var printed = Data()
            while !printed.contains(Data("ready\n".utf8)) {
                let chunk = child.output.fileHandleForReading.availableData
                try #require(!chunk.isEmpty, "a writer exited before it was ready")
                printed += chunk
            }
        }
        for child in children { child.input.fileHandleForWriting.write(Data("go\n".utf8)) }
        var run = ContentionRun(waits: [], failures: [], commitsPerWriter: [])
        for child in children {
            let lines = String(decoding: child.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(separator: "\n")
            child.process.waitUntilExit()
            #expect(child.process.terminationStatus == 0)
            #expect(lines.last == "done", "a writer did not finish its report")
            let waits = lines.compactMap { $0.hasPrefix("wait ") ? Int($0.dropFirst(5)) : nil }
            run.waits += waits
            run.commitsPerWriter.append(waits.count)
            run.failures += lines.filter { $0.hasPrefix("fail ") }.map { String($0.dropFirst(5)) }
        }
        run.waits.sort()
        let db = try Connection(opening: path)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM commits") == run.waits.count)
        #expect(try db.fetchValue(String.self, "PRAGMA integrity_check") == "ok")
        return run
    }
}
