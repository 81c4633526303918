// A child process for ChangesetConvergenceTests: one of two databases kept in step by exchanging changesets.
//
//     SyncPeer DATABASE SEED
//
// Creates DATABASE with the schema below and rows drawn from SEED (both peers get the same ones), prints `ready`,
// then runs commands read one per line from standard input, answering each with one line:
//
//     edit SEED COUNT FILE   makes COUNT random edits in one recorded transaction and writes their changeset to
//                            FILE; answers `edited CHANGES`
//     merge FILE             applies the other peer's changeset under the conflict rule; answers
//                            `merged APPLIED REPLACED SKIPPED`
//     rebase FILE            undoes this peer's last edits, applies the other peer's changeset (which then cannot
//                            conflict), and applies its own edits again under the conflict rule; answers
//                            `rebased APPLIED REPLACED SKIPPED`
//     quit                   exits
//
// A command that fails answers `error MESSAGE`.
//
// The conflict rule: the primary peer's changes win. In each round one peer is the primary: it rebases, the other
// merges. Both then apply the primary's changeset to the same state, the common starting point plus the
// secondary's edits, with the same deterministic rule, so they end identical:
// - a row changed since, or a row that already exists (`.data`, `.conflict`): the primary's change replaces it;
// - a row that no longer exists (`.notFound`): it stays deleted (a deletion wins over an update);
// - a change that would break the UNIQUE constraint (`.constraint`): it is left out (both peers may give one code
//   to two rows).
import Foundation
import SQLiteSwiftly

/// A deterministic generator (SplitMix64): the same seed gives the same edits.
struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

let schema: SQL = """
    CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, qty INTEGER, price REAL, code TEXT UNIQUE,
        photo BLOB);
    CREATE TABLE marks (item INTEGER NOT NULL, label TEXT NOT NULL, note TEXT, PRIMARY KEY (item, label))
        WITHOUT ROWID;
    """

/// The conflict rule described above.
func primaryWins(_ conflict: ChangesetConflict) -> ChangesetConflict.Resolution {
    conflict.kind == .data || conflict.kind == .conflict ? .replace : .skip
}

/// Random values, including NULLs, empty and non-ASCII text, and blobs.
struct Values {
    var random: Seeded

    mutating func id() -> Int { Int.random(in: 1...24, using: &random) }
    mutating func name() -> String {
        ["", "apple", "Äpfel", "りんご", "🍎 pie", "a\u{0}b", "pear", "quince"].randomElement(using: &random) ?? ""
    }
    mutating func quantity() -> Int? { Bool.random(using: &random) ? nil : Int.random(in: -5...500, using: &random) }
    mutating func price() -> Double? { Bool.random(using: &random) ? nil : Double.random(in: -1...1e6, using: &random) }
    /// The codes that this round's edits may not use: those held when the round began, and those given since.
    var takenCodes: Set<String> = []

    /// A code no row held when the round began, or NULL. A code freed and given to another row in one round would
    /// make a changeset that SQLite 3.40 cannot apply in any order (see DESIGN.md); between the two peers, the
    /// same code given to two rows is a constraint conflict that the rule resolves.
    mutating func code() -> String? {
        let code = "c\(Int.random(in: 0...11, using: &random))"
        guard Bool.random(using: &random), takenCodes.insert(code).inserted else { return nil }
        return code
    }
    mutating func photo() -> [UInt8]? {
        Bool.random(using: &random)
            ? nil : (0..<Int.random(in: 0...12, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
    }
    mutating func label() -> String { ["red", "blue", "todo", "星"].randomElement(using: &random) ?? "" }
}

/// One random edit: an insert, update or delete of an item or a mark. A statement that breaks the UNIQUE
/// constraint fails alone, and the edits go on.
func edit(_ db: Connection, _ values: inout Values) throws {
    let id = values.id()
    let statement: SQL
    switch Int.random(in: 0..<9, using: &values.random) {
    case 0, 1:
        statement = """
            INSERT OR REPLACE INTO items (id, name, qty, price, code, photo) VALUES (\(id), \(values.name()),
            \(values.quantity()), \(values.price()), \(values.code()), \(values.photo()))
            """
    case 2: statement = "UPDATE items SET name = \(values.name()), qty = \(values.quantity()) WHERE id = \(id)"
    case 3: statement = "UPDATE items SET price = \(values.price()), code = \(values.code()) WHERE id = \(id)"
    case 4: statement = "UPDATE items SET photo = \(values.photo()) WHERE id = \(id)"
    case 5: statement = "DELETE FROM items WHERE id = \(id)"
    case 6: statement = "INSERT OR REPLACE INTO marks VALUES (\(id), \(values.label()), \(values.name()))"
    case 7: statement = "UPDATE marks SET note = \(values.name()) WHERE item = \(id)"
    default: statement = "DELETE FROM marks WHERE item = \(id) AND label = \(values.label())"
    }
    do throws(SQLiteError) {
        try db.execute(statement)
    } catch {
        // A duplicate code: this statement is left out, like a user's edit refused by the app.
        guard error.code.primary == .constraint else { throw error }
    }
}

/// Writes one answer line, unbuffered: the test waits for it.
func answer(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func describe(_ result: AppliedChangeset) -> String {
    "\(result.appliedCount) \(result.replacedCount) \(result.skipped.count)"
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let seed = UInt64(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: SyncPeer DATABASE SEED\n".utf8))
    exit(2)
}
do {
    let db = try Connection(creating: arguments[1])
    try db.executeScript(schema)
    var values = Values(random: Seeded(state: seed))
    try db.transaction { for _ in 0..<30 { try edit(db, &values) } }
    var own = Changeset(bytes: [])
    answer("ready")
    while let line = readLine() {
        let words = line.split(separator: " ").map(String.init)
        do {
            switch words.first {
            case "edit" where words.count == 4:
                var values = Values(random: Seeded(state: UInt64(words[1]) ?? 0))
                let held = try db.fetchAll(UntypedRow.self, "SELECT code FROM items WHERE code IS NOT NULL")
                values.takenCodes = Set(
                    held.compactMap { row in if case .text(let code)? = row[0] { code } else { nil } })
                let count = Int(words[2]) ?? 0
                own = try db.recordingChangeset { for _ in 0..<count { try edit(db, &values) } }.changeset
                try Data(own.bytes).write(to: URL(fileURLWithPath: words[3]))
                answer("edited \(try own.changes().count)")
            case "merge" where words.count == 2:
                let theirs = Changeset(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: words[1]))))
                answer("merged " + describe(try db.apply(theirs, onConflict: primaryWins)))
            case "rebase" where words.count == 2:
                let theirs = Changeset(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: words[1]))))
                let result = try db.transaction {
                    try db.apply(own.inverted())  // back to the common state: cannot conflict
                    try db.apply(theirs)  // recorded from the common state: cannot conflict
                    return try db.apply(own, onConflict: primaryWins)
                }
                answer("rebased " + describe(result))
            case "quit":
                exit(0)
            default:
                answer("error unknown command: \(line)")
            }
        } catch {
            answer("error \(error)")
        }
    }
} catch {
    answer("error \(error)")
    exit(1)
}
