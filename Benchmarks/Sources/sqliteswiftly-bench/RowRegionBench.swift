import SQLiteSwiftly

// sqliteswiftly-bench --observation-rows [--rows N] [--runs R] [--store memory|wal]
//
// The cost of observations that read single rows by id (issue #32, row-level regions), through a SharedConnection:
// N write transactions, each an UPDATE of one row that no observation reads, with no observation and with 100
// observations of `SELECT * FROM written WHERE id = ?` (ids 1...100); the median of R interleaved runs, wall-clock
// and process CPU time, and their ratios to no observation. A commit that changes no observed row should not make
// any observation fetch again.
enum RowRegionBench {
    /// The observed rows are 1...observed; the written ones follow.
    private static let observed = 100

    private static func makeDatabase(_ location: Location) async throws -> SharedConnection {
        let shared = try await ObservationBench.openShared(location)
        try await shared.withConnection { db in
            try db.execute("CREATE TABLE written (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
            try db.execute(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) "
                    + "INSERT INTO written (id, value) SELECT i, 0 FROM n")
        }
        return shared
    }

    /// Starts `count` observations, each of one row; returns their tasks and how many values each delivered.
    private static func startObservations(
        _ shared: SharedConnection, count: Int
    ) async throws -> (tasks: [Task<Int, any Error>], lastValues: AsyncStream<(Int, Int)>) {
        let values = AsyncStream<(Int, Int)>.makeStream()
        var tasks: [Task<Int, any Error>] = []
        for id in 1...max(count, 1) where count > 0 {
            let ready = AsyncStream<Void>.makeStream()
            tasks.append(
                Task {
                    var deliveries = 0
                    for try await value in shared.observe({ db in
                        try db.fetchValue(Int.self, "SELECT value FROM written WHERE id = \(id)")
                    }) {
                        deliveries += 1
                        if deliveries == 1 { ready.continuation.yield() }
                        values.continuation.yield((id, value ?? -1))
                    }
                    return deliveries
                })
            var iterator = ready.stream.makeAsyncIterator()
            _ = await iterator.next()
        }
        return (tasks, values.stream)
    }

    /// Times `writes` write transactions, each updating one row above the observed ones.
    private static func timeWrites(_ shared: SharedConnection, writes: Int) async throws -> (wall: UInt64, cpu: UInt64)
    {
        let start = now()
        let startCPU = ObservationBench.processCPUTime()
        for index in 0..<writes {
            let id = observed + 1 + index % observed
            try await shared.write { db in try db.execute("UPDATE written SET value = \(index) WHERE id = \(id)") }
        }
        return (now() - start, ObservationBench.processCPUTime() - startCPU)
    }

    static func run(_ options: Options, files: inout TemporaryFiles) async throws {
        let writes = options.rows
        print(
            "row regions: \(writes) write transactions of one UPDATE of an unobserved row each, median of "
                + "\(options.runs) run(s)")
        print("")
        print("| database | observations | write throughput | wall time ratio | CPU per commit | CPU ratio | fetches |")
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
        let counts = [0, observed]
        for store in options.stores {
            var times = Array(repeating: [UInt64](), count: counts.count)
            var cpuTimes = Array(repeating: [UInt64](), count: counts.count)
            var fetches = Array(repeating: 0, count: counts.count)
            for _ in 0..<options.runs {
                for (index, count) in counts.enumerated() {
                    let location = Location(store: store, path: store == .memory ? ":memory:" : files.next())
                    defer { if store == .wal { TemporaryFiles.remove(location.path) } }
                    let shared = try await makeDatabase(location)
                    let (tasks, values) = try await startObservations(shared, count: count)
                    _ = try await timeWrites(shared, writes: 100)  // warm-up: statements compiled, regions known
                    let (wall, cpu) = try await timeWrites(shared, writes: writes)
                    times[index].append(wall)
                    cpuTimes[index].append(cpu)
                    if count > 0 {
                        // Check: a change to an observed row is delivered, with the value written.
                        try await shared.write { db in try db.execute("UPDATE written SET value = 7 WHERE id = 1") }
                        var iterator = values.makeAsyncIterator()
                        while let (id, value) = await iterator.next(), id != 1 || value != 7 {}
                    }
                    for task in tasks { task.cancel() }
                    var delivered = 0
                    for task in tasks { delivered += (try? await task.value) ?? 0 }
                    fetches[index] = delivered
                    // Check: no observation fetched again for the other rows (its first fetch, and row 1's change).
                    if count > 0 && delivered != count + 1 {
                        throw BenchError("\(delivered) fetches for \(count) observations, expected \(count + 1)")
                    }
                }
            }
            let baseline = median(times[0])
            let cpuBaseline = median(cpuTimes[0])
            for (index, count) in counts.enumerated() {
                let time = median(times[index])
                let cpu = median(cpuTimes[index])
                let perSecond = Double(writes) / (time / 1e9)
                let label = count == 0 ? "none" : "\(count) of one row each, by id"
                print(
                    "| \(store.label) | \(label) | \(Int(perSecond.rounded())) commits/s | "
                        + "\(formatRatio(time / baseline)) | "
                        + "\(ObservationBench.formatMicroseconds(cpu / Double(writes), digits: 1)) | "
                        + "\(formatRatio(cpu / cpuBaseline)) | \(fetches[index]) |")
            }
        }
    }
}
