import Foundation
import SQLiteSwiftly
import Synchronization
import Testing

/// Splits at spaces; refuses to index or search the word "forbidden", and refuses the argument "bad".
private struct PickyWords: TextTokenizer {
    static let name = "picky"

    struct Refusal: Error, CustomStringConvertible {
        var description: String { "the word \"forbidden\" is refused" }
    }

    init(arguments: [String], context: borrowing TokenizerContext) throws {
        if arguments.contains("bad") { throw Refusal() }
    }

    func tokenize(_ text: UnsafeBufferPointer<UInt8>, for reason: TokenizationReason, into tokens: inout TokenSink)
        throws
    {
        var start = 0
        for index in 0...text.count where index == text.count || text[index] == UInt8(ascii: " ") {
            if index > start {
                let word = String(decoding: UnsafeBufferPointer(rebasing: text[start..<index]), as: UTF8.self)
                if word == "forbidden" { throw Refusal() }
                try tokens.add(textIn: start..<index)
            }
            start = index + 1
        }
    }
}

/// Wraps unicode61 and adds "automobile" wherever it finds "car", at the same position.
private struct Synonyms: TextTokenizer {
    static let name = "synonyms"
    let base: WrappedTokenizer

    init(arguments: [String], context: borrowing TokenizerContext) throws {
        base = try context.tokenizer(.unicode61())
    }

    func tokenize(_ text: UnsafeBufferPointer<UInt8>, for reason: TokenizationReason, into tokens: inout TokenSink)
        throws
    {
        try base.tokenize(text, for: reason) { token, range, colocated in
            try tokens.add(token, at: range, colocated: colocated)
            if reason == .document && token.elementsEqual("car".utf8) {
                try tokens.add("automobile", at: range, colocated: true)
            }
        }
    }
}

/// Counts its live values, to see when SQLite frees them.
private struct Counted: TextTokenizer {
    static let name = "counted"
    static let live = Atomic<Int>(0)

    final class Life {
        init() { Counted.live.add(1, ordering: .sequentiallyConsistent) }
        deinit { Counted.live.subtract(1, ordering: .sequentiallyConsistent) }
    }

    let life = Life()

    init(arguments: [String], context: borrowing TokenizerContext) {}

    func tokenize(_ text: UnsafeBufferPointer<UInt8>, for reason: TokenizationReason, into tokens: inout TokenSink)
        throws
    {
        try tokens.add(textIn: 0..<text.count)
    }
}

/// Gives token ranges outside the text, or a colocated first token.
private struct Misplaced: TextTokenizer {
    static let name = "misplaced"
    let colocatedFirst: Bool

    init(arguments: [String], context: borrowing TokenizerContext) {
        colocatedFirst = arguments == ["colocated"]
    }

    func tokenize(_ text: UnsafeBufferPointer<UInt8>, for reason: TokenizationReason, into tokens: inout TokenSink)
        throws
    {
        if colocatedFirst {
            try tokens.add("x", at: 0..<0, colocated: true)
        } else {
            try tokens.add("x", at: 0..<text.count + 1)
        }
    }
}

@Suite struct TokenizerTests {
    /// A database with `docs (id, body)` indexed by `tokenizer` as `docs_fts`.
    private func documents(_ tokenizer: FullTextTokenizer, on db: Connection) throws {
        try db.execute("CREATE TABLE docs (id INTEGER PRIMARY KEY, body TEXT)")
        try db.createFullTextIndex(
            FullTextIndex(columns: ["body"], tokenizer: tokenizer), content: .table("docs", rowID: "id"))
    }

    private func ids(_ db: Connection, _ text: String, mode: SearchPattern.Mode = .allWords) throws -> [Int] {
        let pattern = try #require(try SearchPattern(text, mode: mode))
        return try db.fetchAll(
            UntypedRow.self, "SELECT rowid FROM docs_fts WHERE docs_fts MATCH \(pattern) ORDER BY rowid"
        )
        .map { row in if case .integer(let id) = row.values[0] { Int(id) } else { -1 } }
    }

    @Test("a throwing tokenizer fails the write with a typed error naming it, and nothing is written")
    func throwingTokenizer() throws {
        let db = try Connection.inMemory()
        try db.add(tokenizer: PickyWords.self)
        try documents(.swift(PickyWords.self), on: db)
        try db.execute("INSERT INTO docs VALUES (1, 'allowed words here')")
        let insert = try requireSQLiteError { try db.execute("INSERT INTO docs VALUES (2, 'a forbidden word')") }
        #expect(insert.kind == .tokenizerFailed)
        #expect(insert.function == "picky")
        #expect(insert.message.contains("the word \"forbidden\" is refused"))
        #expect(insert.sql?.hasPrefix("INSERT INTO docs") == true)
        let update = try requireSQLiteError { try db.execute("UPDATE docs SET body = 'forbidden' WHERE id = 1") }
        #expect(update.kind == .tokenizerFailed)
        #expect(
            try db.fetchAll(UntypedRow.self, "SELECT * FROM docs").map(\.values) == [
                [.integer(1), .text("allowed words here")]
            ])
        #expect(try db.checkFullTextIndex(named: "docs_fts"))
        let search = try requireSQLiteError { try ids(db, "forbidden") }
        #expect(search.kind == .tokenizerFailed)
        #expect(try ids(db, "words") == [1])
        // An argument the tokenizer refuses fails the creation of the index.
        try db.execute("CREATE TABLE other (id INTEGER PRIMARY KEY, body TEXT)")
        let create = try requireSQLiteError {
            try db.createFullTextIndex(
                FullTextIndex(columns: ["body"], tokenizer: .swift(PickyWords.self, arguments: ["bad"])),
                content: .table("other", rowID: "id"))
        }
        #expect(create.kind == .tokenizerFailed)
        #expect(create.message.contains("[\"bad\"]"))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_schema WHERE name LIKE 'other_fts%'") == 0)
    }

    @Test("a tokenizer that places a token outside its text, or colocates the first, is refused: no crash")
    func misplacedTokens() throws {
        for arguments in [[], ["colocated"]] {
            let db = try Connection.inMemory()
            try db.add(tokenizer: Misplaced.self)
            try documents(.swift(Misplaced.self, arguments: arguments), on: db)
            let error = try requireSQLiteError { try db.execute("INSERT INTO docs VALUES (1, 'text')") }
            #expect(error.kind == .tokenizerFailed)
            #expect(error.message.contains("is wrong"))
            #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM docs") == 0)
        }
    }

    @Test("a wrapping tokenizer adds colocated synonyms: a search for either word finds the text")
    func synonyms() throws {
        let db = try Connection.inMemory()
        try db.add(tokenizer: Synonyms.self)
        try documents(.swift(Synonyms.self), on: db)
        try db.execute("INSERT INTO docs VALUES (1, 'A red Car in the rain'), (2, 'A red bicycle')")
        #expect(try ids(db, "automobile") == [1])
        #expect(try ids(db, "car") == [1])
        #expect(try ids(db, "red automobile", mode: .phrase) == [1])
        let highlighted = try db.fetchValue(
            String.self, "SELECT highlight(docs_fts, 0, '[', ']') FROM docs_fts WHERE docs_fts MATCH 'automobile'")
        #expect(highlighted == "A red [Car] in the rain")
        #expect(try db.checkFullTextIndex(named: "docs_fts"))
    }

    @Test("a connection without the tokenizer cannot open the index; adding it there fixes that")
    func missingTokenizer() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("docs.sqlite")
        let first = try Connection(creating: path)
        try first.add(tokenizer: UnicodeWords.self)
        try documents(.swift(UnicodeWords.self), on: first)
        try first.execute("INSERT INTO docs VALUES (1, 'Straße')")
        let second = try Connection(opening: path)
        let error = try requireSQLiteError { try ids(second, "strasse") }
        #expect(error.message.contains("unicode_words"))
        try second.add(tokenizer: UnicodeWords.self)
        #expect(try ids(second, "STRASSE") == [1])
        #expect(try requireSQLiteError { try second.add(tokenizer: Nameless.self) }.kind == .misuse)
    }

    @Test("SQLite frees each tokenizer it made, and the registration, when the connection closes")
    func lifetimes() throws {
        #expect(Counted.live.load(ordering: .sequentiallyConsistent) == 0)
        do {
            let db = try Connection.inMemory()
            try db.add(tokenizer: Counted.self)
            try db.add(tokenizer: Counted.self)  // replaced: both registrations live until the close
            try documents(.swift(Counted.self), on: db)
            try db.execute("INSERT INTO docs VALUES (1, 'one')")
            #expect(Counted.live.load(ordering: .sequentiallyConsistent) >= 1)
            #expect(try ids(db, "one") == [1])
        }
        #expect(Counted.live.load(ordering: .sequentiallyConsistent) == 0)
    }

    @Test("a pool adds a tokenizer to the writer and every reader")
    func pool() async throws {
        let directory = try TemporaryDirectory()
        let pool = try ConnectionPool(.create(path: directory.path("pool.sqlite")), readerCount: 2)
        try await pool.add(tokenizer: UnicodeWords.self)
        try await pool.write { db in
            try db.execute("CREATE TABLE docs (id INTEGER PRIMARY KEY, body TEXT)")
            try db.createFullTextIndex(
                FullTextIndex(columns: ["body"], tokenizer: .swift(UnicodeWords.self)),
                content: .table("docs", rowID: "id"))
            try db.execute("INSERT INTO docs VALUES (1, 'ÉCOLE normale'), (2, '東京タワー')")
        }
        for _ in 0..<4 {
            let found = try await pool.read { db in (try self.ids(db, "ecole"), try self.ids(db, "京タ")) }
            #expect(found.0 == [1])
            #expect(found.1 == [2])
        }
        let shared = try SharedConnection(.open(path: directory.path("pool.sqlite")))
        try await shared.add(tokenizer: UnicodeWords.self)
        #expect(try await shared.read { db in try self.ids(db, "École") } == [1])
    }

    @Test("UnicodeWords folds as the Unicode collations do and splits ideographs and kana into characters")
    func unicodeWords() throws {
        let db = try Connection.inMemory()
        try db.add(tokenizer: UnicodeWords.self)
        try documents(.swift(UnicodeWords.self), on: db)
        try db.execute(
            """
            INSERT INTO docs VALUES (1, 'Straße in Köln'), (2, 'Η θάλασσα ΕΊΝΑΙ ήρεμη'), (3, '東京タワーに行きました'),
            (4, 'Dotless ı and dotted İ'), (5, 'e\u{301}cole (decomposed)'), (6, 'नमस्ते दुनिया')
            """)
        #expect(try ids(db, "STRASSE koln") == [1])
        #expect(try ids(db, "θαλασσα ειναι") == [2])
        #expect(try ids(db, "東京") == [3])
        #expect(try ids(db, "タワー") == [3])
        #expect(try ids(db, "京都") == [])
        #expect(try ids(db, "i") == [4])  // İ folds to i; ı stays its own letter
        #expect(try ids(db, "ı") == [4])
        #expect(try ids(db, "ECOLE") == [5])
        #expect(try ids(db, "नमस्ते") == [6])
        #expect(try ids(db, "kö", mode: .prefixes) == [1])
        try db.execute("INSERT INTO docs VALUES (7, CAST(x'ff61fe20c3a9' AS TEXT))")  // invalid UTF-8 around "a é"
        #expect(try ids(db, "é") == [7])
        #expect(try db.checkFullTextIndex(named: "docs_fts"))

        try db.execute("CREATE TABLE accents (id INTEGER PRIMARY KEY, body TEXT)")
        try db.createFullTextIndex(
            FullTextIndex(columns: ["body"], tokenizer: .swift(UnicodeWords.self, arguments: ["keep_accents"])),
            content: .table("accents", rowID: "id"))
        try db.execute("INSERT INTO accents VALUES (1, 'École')")
        let ecole = try #require(try SearchPattern("ecole"))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM accents_fts WHERE accents_fts MATCH \(ecole)") == 0)
        let accented = try #require(try SearchPattern("ÉCOLE"))
        #expect(
            try db.fetchValue(Int.self, "SELECT count(*) FROM accents_fts WHERE accents_fts MATCH \(accented)") == 1)
    }
}

/// A tokenizer with an empty name, which cannot be added.
private struct Nameless: TextTokenizer {
    static let name = ""
    init(arguments: [String], context: borrowing TokenizerContext) {}
    func tokenize(_ text: UnsafeBufferPointer<UInt8>, for reason: TokenizationReason, into tokens: inout TokenSink) {}
}
