import SQLiteSwiftly
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// sqliteswiftly-bench --observation-idle [--rows N] [--quick]
//
// What observation costs while nothing happens, and how late other processes' commits arrive (issue #32):
// - idle: a SharedConnection on a WAL file with 0, 1 and 100 observations, and 100 that poll (`watchesFiles:
//   false`, the only way before file events); the process's CPU time and its threads' context switches (each
//   wake-up of a blocked thread is one) per second over 20 seconds (two backstop polls; 1 with --quick), after
//   half a second to settle;
// - delay: N commits (200 by default, 20 with --quick; --rows sets it) of another process, 5 to 15 ms apart, each
//   writing the wall-clock time just before its commit; the observer's delay from that time to the delivery of
//   the row, median and 99th percentile. The other process is this program (`--commit-child`, through the
//   library) or the `sqlite3` shell (its clock has millisecond resolution), with default options and polling.
enum ObservationIdleBench {
    static func run(commits: Int, seconds: Int, files: inout TemporaryFiles) async throws {
        print("| observations | notice | CPU per second | wake-ups per second |")
        print("| ---: | --- | ---: | ---: |")
        for (count, watches) in [(0, true), (1, true), (100, true), (100, false)] {
            let path = files.next()
            defer { TemporaryFiles.remove(path) }
            let (cpu, wakeUps) = try await idleCost(
                path: path, observations: count, watchesFiles: watches, seconds: seconds)
            let notice = count == 0 ? "-" : watches ? "file events (default)" : "polling every 100 ms"
            print("| \(count) | \(notice) | \(format(milliseconds: cpu)) | \(format(wakeUps)) |")
            fflush(nil)
        }
        print("")
        print("| other process | notice | commits seen | median delay | p99 delay |")
        print("| --- | --- | ---: | ---: | ---: |")
        let executable = try Streaming.executablePath()
        for (writer, watches) in [("library", true), ("sqlite3 shell", true), ("library", false)] {
            if writer == "sqlite3 shell" && system("command -v sqlite3 >/dev/null 2>&1") != 0 {
                print("| sqlite3 shell | - | not installed | | |")
                continue
            }
            let path = files.next()
            defer { TemporaryFiles.remove(path) }
            let delays = try await crossProcessDelays(
                path: path, commits: commits, watchesFiles: watches,
                command: writer == "library"
                    ? "'\(executable)' --commit-child '\(path)' \(commits)" : shellCommand(path, commits))
            let sorted = delays.sorted()
            let notice = watches ? "file events (default)" : "polling every 100 ms"
            print(
                "| \(writer) | \(notice) | \(sorted.count) of \(commits) | "
                    + "\(format(milliseconds: percentile(sorted, 0.5))) | \(format(milliseconds: percentile(sorted, 0.99))) |"
            )
            fflush(nil)
        }
    }

    // MARK: - Idle

    private static func makeDatabase(_ path: String) throws {
        let db = try Connection(creating: path)
        _ = try db.fetchValue(String.self, "PRAGMA journal_mode = WAL")
        try db.execute("CREATE TABLE written (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
        for index in 0..<100 {
            try db.execute(SQL(verbatim: "CREATE TABLE t\(index) (id INTEGER PRIMARY KEY, value INTEGER)"))
        }
    }

    /// CPU nanoseconds and context switches per second of the whole process while `observations` observe and
    /// nobody writes.
    private static func idleCost(
        path: String, observations: Int, watchesFiles: Bool, seconds: Int
    ) async throws -> (cpu: Double, wakeUps: Double) {
        try makeDatabase(path)
        let shared = try SharedConnection(.open(path: path))
        let options = ObservationOptions(watchesFiles: watchesFiles)
        var tasks: [Task<Void, any Error>] = []
        for index in 0..<observations {
            let ready = AsyncStream<Void>.makeStream()
            tasks.append(
                Task {
                    var first = true
                    for try await _ in shared.observe(
                        options: options,
                        { db in
                            try db.fetchValue(Int.self, SQL(verbatim: "SELECT count(*) FROM t\(index)"))
                        }) where first
                    {
                        first = false
                        ready.continuation.yield()
                    }
                })
            var iterator = ready.stream.makeAsyncIterator()
            _ = await iterator.next()
        }
        defer { for task in tasks { task.cancel() } }
        usleep(500_000)
        // The measuring thread sleeps in one call: one switch of its own, subtracted.
        let startSwitches = contextSwitches()
        let startCPU = processCPUTime()
        sleep(UInt32(seconds))
        let cpu = processCPUTime() - startCPU
        let switches = contextSwitches() - startSwitches
        return (Double(cpu) / Double(seconds), Double(switches - 1) / Double(seconds))
    }

    /// Voluntary and involuntary context switches of every thread of this process so far, ended threads included.
    private static func contextSwitches() -> Int {
        var usage = rusage()
        #if os(Linux)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        return usage.ru_nvcsw + usage.ru_nivcsw
    }

    private static func processCPUTime() -> UInt64 {
        now(CLOCK_PROCESS_CPUTIME_ID)
    }

    // MARK: - Other processes

    /// Observes the highest row id of `written` while `command` commits `commits` rows, each holding the wall-clock
    /// time in nanoseconds just before its commit; returns, for every commit, the delay from that time to the first
    /// delivery that includes it (commits that arrive together are delivered together: each counts).
    private static func crossProcessDelays(
        path: String, commits: Int, watchesFiles: Bool, command: String
    ) async throws -> [Double] {
        try makeDatabase(path)
        let shared = try SharedConnection(.open(path: path))
        let deliveries = Mutex<[(lastID: Int64, arrival: Int64)]>([])
        let ready = AsyncStream<Void>.makeStream()
        let observer = Task {
            defer { ready.continuation.finish() }  // an observation that fails ends the wait below
            let options = ObservationOptions(watchesFiles: watchesFiles)
            for try await lastID in shared.observe(
                options: options,
                { db in try db.fetchValue(Int64.self, "SELECT coalesce(max(id), 0) FROM written") ?? 0 })
            {
                let arrival = Int64(now(CLOCK_REALTIME))
                deliveries.withLock { $0.append((lastID, arrival)) }
                ready.continuation.yield()
            }
        }
        var iterator = ready.stream.makeAsyncIterator()
        guard await iterator.next() != nil else {
            try await observer.value
            throw BenchError("the observation ended before its first value")
        }
        _ = try Streaming.capture(command)
        // The last commit's delivery: at most a second after the writer ended.
        for _ in 0..<100 where (deliveries.withLock { $0.last?.lastID ?? 0 }) < Int64(commits) {
            try await Task.sleep(for: .milliseconds(10))
        }
        observer.cancel()
        let seen = deliveries.withLock { $0 }
        let rows = try Connection(opening: path).fetchAll(
            Commit.self, "SELECT id, value FROM written ORDER BY id")
        return rows.compactMap { row in
            seen.first { $0.lastID >= row.id }.map { Double($0.arrival - row.time) }
        }
    }

    /// One commit of the other process: its row id and its time.
    private struct Commit: RowDecodable {
        let id: Int64
        let time: Int64
        init(row: borrowing Row) throws {
            id = try row[0]
            time = try row[1]
        }
    }

    /// A shell script that commits `commits` rows through the `sqlite3` shell, 5 to 15 ms apart.
    private static func shellCommand(_ path: String, _ commits: Int) -> String {
        // The shell reads its statements as the loop writes them; julianday('now') has millisecond resolution.
        let insert =
            "INSERT INTO written(value) VALUES (CAST((julianday('now') - 2440587.5) * 86400000000000 AS INTEGER));"
        return "for i in $(seq \(commits)); do sleep 0.0$((RANDOM % 10 + 5)); echo \"\(insert)\"; done"
            + " | sqlite3 -cmd '.timeout 5000' '\(path)'"
    }

    /// Child mode: `--commit-child <path> <commits>`: commits the rows through the library, 5 to 15 ms apart.
    static func commitChild(_ arguments: [String]) throws {
        guard arguments.count == 2, let commits = Int(arguments[1]) else {
            throw BenchError("--commit-child path commits")
        }
        let db = try Connection(opening: arguments[0])
        let insert = try db.prepare("INSERT INTO written(value) VALUES (?)")
        for _ in 0..<commits {
            usleep(UInt32.random(in: 5_000...15_000))
            try insert.execute([Int64(now(CLOCK_REALTIME))])
        }
    }

    private static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
    }

    private static func format(milliseconds nanoseconds: Double) -> String {
        nanoseconds.isNaN ? "-" : "\((nanoseconds / 10_000).rounded() / 100) ms"
    }

    private static func format(_ value: Double) -> String {
        "\((value * 10).rounded() / 10)"
    }
}
