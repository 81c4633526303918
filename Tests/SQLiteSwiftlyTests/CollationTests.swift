import Foundation
import Testing

@testable import SQLiteSwiftly

private struct Person: TableModel {
    var id: Int
    var name: String

    static let tableName = "people"
    static let columns = [
        Column("id", Int.self, primaryKey: true),
        Column("name", String.self, unique: true, collation: "UNICODE_NOCASE"),
    ]

    init(id: Int, name: String) {
        self.id = id
        self.name = name
    }

    init(row: borrowing Row) throws {
        id = try row[0]
        name = try row[1]
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(name)
    }
}

/// The first column as text.
private struct FirstText: RowDecodable {
    let value: String
    init(row: borrowing Row) throws { value = try row[0] }
}

@Suite struct CollationTests {
    func connection() throws -> Connection {
        let db = try Connection.inMemory()
        try db.add(collation: .unicodeCaseInsensitive)
        try db.add(collation: .unicodeCaseAndAccentInsensitive)
        return db
    }

    func equal(_ db: Connection, _ first: String, _ second: String, _ collation: String) throws -> Bool {
        try db.fetchValue(Bool.self, "SELECT \(first) = \(second) COLLATE \(SQL(verbatim: collation))") ?? false
    }

    @Test(
        "UNICODE_NOCASE folds case beyond ASCII, keeps accents, and follows Unicode's default rules for i",
        arguments: [
            ("Émile", "émile", true), ("straße", "STRASSE", true), ("ΣΊΣΥΦΟΣ", "σίσυφος", true),
            ("Émile", "Emile", false), ("\u{E9}", "e\u{301}", true), ("I", "i", true), ("ı", "i", false),
            ("ı", "I", false), ("İ", "i\u{307}", true), ("İ", "i", false), ("ǅ", "ǆ", true), ("Ⅻ", "ⅻ", true),
            ("abc", "ABD", false),
        ])
    func caseInsensitive(first: String, second: String, same: Bool) throws {
        let db = try connection()
        #expect(try equal(db, first, second, "UNICODE_NOCASE") == same)
        #expect(try equal(db, second, first, "UNICODE_NOCASE") == same)
    }

    @Test(
        "UNICODE_NOCASE_NOACCENT ignores case and combining accents, and keeps letters Unicode does not decompose",
        arguments: [
            ("Émile", "emile", true), ("Crème Brûlée", "creme brulee", true), ("straße", "STRASSE", true),
            ("İ", "i", true), ("ı", "i", false), ("Ærø", "aero", false), ("Ærø", "ÆRØ", true),
            ("Ελλάδα", "ΕΛΛΑΔΑ", true), ("Ёлка", "елка", true), ("ñ", "n", true), ("Łódź", "lodz", false),
        ])
    func accentInsensitive(first: String, second: String, same: Bool) throws {
        let db = try connection()
        #expect(try equal(db, first, second, "UNICODE_NOCASE_NOACCENT") == same)
        #expect(try equal(db, second, first, "UNICODE_NOCASE_NOACCENT") == same)
    }

    @Test("SQLite's NOCASE folds only A to Z, which is why the Unicode collations exist")
    func nocaseIsASCII() throws {
        let db = try connection()
        #expect(try !equal(db, "Émile", "émile", "NOCASE"))
        #expect(try equal(db, "Émile", "émile", "UNICODE_NOCASE"))
    }

    @Test("sorting with the collations: accented letters sort with their base letter without accents")
    func sorting() throws {
        let db = try connection()
        try db.execute("CREATE TABLE names (name TEXT)")
        for name in ["zoë", "Émile", "eve", "Ève", "apple", "Zebra", "éclair", "Eagle"] {
            try db.execute("INSERT INTO names VALUES (\(name))")
        }
        let noAccent = try db.fetchAll(
            FirstText.self, "SELECT name FROM names ORDER BY name COLLATE UNICODE_NOCASE_NOACCENT, name")
        #expect(noAccent.map(\.value) == ["apple", "Eagle", "éclair", "Émile", "eve", "Ève", "Zebra", "zoë"])
        let noCase = try db.fetchAll(FirstText.self, "SELECT name FROM names ORDER BY name COLLATE UNICODE_NOCASE")
        #expect(noCase.map(\.value) == ["apple", "Eagle", "eve", "Zebra", "zoë", "Ève", "éclair", "Émile"])
    }

    @Test("the ASCII fast path orders exactly as the folded keys do, so the order is consistent")
    func fastPathMatchesKeys() throws {
        let alphabet: [String] = ["a", "A", "b", "e", "E", "\u{301}", "é", "É", "z", "ß", "s", "S", "ı", "İ", "i", " "]
        var generator = SystemRandomNumberGenerator()
        var texts: [String] = ["", "a", "A"]
        for _ in 0..<300 {
            let length = Int.random(in: 0...5, using: &generator)
            texts.append((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "" }.joined())
        }
        for accents in [false, true] {
            for first in texts {
                for second in texts.prefix(60) {
                    var left = first
                    var right = second
                    let fast = left.withUTF8 { a in
                        right.withUTF8 { b in UnicodeFolding.compare(a, b, accents: accents) }
                    }
                    let keys = left.withUTF8 { a in
                        right.withUTF8 { b in UnicodeFolding.compareKeys(a, b, accents: accents) }
                    }
                    #expect(
                        fast == keys, "\(first.debugDescription) vs \(second.debugDescription), accents: \(accents)")
                }
            }
        }
    }

    @Test("the table of base letters is exactly Unicode's canonical decompositions into a letter and accents")
    func baseLetterTable() {
        var expected: [Unicode.Scalar: Unicode.Scalar] = [:]
        for value in UInt32(0x80)...0x2FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let parts = Array(String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars)
            guard parts.count > 1, parts.dropFirst().allSatisfy(UnicodeFolding.isDiacritic) else { continue }
            switch parts[0].properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter, .modifierLetter:
                expected[scalar] = parts[0]
            default: continue
            }
        }
        #expect(expected.count > 700)
        #expect(UnicodeFolding.baseLetters == expected)
    }

    @Test("custom collations compare Strings or UTF-8 bytes; invalid UTF-8 reaches the String form repaired")
    func customCollations() throws {
        let db = try Connection.inMemory()
        try db.add(
            collation: Collation("by_length") { first, second in
                first.count == second.count
                    ? .orderedSame : first.count < second.count ? .orderedAscending : .orderedDescending
            })
        try db.add(
            collation: .utf8("reversed_bytes") { first, second in
                first.lexicographicallyPrecedes(second)
                    ? .orderedDescending : first.elementsEqual(second) ? .orderedSame : .orderedAscending
            })
        try db.execute("CREATE TABLE words (word TEXT)")
        for word in ["ccc", "a", "bb"] { try db.execute("INSERT INTO words VALUES (\(word))") }
        #expect(
            try db.fetchAll(FirstText.self, "SELECT word FROM words ORDER BY word COLLATE by_length").map(\.value) == [
                "a", "bb", "ccc",
            ])
        #expect(
            try db.fetchAll(FirstText.self, "SELECT word FROM words ORDER BY word COLLATE reversed_bytes").map(\.value)
                == ["ccc", "bb", "a"])
        #expect(
            try db.fetchValue(Bool.self, "SELECT CAST(x'ff' AS TEXT) = CAST(x'fe' AS TEXT) COLLATE by_length") == true)
    }

    @Test("collation registration: bad names are refused; replacing while a statement runs is busy; removal")
    func registration() throws {
        let db = try Connection.inMemory()
        for name in ["", "nul\0name"] {
            let error = try #require(capturedError { try db.add(collation: Collation(name) { _, _ in .orderedSame }) })
            #expect(error.kind == .misuse)
        }
        try db.add(collation: Collation("same") { _, _ in .orderedSame })
        #expect(try db.fetchValue(Bool.self, "SELECT 'a' = 'b' COLLATE same") == true)
        let cursor = try db.fetchCursor(FirstText.self, "SELECT 'a' UNION SELECT 'b' ORDER BY 1 COLLATE same")
        _ = try cursor.next()
        let busy = try #require(
            capturedError { try db.add(collation: Collation("same") { _, _ in .orderedAscending }) })
        #expect(busy.code.primary == .busy)
        cursor.close()
        try db.removeCollation(named: "same")
        let missing = capturedError { try db.fetchValue(Bool.self, "SELECT 'a' = 'b' COLLATE same") }
        #expect(missing?.message.contains("no such collation sequence") == true)
    }

    @Test("a column's collation is written by createTable, used by UNIQUE, and compared by schema verification")
    func columnCollation() throws {
        let db = try connection()
        #expect(
            try Connection.createTableSQL(for: Person.self)[0].contains(
                "\"name\" TEXT NOT NULL UNIQUE COLLATE \"UNICODE_NOCASE\""))
        try db.createTable(for: Person.self)
        try db.verify(Person.self)
        let insert = try db.makeInsertStatement(for: Person.self)
        try insert.insert(Person(id: 1, name: "Émile"))
        let duplicate = capturedError { try insert.insert(Person(id: 2, name: "émile")) }
        #expect(duplicate?.code == .constraintUnique)

        let other = try connection()
        try other.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE nocase)")
        let differences = try other.schemaDifferences(for: Person.self)
        #expect(differences.map(\.kind) == [.collation])
        #expect(
            differences.first?.description
                == "collation at \"people\".\"name\": expected COLLATE UNICODE_NOCASE, found COLLATE nocase")
        let plain = try connection()
        try plain.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
        #expect(try plain.schemaDifferences(for: Person.self).first?.actual == "COLLATE BINARY")
        let empty = capturedError { try db.createTable(for: EmptyCollation.self) }
        #expect(empty?.kind == .misuse)
    }
}

private struct EmptyCollation: TableModel {
    static let tableName = "empty_collation"
    static let columns = [Column("name", String.self, collation: "")]
    init(row: borrowing Row) throws {}
    func encode(to encoder: inout RowEncoder) throws {}
}
