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
}
