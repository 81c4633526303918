import GRDB
import SQLiteSwiftly

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Streaming rows through a cursor, in a child process per measurement so that each peak-memory figure
// (getrusage ru_maxrss) belongs to that measurement alone.

enum Streaming {
    static let implementations = ["raw C", "SQLiteSwiftly cursor", "GRDB record cursor"]

    static func run(_ options: Options, files: inout TemporaryFiles) throws {
        let executable = try executablePath()
        print("Streaming rows of 10 INTEGER columns through a cursor (one child process per line; peak = ru_maxrss,")
        print("growth = peak after streaming minus peak before; an in-memory database's own pages count in its peak):")
        print("")
        print("| database | implementation | rows | time | peak memory | growth while streaming |")
        print("| --- | --- | ---: | ---: | ---: | ---: |")
        let sizes = [1_000, options.streamRows]
        for store in options.stores {
            var paths: [Int: String] = [:]
            if store == .wal {
                for rows in sizes {
                    let path = files.next()
                    let db = try RawConnection(Location(store: .wal, path: path))
                    try db.exec(Dataset.intsSchema)
                    try db.exec(Dataset.fillInts(rows))
                    try db.exec("PRAGMA wal_checkpoint(TRUNCATE)")
                    paths[rows] = path
                }
            }
            defer { for path in paths.values { TemporaryFiles.remove(path) } }
            for (index, implementation) in implementations.enumerated() {
                for rows in sizes {
                    let path = paths[rows] ?? ":memory:"
                    let output = try capture(
                        "'\(executable)' --stream-child \(store.rawValue) \(rows) \(index) '\(path)'")
                    let fields = output.split(separator: " ").compactMap { Int64($0) }
                    guard fields.count == 5, fields[4] == Int64(rows), fields[3] == Dataset.c1Sum(rows) else {
                        throw BenchError("streaming child failed: \(output)")
                    }
                    print(
                        "| \(store.label) | \(implementation) | \(rows) | \(formatMilliseconds(Double(fields[0]))) | "
                            + "\(megabytes(fields[2])) | \(megabytes(fields[2] - fields[1])) |")
                    fflush(nil)
                }
            }
        }
    }

    /// Child mode: `--stream-child <store> <rows> <implementation index> <path>`. Prints
    /// `nanoseconds peakBeforeKB peakAfterKB c1Sum rowCount`.
    static func child(_ arguments: [String]) throws {
        guard arguments.count == 4, let store = Store(rawValue: arguments[0]), let rows = Int(arguments[1]),
            let implementation = Int(arguments[2])
        else { throw BenchError("--stream-child store rows implementation path") }
        let location = Location(store: store, path: arguments[3])
        let stream: () throws -> (Int64, Int)
        switch implementation {
        case 0:
            let db = try RawConnection(location)
            if location.isMemory {
                try db.exec(Dataset.intsSchema)
                try db.exec(Dataset.fillInts(rows))
            }
            stream = { try Raw.stream(db) }
        case 1:
            let db = try location.isMemory ? Connection.inMemory() : Connection(opening: location.path)
            if location.isMemory {
                try db.execute(SQL(verbatim: Dataset.intsSchema))
                try db.execute(SQL(verbatim: Dataset.fillInts(rows)))
            }
            stream = { try Ours.stream(db) }
        default:
            let queue = try location.isMemory ? DatabaseQueue() : DatabaseQueue(path: location.path)
            if location.isMemory {
                try queue.write { db in
                    try db.execute(sql: Dataset.intsSchema)
                    try db.execute(sql: Dataset.fillInts(rows))
                }
            }
            stream = { try GRDBBench.stream(queue) }
        }
        let before = peakMemoryKilobytes()
        let start = now()
        let (sum, count) = try stream()
        let elapsed = now() - start
        let after = peakMemoryKilobytes()
        print("\(elapsed) \(before) \(after) \(sum) \(count)")
    }

    static func megabytes(_ kilobytes: Int64) -> String {
        let tenths = (Double(kilobytes) / 1024 * 10).rounded() / 10
        return "\(tenths) MB"
    }

    static func executablePath() throws -> String {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: 4096)
            let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            guard length > 0 else { throw BenchError("cannot read /proc/self/exe") }
            return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
            return CommandLine.arguments[0]
        #endif
    }

    static func capture(_ command: String) throws -> String {
        guard let pipe = popen(command, "r") else { throw BenchError("cannot run \(command)") }
        var output = ""
        var buffer = [CChar](repeating: 0, count: 1024)
        while fgets(&buffer, Int32(buffer.count), pipe) != nil {
            output += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        let status = pclose(pipe)
        guard status == 0 else { throw BenchError("\(command) exited with status \(status): \(output)") }
        return output.trimmingSpaces
    }
}
