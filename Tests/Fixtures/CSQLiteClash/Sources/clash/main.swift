import CSQLite
import Foundation
import SQLiteSwiftly

// Uses both the fixture's own `CSQLite` module and SQLiteSwiftly in one program.
let db = try Connection.inMemory()
let answer = try db.fetchValue(Int.self, "SELECT ?", [Int(clash_answer())])
guard answer == 42 else {
    print("clash: expected 42, read \(String(describing: answer))")
    exit(1)
}
print("clash: a package with its own CSQLite target builds and runs with SQLiteSwiftly")
