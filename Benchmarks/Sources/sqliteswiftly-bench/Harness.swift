#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a workload's database lives.
enum Store: String, CaseIterable {
    /// `:memory:`, one database per connection.
    case memory
    /// A fresh file in WAL mode with `synchronous=NORMAL`.
    case wal

    var label: String {
        switch self {
        case .memory: "in-memory"
        case .wal: "WAL file"
        }
    }
}

/// The database a trial runs against: `:memory:` or a fresh file path.
struct Location {
    let store: Store
    let path: String

    var isMemory: Bool { store == .memory }
}

/// One timed body: it runs once and returns a checksum that all implementations of a workload must agree on.
typealias Body = () throws -> Int64

/// One implementation of a workload. `prepare` opens its own connection, creates (and fills) the table, and
/// returns the body to time; none of that setup is timed.
struct Implementation: Sendable {
    let name: String
    let prepare: @Sendable (Location, Int) throws -> Body
}

struct Workload {
    let name: String
    let implementations: [Implementation]
    /// Timed in the process's CPU time rather than wall-clock time.
    var cpuTime = false

    init(name: String, cpuTime: Bool = false, implementations: [Implementation]) {
        self.name = name
        self.cpuTime = cpuTime
        self.implementations = implementations
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Nanoseconds on `clock` (monotonic wall-clock time by default).
func now(_ clock: clockid_t = CLOCK_MONOTONIC) -> UInt64 {
    var spec = timespec()
    clock_gettime(clock, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

func median(_ values: [UInt64]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    if sorted.count % 2 == 1 { return Double(sorted[middle]) }
    return (Double(sorted[middle - 1]) + Double(sorted[middle])) / 2
}

/// A fresh temporary path, with its -wal and -shm companions removed after use.
struct TemporaryFiles {
    let directory: String
    private var counter = 0

    init() throws {
        var template = Array("/tmp/sqliteswiftly-bench-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("cannot create a temporary directory") }
        directory = String(cString: made)
    }

    mutating func next() -> String {
        counter += 1
        return "\(directory)/db\(counter).sqlite"
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    func removeDirectory() {
        rmdir(directory)
    }
}

func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let count = text.count
    if count >= width { return text }
    let padding = String(repeating: " ", count: width - count)
    return right ? padding + text : text + padding
}

func formatMilliseconds(_ nanoseconds: Double) -> String {
    let milliseconds = nanoseconds / 1_000_000
    if milliseconds >= 100 { return String(Int(milliseconds.rounded())) + " ms" }
    let tenths = (milliseconds * 100).rounded() / 100
    return "\(tenths) ms"
}

func formatRatio(_ ratio: Double) -> String {
    guard ratio.isFinite else { return "-" }
    let rounded = (ratio * 100).rounded() / 100
    var text = "\(rounded)"
    if let dot = text.firstIndex(of: ".") {
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        if decimals < 2 { text += String(repeating: "0", count: 2 - decimals) }
    }
    return text + "x"
}

/// Machine facts for the report header.
func machineDescription() -> [String] {
    var lines: [String] = []
    var name = utsname()
    uname(&name)
    let system = withUnsafeBytes(of: &name.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let machine = withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    lines.append("system: \(system) \(release) \(machine), \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) cores")
    if let cpu = readFirstLine(of: "/proc/cpuinfo", prefix: "model name") {
        lines.append("cpu: " + (cpu.split(separator: ":", maxSplits: 1).last.map { $0.trimmingSpaces } ?? cpu))
    }
    return lines
}

func readFirstLine(of path: String, prefix: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, file) > 0 {
        guard let line else { break }
        let text = String(cString: line)
        if text.hasPrefix(prefix) { return text.trimmingSpaces }
    }
    return nil
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\n" || $0 == "\t" }.reversed())
    }
}

/// Peak resident memory of this process, in kilobytes (Linux reports ru_maxrss in KB).
func peakMemoryKilobytes() -> Int {
    var usage = rusage()
    #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    return Int(usage.ru_maxrss)
}

/// Writes a line to standard error.
func printError(_ message: String) {
    let line = Array((message + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
