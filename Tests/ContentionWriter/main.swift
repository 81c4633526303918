// A child process for ContentionTests: one of several writers that commit short immediate transactions into
// one database, back to back, for a while; it reports how long each transaction waited for the write lock.
//
//     ContentionWriter DATABASE WRITER SECONDS HOLD_MS TIMEOUT_MS WAITING
//
// WAITING is `queued` (the defaults: the writers' turnstile and short retries), `polling` (short retries
// only: ConnectionOptions.queuesWriters off) or `sqlite` (SQLite's own handler, PRAGMA busy_timeout: what the
// library did before). The database must hold the table `commits (writer, number)`. The writer opens the
// database, prints `ready`, and starts when a line arrives on standard input, so that every writer starts
// together. Each transaction inserts one row and holds the lock HOLD_MS milliseconds. At the end it prints one
// line per transaction, `wait MICROSECONDS` or `fail MESSAGE`, then `done`.
import Foundation
import SQLiteSwiftly

let arguments = CommandLine.arguments
guard arguments.count == 7, let writer = Int(arguments[2]), let seconds = Double(arguments[3]),
    let hold = UInt32(arguments[4]), let timeout = Int(arguments[5]),
    ["queued", "polling", "sqlite"].contains(arguments[6])
else {
    FileHandle.standardError.write(
        Data("usage: ContentionWriter DATABASE WRITER SECONDS HOLD_MS TIMEOUT_MS queued|polling|sqlite\n".utf8))
    exit(2)
}
let waiting = arguments[6]
var report: [String] = []
do {
    let options = ConnectionOptions(busyTimeout: .milliseconds(timeout), queuesWriters: waiting == "queued")
    let db = try Connection(opening: arguments[1], options: options)
    if waiting == "sqlite" { try db.execute(SQL(verbatim: "PRAGMA busy_timeout = \(timeout)")) }
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    _ = readLine()
    let clock = ContinuousClock()
    let end = clock.now + .milliseconds(Int(seconds * 1000))
    var number = 0
    while clock.now < end {
        number += 1
        let asked = clock.now
        do {
            var waited = Duration.zero
            try db.transaction {
                waited = clock.now - asked
                try db.execute("INSERT INTO commits (writer, number) VALUES (?, ?)", [writer, number])
                usleep(hold * 1000)  // the transaction's work, done while holding the lock
            }
            let (whole, fraction) = waited.components
            report.append("wait \(whole * 1_000_000 + fraction / 1_000_000_000_000)")
        } catch {
            report.append("fail \(error)")
        }
    }
} catch {
    report.append("fail \(error)")
}
report.append("done")
FileHandle.standardOutput.write(Data((report.joined(separator: "\n") + "\n").utf8))
