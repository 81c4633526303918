import SQLiteSwiftly

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--script MEGABYTES`: a script of that size (one CREATE TABLE, then INSERTs in one transaction) run by
/// `Connection.executeScript` and by the `sqlite3` shell (`sqlite3 DB < FILE`) into fresh database files; prints
/// the median of three runs of each and their ratio. Reading the file is timed for both.
enum ScriptBench {
    static func run(megabytes: Int) throws {
        var files = try TemporaryFiles()
        defer { files.removeDirectory() }
        let scriptPath = files.directory + "/script.sql"
        let script = makeScript(bytes: megabytes * 1_000_000)
        try write(script, to: scriptPath)
        defer { unlink(scriptPath) }
        print("script: \(script.utf8.count) bytes, \(script.utf8.count / 1_000_000) MB; median of 3 runs")
        var ours: [UInt64] = []
        var shell: [UInt64] = []
        for _ in 0..<3 {
            let ourPath = files.next()
            let start = now()
            let text = try read(scriptPath)
            let db = try Connection(creating: ourPath)
            try db.executeScript(SQL(verbatim: text))
            ours.append(now() - start)
            let rows = try db.fetchValue(Int.self, "SELECT count(*) FROM t") ?? 0
            TemporaryFiles.remove(ourPath)

            let shellPath = files.next()
            let shellStart = now()
            guard system("sqlite3 '\(shellPath)' < '\(scriptPath)'") == 0 else {
                throw BenchError("the sqlite3 shell failed (is it installed?)")
            }
            shell.append(now() - shellStart)
            let check = try Connection(opening: shellPath)
            guard try check.fetchValue(Int.self, "SELECT count(*) FROM t") == rows else {
                throw BenchError("the shell and executeScript inserted different row counts")
            }
            TemporaryFiles.remove(shellPath)
        }
        let oursMedian = median(ours) / 1e9
        let shellMedian = median(shell) / 1e9
        print("executeScript  \(format(oursMedian)) s")
        print("sqlite3 shell  \(format(shellMedian)) s")
        print("ratio          \(format(oursMedian / shellMedian))x")
    }

    private static func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// CREATE TABLE, BEGIN, INSERT lines up to `bytes`, COMMIT.
    static func makeScript(bytes: Int) -> String {
        var script = "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, value REAL NOT NULL);\nBEGIN;\n"
        var id = 0
        while script.utf8.count < bytes {
            id += 1
            script +=
                "INSERT INTO t (id, name, value) VALUES (\(id), 'name \(id) -- not a comment; quoted', \(id).5);\n"
        }
        script += "COMMIT;\n"
        return script
    }

    private static func write(_ text: String, to path: String) throws {
        guard let file = fopen(path, "w") else { throw BenchError("cannot write \(path)") }
        defer { fclose(file) }
        let written = text.utf8CString.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count - 1, file) }
        guard written == text.utf8.count else { throw BenchError("cannot write \(path)") }
    }

    private static func read(_ path: String) throws -> String {
        guard let file = fopen(path, "r") else { throw BenchError("cannot read \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
