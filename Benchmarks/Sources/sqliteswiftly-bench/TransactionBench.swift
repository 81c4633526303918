import SQLiteSwiftly

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--transactions N`: N small immediate transactions (one INSERT each) into a fresh WAL file with
/// `synchronous = OFF`, so that the fixed cost of a transaction shows, with the writers' queue on (the default)
/// and off (`ConnectionOptions.queuesWriters`); median of five runs each, interleaved.
enum TransactionBench {
    static func run(count: Int) throws {
        var files = try TemporaryFiles()
        defer { files.removeDirectory() }
        var times: [Bool: [UInt64]] = [true: [], false: []]
        for _ in 0..<5 {
            for queued in [true, false] {
                let path = files.next()
                let db = try Connection(creating: path, options: .init(queuesWriters: queued))
                _ = try db.fetchValue(String.self, "PRAGMA journal_mode = WAL")
                try db.execute("PRAGMA synchronous = OFF")
                try db.execute("CREATE TABLE t (x INTEGER NOT NULL)")
                let insert = try db.prepare("INSERT INTO t VALUES (?)")
                let start = now()
                for value in 0..<count {
                    try db.transaction { try insert.execute([value]) }
                }
                times[queued, default: []].append(now() - start)
                TemporaryFiles.remove(path)
                unlink(path + "-turnstile")
            }
        }
        for queued in [true, false] {
            let perTransaction = median(times[queued] ?? []) / Double(count)
            let label = queued ? "queued (default)" : "queuesWriters off"
            print("\(label): \(Int(perTransaction.rounded())) ns a transaction")
        }
    }

    /// `--synchronous N`: N single-row `write` transactions through a `ConnectionPool` on a WAL file, with SQLite's
    /// default `synchronous` (FULL: each commit syncs the WAL) and with `ConnectionOptions.synchronous = .normal`
    /// (the WAL is synced at checkpoints only); median of five interleaved runs each, as commits a second.
    static func synchronousModes(count: Int) async throws {
        var files = try TemporaryFiles()
        defer { files.removeDirectory() }
        let modes: [(label: String, mode: SynchronousMode?)] = [("default (FULL)", nil), ("NORMAL", .normal)]
        var times: [String: [UInt64]] = [:]
        for _ in 0..<5 {
            for (label, mode) in modes {
                let path = files.next()
                do {
                    let pool = try ConnectionPool(
                        .create(path: path), readerCount: 1, options: .init(synchronous: mode))
                    try await pool.write { db in try db.execute("CREATE TABLE t (x INTEGER NOT NULL)") }
                    let start = now()
                    for value in 0..<count {
                        try await pool.write { db in try db.execute("INSERT INTO t VALUES (?)", [value]) }
                    }
                    times[label, default: []].append(now() - start)
                }
                TemporaryFiles.remove(path)
                unlink(path + "-turnstile")
            }
        }
        for (label, _) in modes {
            let seconds = median(times[label] ?? []) / 1e9
            print("synchronous \(label): \(Int((Double(count) / seconds).rounded())) commits a second")
        }
    }
}
