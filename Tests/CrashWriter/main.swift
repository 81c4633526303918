// A child process for CrashSafetyTests: it commits numbered transactions into an existing database until it
// is killed, and acknowledges each one on standard output only after its commit returned.
//
//     CrashWriter DATABASE [ROWS_PER_TRANSACTION]
//
// The database must hold the tables `items (tx, seq, payload)` and `progress (id = 1, tx)` (the test creates
// them, and chooses the journal mode). Transaction n inserts rows (n, 1...ROWS) and sets progress.tx to n.
// The writer stops by itself after 60 seconds, so that a test that dies cannot leave it running for long.
import Foundation
import SQLiteSwiftly

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: CrashWriter DATABASE [ROWS_PER_TRANSACTION]\n".utf8))
    exit(2)
}
let rowsPerTransaction = arguments.count >= 3 ? Int(arguments[2]) ?? 20 : 20
let deadline = ContinuousClock.now + .seconds(60)

do {
    let db = try Connection(opening: arguments[1])
    let insert = try db.prepare("INSERT INTO items (tx, seq, payload) VALUES (?, ?, ?)")
    let progress = try db.prepare("UPDATE progress SET tx = ? WHERE id = 1")
    var number = (try db.fetchValue(Int.self, "SELECT tx FROM progress WHERE id = 1") ?? 0) + 1
    var payload = [UInt8](repeating: 0, count: 300)
    while ContinuousClock.now < deadline {
        try db.transaction {
            for seq in 1...rowsPerTransaction {
                for index in payload.indices {
                    payload[index] = UInt8(truncatingIfNeeded: number &* 31 &+ seq &+ index)
                }
                try insert.execute([number, seq, payload])
            }
            try progress.execute([number])
        }
        // The acknowledgement: written (unbuffered, one write(2)) only once the commit has returned.
        FileHandle.standardOutput.write(Data("\(number)\n".utf8))
        number += 1
    }
} catch {
    FileHandle.standardError.write(Data("CrashWriter: \(error)\n".utf8))
    exit(1)
}
