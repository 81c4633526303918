import Foundation
import PropertyBased
import SQLiteSwiftly
import Testing

/// Pieces of text a person might type into a search box, weighted towards FTS5's syntax: quotes, operators,
/// parentheses, `*`, `-`, `:`, `^`, `+`, braces, keywords, NUL, other control characters, white space of every kind,
/// emoji, combining marks and several scripts. Property tests join random runs of them, with random Unicode text.
let searchBoxPieces = [
    "\"", "\"\"", "'", "*", "-", "+", ":", "^", "(", ")", "{", "}", "[", "]", ",", ".", "/", "\\", "AND", "OR",
    "NOT", "NEAR", "NEAR(", "and", "or", "not", "near/3", "title:", "rank", "rowid", "\0", "\u{1}", "\u{7F}",
    "\u{85}", "\u{A0}", "\u{2028}", "\u{3000}", " ", "  ", "\t", "\n", "sea", "crème", "brûlée", "Москва",
    "東京", "مرحبا", "θάλασσα", "🛒", "👩‍👩‍👧", "e\u{301}", "\u{301}", "ı", "İ", "ß", "0", "42", "*\"", "\"*",
]

/// A run of ``searchBoxPieces``.
let searchBoxRun = Gen<Int>.int(in: 0...(searchBoxPieces.count - 1)).map { searchBoxPieces[$0] }.array(of: 0...24)

/// A database with the sample notes, one index per built-in tokenizer, and one with a Swift tokenizer.
private func tokenizerZoo() throws -> Connection {
    let db = try SearchNote.database()
    try db.add(tokenizer: UnicodeWords.self)
    for (name, tokenizer) in [
        ("porter_fts", FullTextTokenizer.porter()), ("ascii_fts", .ascii()), ("trigram_fts", .trigram()),
        ("swift_fts", .swift(UnicodeWords.self)),
    ] {
        try db.createFullTextIndex(
            FullTextIndex(columns: ["title", "body"], tokenizer: tokenizer, name: name),
            content: .table("notes", rowID: "id"))
    }
    return db
}

@Suite struct SearchPatternTests {
    @Test(
        "each mode writes each word as an FTS5 string",
        arguments: [
            (SearchPattern.Mode.allWords, "\"sea\" \"view\""), (.anyWord, "\"sea\" OR \"view\""),
            (.phrase, "\"sea view\""),
            (.prefixes, "\"sea\"* \"view\"*"),
        ])
    func modes(mode: SearchPattern.Mode, query: String) throws {
        #expect(try SearchPattern("  sea \t view\n", mode: mode)?.query == query)
    }

    @Test("quotes are doubled, operators are words, NUL and control characters separate words")
    func hostileWords() throws {
        #expect(try SearchPattern("say \"hi\"")?.query == "\"say\" \"\"\"hi\"\"\"")
        #expect(try SearchPattern("a AND (b OR -c:*)")?.query == "\"a\" \"AND\" \"(b\" \"OR\" \"-c:*)\"")
        #expect(try SearchPattern("sea\0salt\u{1}air")?.query == "\"sea\" \"salt\" \"air\"")
        #expect(try SearchPattern("\u{3000}東京\u{A0}タワー")?.query == "\"東京\" \"タワー\"")
        #expect(try SearchPattern("") == nil)
        #expect(try SearchPattern(" \0\t\u{2028} ", mode: .phrase) == nil)
        #expect(SearchPattern(rawQuery: "a OR b").query == "a OR b")
        #expect(SearchPattern(rawQuery: "a OR b").isRaw)
        #expect(try SearchPattern("a OR b")?.isRaw == false)
    }

    @Test("hostile texts find what they should, in every mode and tokenizer, without an error")
    func hostileSearches() throws {
        let db = try tokenizerZoo()
        #expect(try db.searchIDs("\"crème\" AND NOT", mode: .anyWord) == [1])
        #expect(try db.searchIDs("bru*", mode: .allWords) == [])
        #expect(try db.searchIDs("bru", mode: .prefixes) == [1])
        #expect(try db.searchIDs("the sea was", mode: .phrase) == [2])
        #expect(try db.searchIDs("was sea the", mode: .phrase) == [])
        #expect(try db.searchIDs("title:sea") == [])  // a column filter is plain text
        #expect(try db.searchIDs("\"\"\"") == [])
        #expect(try db.searchIDs("🛒") == [5])  // unicode61 indexes emoji as letters
        let trigram = try #require(try SearchPattern("crè"))
        #expect(
            try db.fetchAll(UntypedRow.self, "SELECT rowid FROM trigram_fts WHERE trigram_fts MATCH \(trigram)").count
                == 1)
    }

    @Test("a text over the limits is refused with a typed error; at the limits it runs")
    func limits() throws {
        let db = try SearchNote.database()
        let megabyte = String(repeating: "sea salt ", count: 120_000)
        for mode in [SearchPattern.Mode.allWords, .anyWord, .phrase, .prefixes] {
            let error = try requireSQLiteError { try SearchPattern(megabyte, mode: mode) }
            #expect(error.kind == .invalidSearchPattern)
            #expect(error.code == .tooBig)
        }
        let oneWord = String(repeating: "a", count: SearchPattern.maximumLength + 1)
        #expect(try requireSQLiteError { try SearchPattern(oneWord) }.code == .tooBig)
        let words = Array(repeating: "sea", count: SearchPattern.maximumWordCount + 1).joined(separator: " ")
        #expect(try requireSQLiteError { try SearchPattern(words) }.code == .tooBig)
        let most = Array(repeating: "sea", count: SearchPattern.maximumWordCount).joined(separator: " ")
        #expect(try db.searchIDs(most, mode: .anyWord).sorted() == [2, 5])
        #expect(try db.searchIDs(String(repeating: "b", count: SearchPattern.maximumLength)) == [])
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM notes") == SearchNote.samples.count)
    }

    @Test("no text a person types makes a query FTS5 refuses, whatever the mode and tokenizer")
    func neverASyntaxError() async throws {
        let db = try tokenizerZoo()
        let indexes = ["notes_fts", "porter_fts", "ascii_fts", "trigram_fts", "swift_fts"]
        let counter = InputCounter()
        await propertyCheck(count: 400, input: searchBoxRun, anyText, Gen.int(in: 0...2)) { run, random, shape in
            let text = [run.joined(), random, run.joined() + random + run.reversed().joined()][shape]
            for mode in [SearchPattern.Mode.allWords, .anyWord, .phrase, .prefixes] {
                guard let pattern = try SearchPattern(text, mode: mode) else {
                    #expect(
                        text.unicodeScalars.allSatisfy {
                            $0.properties.isWhitespace || $0.value < 0x21 || (0x7F...0x9F).contains($0.value)
                        })
                    continue
                }
                counter.add()
                for index in indexes {
                    let table = SQL(verbatim: index)
                    _ = try db.fetchAll(
                        UntypedRow.self,
                        "SELECT rowid, highlight(\(table), 0, '[', ']') FROM \(table) WHERE \(table) MATCH \(pattern)")
                }
                _ = try db.search(SearchNote.self, matching: pattern, snippet: SearchSnippet(open: "<", close: ">"))
            }
        }
        #expect(counter.value > 1000, "too few patterns were tried: \(counter.value)")
    }
}
