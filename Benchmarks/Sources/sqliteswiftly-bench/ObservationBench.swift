import SQLiteSwiftly

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// sqliteswiftly-bench --observation [--rows N] [--runs R]
//
// The cost of observation (issue #13), through a SharedConnection:
// - write throughput: N write transactions (one INSERT each) with 0, 1, 10 and 100 observations, of unrelated
//   tables and of the written table; the median of R runs, and the ratio to no observation;
// - latency: from the start of a write transaction to the delivery of the observed value it changed, per commit,
//   median and 99th percentile over N commits, with 1, 10 and 100 observations of the written table.
enum ObservationBench {
    /// Observes `count` tables: `unrelated` ones (never written) or the written one.
    private static func startObservations(
        _ shared: SharedConnection, count: Int, unrelated: Bool
    ) async throws -> [Task<Void, any Error>] {
        var tasks: [Task<Void, any Error>] = []
        for index in 0..<count {
            let table = unrelated ? "t\(index)" : "written"
            let ready = AsyncStream<Void>.makeStream()
            tasks.append(
                Task {
                    var first = true
                    for try await _ in shared.observe({ db in
                        try db.fetchValue(Int.self, SQL(verbatim: "SELECT count(*) FROM \(table)"))
                    }) where first {
                        first = false
                        ready.continuation.yield()
                    }
                })
            var iterator = ready.stream.makeAsyncIterator()
            _ = await iterator.next()
        }
        return tasks
    }

    /// A new shared connection at `location`: in memory, or a file in WAL mode with `synchronous = NORMAL`.
    static func openShared(_ location: Location) async throws -> SharedConnection {
        let shared = try SharedConnection(location.isMemory ? .inMemory : .create(path: location.path))
        if !location.isMemory {
            try await shared.withConnection { db in
                _ = try db.fetchValue(String.self, "PRAGMA journal_mode = WAL")
                try db.execute("PRAGMA synchronous = NORMAL")
            }
        }
        return shared
    }

    private static func makeDatabase(_ location: Location) async throws -> SharedConnection {
        let shared = try await openShared(location)
        try await shared.withConnection { db in
            try db.execute("CREATE TABLE written (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
            for index in 0..<100 {
                try db.execute(SQL(verbatim: "CREATE TABLE t\(index) (id INTEGER PRIMARY KEY, value INTEGER)"))
            }
        }
        return shared
    }

    /// Times `writes` write transactions; returns wall-clock and process CPU nanoseconds.
    private static func timeWrites(_ shared: SharedConnection, writes: Int) async throws -> (wall: UInt64, cpu: UInt64)
    {
        let start = now()
        let startCPU = processCPUTime()
        for value in 0..<writes {
            try await shared.write { db in try db.execute("INSERT INTO written (value) VALUES (\(value))") }
        }
        return (now() - start, processCPUTime() - startCPU)
    }

    /// The CPU time of all the process's threads: unlike wall-clock time, it does not grow when other processes
    /// take the cores, so it compares settings fairly on a busy machine.
    static func processCPUTime() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    static func run(_ options: Options, files: inout TemporaryFiles) async throws {
        let writes = options.rows
        print("observation: \(writes) write transactions of one INSERT each, median of \(options.runs) run(s)")
        print("")
        print("| database | observations | write throughput | wall time ratio | CPU per commit | CPU ratio |")
        print("| --- | --- | ---: | ---: | ---: | ---: |")
        let cases: [(count: Int, unrelated: Bool)] = [
            (0, true), (1, true), (10, true), (100, true), (1, false), (10, false), (100, false),
        ]
        for store in options.stores {
            var times = Array(repeating: [UInt64](), count: cases.count)
            var cpuTimes = Array(repeating: [UInt64](), count: cases.count)
            // Two groups, each interleaved over the runs: the settings with unrelated observations (and none), then
            // those with observations of the written table, whose many fetches would disturb the cheap settings.
            for group in [0..<4, 4..<cases.count] {
                for _ in 0..<options.runs {
                    for index in group {
                        let setting = cases[index]
                        let location = Location(
                            store: store, path: store == .memory ? ":memory:" : files.next())
                        defer { if store == .wal { TemporaryFiles.remove(location.path) } }
                        let shared = try await makeDatabase(location)
                        let tasks = try await startObservations(
                            shared, count: setting.count, unrelated: setting.unrelated)
                        _ = try await timeWrites(shared, writes: 100)  // warm-up: statements compiled, regions known
                        let (wall, cpu) = try await timeWrites(shared, writes: writes)
                        times[index].append(wall)
                        cpuTimes[index].append(cpu)
                        for task in tasks { task.cancel() }
                        for task in tasks { _ = try? await task.value }
                    }
                }
            }
            let baseline = median(times[0])
            let cpuBaseline = median(cpuTimes[0])
            for (index, setting) in cases.enumerated() {
                let time = median(times[index])
                let cpu = median(cpuTimes[index])
                let perSecond = Double(writes) / (time / 1e9)
                let label =
                    setting.count == 0
                    ? "none" : "\(setting.count) of \(setting.unrelated ? "unrelated tables" : "the written table")"
                print(
                    "| \(store.label) | \(label) | \(Int(perSecond.rounded())) commits/s | "
                        + "\(formatRatio(time / baseline)) | \(formatMicroseconds(cpu / Double(writes), digits: 1)) | "
                        + "\(formatRatio(cpu / cpuBaseline)) |")
            }
        }
        print("")
        print("| database | observations of the written table | latency median | latency p99 |")
        print("| --- | --- | ---: | ---: |")
        for store in options.stores {
            for count in [1, 10, 100] {
                let location = Location(store: store, path: store == .memory ? ":memory:" : files.next())
                defer { if store == .wal { TemporaryFiles.remove(location.path) } }
                let shared = try await makeDatabase(location)
                let others = try await startObservations(shared, count: count - 1, unrelated: false)
                let latencies = try await measureLatency(shared, commits: min(writes, 2_000))
                for task in others { task.cancel() }
                for task in others { _ = try? await task.value }
                let sorted = latencies.sorted()
                let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
                print(
                    "| \(store.label) | \(count) | \(formatMicroseconds(median(latencies))) | "
                        + "\(formatMicroseconds(Double(p99))) |")
            }
        }
    }

    /// Writes `commits` transactions one after the other, each waiting for the observed value it produced.
    private static func measureLatency(_ shared: SharedConnection, commits: Int) async throws -> [UInt64] {
        let delivered = AsyncStream<(Int, UInt64)>.makeStream()
        let observer = Task {
            for try await count in shared.observe({ db in
                try db.fetchValue(Int.self, "SELECT count(*) FROM written") ?? 0
            }) {
                delivered.continuation.yield((count, now()))
            }
        }
        var iterator = delivered.stream.makeAsyncIterator()
        guard let (initial, _) = await iterator.next() else { throw BenchError("no first value") }
        var latencies: [UInt64] = []
        for index in 1...commits {
            let start = now()
            try await shared.write { db in try db.execute("INSERT INTO written (value) VALUES (\(index))") }
            while let (count, time) = await iterator.next() {
                if count == initial + index {
                    latencies.append(time - start)
                    break
                }
            }
        }
        observer.cancel()
        _ = try? await observer.value
        return latencies
    }

    static func formatMicroseconds(_ nanoseconds: Double, digits: Int = 0) -> String {
        if digits == 0 { return "\(Int((nanoseconds / 1000).rounded())) µs" }
        return "\((nanoseconds / 100).rounded() / 10) µs"
    }
}
