import SQLiteSwiftly
import Testing

/// Truncated, corrupted and hand-made changesets: every use throws a typed error or works, never crashes, and a
/// failed application leaves the target exactly as it was.
@Suite struct ChangesetHostileInputTests {
    /// A changeset with every kind of change and value, recorded on the fixture.
    private func sample() throws -> Changeset {
        let db = try ChangesetFixture.database()
        return try db.recordingChangeset {
            try db.execute("INSERT INTO notes (id, title, body, score, data) VALUES (3, 'Trip', 'Lisbon', 0.5, x'01')")
            try db.execute("UPDATE notes SET body = 'bread', score = 2.25 WHERE id = 1")
            try db.execute("DELETE FROM notes WHERE id = 2")
            try db.execute("INSERT INTO tags VALUES (3, 'travel', 'green')")
        }.changeset
    }

    /// Uses `bytes` every way, on a fresh target; a failure must be an `SQLiteError` and leave the target as it was.
    private func useEveryWay(_ bytes: [UInt8], note: String) throws {
        let target = try ChangesetFixture.database()
        var snapshot = try ChangesetFixture.contents(of: target)
        let changeset = Changeset(bytes: bytes)
        let patchset = Patchset(bytes: bytes)
        let uses: [(String, () throws -> Void)] = [
            ("changes", { _ = try changeset.changes() }),
            ("patchset changes", { _ = try patchset.changes() }),
            ("inverted", { _ = try changeset.inverted().changes() }),
            ("concatenated", { _ = try Changeset.concatenating([changeset, changeset]) }),
            ("apply", { try target.apply(changeset) }),
            ("apply skipping", { try target.apply(changeset) { _ in .skip } }),
            (
                "apply replacing",
                { try target.apply(changeset) { $0.kind == .data || $0.kind == .conflict ? .replace : .skip } }
            ),
            ("apply patchset", { try target.apply(patchset) { _ in .skip } }),
        ]
        for (name, use) in uses {
            do {
                try use()
                if name.hasPrefix("apply") { snapshot = try ChangesetFixture.contents(of: target) }
            } catch let error as SQLiteError {
                #expect(!error.message.isEmpty)
                #expect(try ChangesetFixture.contents(of: target) == snapshot, "\(note): \(name) changed the target")
            } catch {
                Issue.record("\(note): \(name) threw \(error), not an SQLiteError")
            }
            #expect(!target.isInTransaction)
        }
    }

    @Test("every truncation of a changeset is refused or read as the shorter changeset it is")
    func truncations() throws {
        let bytes = try sample().bytes
        #expect(bytes.count > 60)
        for length in 0..<bytes.count {
            try useEveryWay(Array(bytes.prefix(length)), note: "first \(length) bytes")
        }
        let error = try requireSQLiteError { try Changeset(bytes: Array(bytes.dropLast())).changes() }
        #expect(error.kind == .invalidChangeset)
        #expect(error.code == .corrupt)
        #expect(error.message.contains("byte"))
    }

    @Test("random corruption (fixed seed) never crashes and never half-applies")
    func corruption() throws {
        let bytes = try sample().bytes
        let seed: UInt64 = 0x5EED_C4A7
        var random = SplitMix(state: seed)
        for round in 0..<200 {
            var corrupted = bytes
            for _ in 0...Int.random(in: 0...3, using: &random) {
                let index = Int.random(in: 0..<corrupted.count, using: &random)
                corrupted[index] = UInt8.random(in: 0...255, using: &random)
            }
            try useEveryWay(corrupted, note: "seed \(seed), round \(round)")
        }
        for round in 0..<50 {
            let garbage = (0..<Int.random(in: 1...64, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            try useEveryWay([0x54] + garbage, note: "seed \(seed), garbage \(round)")
        }
    }

    @Test("hand-made hostile headers and values are refused with what is wrong and where")
    func handMade() throws {
        let cases: [(String, [UInt8], String)] = [
            ("no header", [0x12, 0x00], "table header"),
            ("a lone header byte (SQLite 3.40.1's inversion never returns for it)", [0x54], "cut short"),
            ("zero columns", [0x54, 0x00, 0x61, 0x00], "0 columns"),
            ("huge column count", [0x54, 0x8F, 0xFF, 0xFF, 0xFF, 0x7F, 0x01], "columns"),
            ("name without end", [0x54, 0x01, 0x01, 0x61, 0x62], "table name"),
            ("empty name", [0x54, 0x01, 0x01, 0x00], "table name"),
            ("invalid name", [0x54, 0x01, 0x01, 0xFF, 0x00], "not UTF-8"),
            ("unknown operation", [0x54, 0x01, 0x01, 0x74, 0x00, 0x33, 0x00], "operation"),
            ("unknown value type", [0x54, 0x01, 0x01, 0x74, 0x00, 0x12, 0x00, 0x09], "value type 9"),
            (
                "length past the end", [0x54, 0x01, 0x01, 0x74, 0x00, 0x12, 0x00, 0x03, 0x8F, 0xFF, 0xFF, 0x7F],
                "longer"
            ),
            ("integer cut short", [0x54, 0x01, 0x01, 0x74, 0x00, 0x12, 0x00, 0x01, 0x00, 0x00], "cut short"),
        ]
        for (name, bytes, expected) in cases {
            let error = try requireSQLiteError { try Changeset(bytes: bytes).changes() }
            #expect(error.kind == .invalidChangeset, "\(name)")
            #expect(error.message.contains(expected), "\(name): \(error.message)")
            try useEveryWay(bytes, note: name)
        }
        // A well-formed change for a table that exists, with a value of the wrong type for its key.
        let wrongKey: [UInt8] =
            [0x54, 0x02, 0x01, 0x00] + Array("notes".utf8) + [0x00, 0x12, 0x00, 0x03, 0x01, 0x61, 0x05]
        let target = try ChangesetFixture.database()
        let error = try ChangesetFixture.expectUnchanged(target) { try target.apply(Changeset(bytes: wrongKey)) }
        #expect(error is SQLiteError)
    }
}
