import Testing

@testable import SQLiteSwiftly

/// One pattern, one text, and whether the pattern matches somewhere in the text.
struct RegexpCase: CustomTestStringConvertible, Sendable {
    let pattern: String
    let text: String
    let matches: Bool

    init(_ pattern: String, _ text: String, _ matches: Bool) {
        (self.pattern, self.text, self.matches) = (pattern, text, matches)
    }

    var testDescription: String { "\(pattern.debugDescription) on \(text.debugDescription)" }
}

/// The answer of the lazy DFA, of the simulation alone (a cache that holds no state) and of a cache of a few
/// states, which must all agree.
func regexpAnswers(_ pattern: String, _ text: String) throws -> [Bool] {
    try [LazyDFA.defaultMemoryLimit, 0, 2_000].map { limit in
        try CompiledPattern(pattern, memoryLimit: limit).matches(text)
    }
}

@Suite struct RegexpSyntaxTests {
    static let literals: [RegexpCase] = [
        .init("abc", "xxabcxx", true), .init("abc", "ab", false), .init("abc", "ABC", false),
        .init("", "", true), .init("", "abc", true), .init("a", "", false), .init("()", "", true),
        .init("a}", "a}", true), .init("]", "x]", true), .init("a b", "a b", true), .init("a-b", "a-b", true),
    ]

    static let dot: [RegexpCase] = [
        .init("a.c", "abc", true), .init("a.c", "a\nc", false), .init("(?s)a.c", "a\nc", true),
        .init("a.c", "a\rc", true), .init("a.c", "aéc", true), .init("a.c", "a中c", true), .init("a.c", "a😀c", true),
        .init("^.$", "😀", true), .init("^..$", "😀", false), .init("^.$", "e\u{301}", false),
        .init("^..$", "e\u{301}", true), .init("^.{3}$", "日本語", true), .init("^.$", "\u{0}", true),
        .init("^.$", "\u{10FFFF}", true), .init("^.$", "\u{E000}", true), .init("^.$", "\u{7FF}", true),
    ]

    static let brackets: [RegexpCase] = [
        .init("[abc]", "xbx", true), .init("[abc]", "xyz", false), .init("^[a-c]+$", "abcabc", true),
        .init("^[a-c]+$", "abcd", false), .init("[^abc]", "abc", false), .init("[^abc]", "abcd", true),
        .init("[^a]", "\n", true), .init("[^a]", "é", true), .init("^[^a]$", "😀", true), .init("[]a]", "]", true),
        .init("[]a]", "b", false), .init("[^]a]", "]", false), .init("[^]a]", "b", true), .init("[a-]", "-", true),
        .init("[-a]", "-", true), .init("[a-c-]", "-", true), .init("[é-ë]", "ê", true), .init("[é-ë]", "e", false),
        .init("[à-ÿ]", "a", false), .init("[中文]", "文", true), .init("[😀-😂]", "😁", true),
        .init("[😀-😂]", "😃", false), .init("[\\x{80}-\\x{10FFFF}]", "abc", false),
        .init("[\\x{80}-\\x{10FFFF}]", "ab\u{80}", true), .init("[\\x{800}-\\x{FFFF}]", "\u{7FF}", false),
        .init("[\\x{800}-\\x{FFFF}]", "\u{FFFF}", true), .init("[\\x{D7FF}-\\x{E000}]", "\u{E000}", true),
        .init("[\\]]", "]", true), .init("[\\\\]", "\\", true), .init("[\\d_]", "_", true), .init("[\\d_]", "a", false),
        .init("[\\t]", "\t", true), .init("[\\x41-\\x43]", "B", true), .init("[\\^]", "^", true),
        .init("[[]", "[", true), .init("[a[]", "[", true), .init("[.]", "a", false), .init("[*+?{}()|$]", "|", true),
        .init("[^\\x00-\\x{10FFFF}]", "abc", false), .init("a[^\\x00-\\x{10FFFF}]|b", "b", true),
    ]

    static let posixClasses: [RegexpCase] = [
        .init("[[:alpha:]]", "1a", true), .init("[[:alpha:]]", "1é", false), .init("[[:digit:]]", "a5", true),
        .init("[[:digit:]]", "a٣", false), .init("[[:alnum:]]", "-_z", true), .init("[[:alnum:]]", "-_", false),
        .init("[[:upper:]]", "aB", true), .init("[[:upper:]]", "ab", false), .init("[[:lower:]]", "Ab", true),
        .init("[[:lower:]]", "AB", false), .init("[[:space:]]", "a\u{0B}", true),
        .init("[[:space:]]", "a\u{A0}", false),
        .init("[[:blank:]]", "a\t", true), .init("[[:blank:]]", "a\n", false), .init("[[:punct:]]", "a~", true),
        .init("[[:punct:]]", "a ", false), .init("[[:print:]]", "\t ", true), .init("[[:print:]]", "\t\n", false),
        .init("[[:graph:]]", " !", true), .init("[[:graph:]]", " ", false), .init("[[:cntrl:]]", "a\u{7F}", true),
        .init("[[:cntrl:]]", "a ", false), .init("[[:xdigit:]]", "xF", true), .init("[[:xdigit:]]", "xg", false),
        .init("^[[:digit:][:upper:]_]+$", "A_1", true), .init("[^[:alnum:]]", "abc1", false),
    ]

    static let repetitions: [RegexpCase] = [
        .init("^a*$", "", true), .init("^a*$", "aaa", true), .init("^a*$", "aab", false), .init("^a+$", "", false),
        .init("^a+$", "aa", true), .init("^a?$", "", true), .init("^a?$", "aa", false), .init("^a{3}$", "aaa", true),
        .init("^a{3}$", "aa", false), .init("^a{3}$", "aaaa", false), .init("^a{2,}$", "aaaaa", true),
        .init("^a{2,}$", "a", false), .init("^a{2,3}$", "aaa", true), .init("^a{2,3}$", "aaaa", false),
        .init("^a{0}$", "", true), .init("^a{0}$", "a", false), .init("^a{0,1}b$", "b", true),
        .init("^(ab){2}$", "abab", true), .init("^é{2}$", "éé", true), .init("^😀+$", "😀😀😀", true),
        .init("^a*?$", "aa", true), .init("^a+?b", "aab", true), .init("^a{2,3}?$", "aaa", true),
        .init("^a??$", "a", true), .init("^(a*)+$", "aaa", true), .init("^(a|b)*c$", "ababc", true),
        .init("^x{1000}$", String(repeating: "x", count: 1_000), true),
        .init("^x{1000}$", String(repeating: "x", count: 999), false),
    ]

    static let alternationAndGroups: [RegexpCase] = [
        .init("cat|dog", "hotdog", true), .init("cat|dog", "cow", false), .init("^(cat|dog)$", "cats", false),
        .init("^(a|b|)$", "", true), .init("a|", "zzz", true), .init("|a", "", true), .init("^(ab)+$", "ababab", true),
        .init("^(?:ab)+$", "aba", false), .init("^((a|b)c)*$", "acbc", true), .init("^(((a)))$", "a", true),
        .init("^(?:(?:x|y)z)+$", "xzyz", true), .init("^(é|e\u{301})$", "e\u{301}", true),
    ]

    static let anchors: [RegexpCase] = [
        .init("^abc", "abcd", true), .init("^abc", "xabc", false), .init("abc$", "xabc", true),
        .init("abc$", "abc\n", false), .init("^b", "a\nb", false), .init("a$", "a\nb", false), .init("^$", "", true),
        .init("^$", "\n", false), .init("a^b", "ab", false), .init("a$b", "ab", false), .init("(^|x)a", "xa", true),
        .init("(^|x)a", "ya", false), .init("(^|x)a", "ab", true), .init("a($|x)", "ba", true), .init("^", "x", true),
        .init("$", "x", true), .init("^a|b$", "xb", true), .init("^a|b$", "bx", false), .init("^\n", "\nx", true),
        .init("\n$", "x\n", true), .init("^(^a)", "a", true), .init("x^", "x", false),
    ]

    static let wordBoundaries: [RegexpCase] = [
        .init("\\bcat\\b", "a cat.", true), .init("\\bcat\\b", "concat", false), .init("\\Bcat", "concat", true),
        .init("\\Bcat", "cat", false), .init("\\bé", "é", false), .init("é\\b", "aé", false), .init("\\b", "", false),
        .init("\\B", "", true), .init("x\\b", "x", true), .init("x\\b", "xy", false), .init("\\b_", "a _", true),
        .init("a\\Bé", "aé", false), .init("a\\bé", "aé", true), .init("\\b9", "x9", false),
        .init("\\b\\w+\\b", "--", false), .init("^\\B$", "", true), .init("\\b$", "ab", true),
    ]

    static let classEscapes: [RegexpCase] = [
        .init("^\\d+$", "0123456789", true), .init("\\d", "٣", false), .init("^\\D$", "٣", true),
        .init("\\D", "123", false), .init("^\\w+$", "snake_case9", true), .init("\\w", "é", false),
        .init("^\\W$", "é", true), .init("\\W", "a_1", false), .init("^\\s+$", " \t\n\u{0B}\u{0C}\r", true),
        .init("\\s", "\u{A0}", false), .init("^\\S$", "\u{A0}", true), .init("\\S", " \n", false),
    ]

    static let escapes: [RegexpCase] = [
        .init("\\t", "\t", true), .init("\\n", "a\nb", true), .init("\\r", "\r", true), .init("\\f", "\u{0C}", true),
        .init("\\v", "\u{0B}", true), .init("\\\\", "\\", true), .init("a\\.c", "abc", false),
        .init("a\\.c", "a.c", true), .init("\\x41", "A", true), .init("\\x{1F600}", "😀", true),
        .init("\\u{e9}", "é", true), .init("\\u00e9", "é", true), .init("\\x00", "a\u{0}b", true),
        .init("^\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\.$", "*+?()[]{}|^$.", true), .init("\\-\\/\\ ", "-/ ", true),
        .init("\\é", "é", true), .init("\\%", "%", true),
    ]

    static let caseInsensitive: [RegexpCase] = [
        .init("(?i)abc", "xABCx", true), .init("(?i)[a-c]+$", "BCA", true), .init("(?i)[^a]", "A", false),
        .init("(?i)é", "É", true), .init("(?i)É", "é", true), .init("é", "É", false),
        .init("(?i)[[:upper:]]", "a", true), .init("(?i)\\w", "A", true), .init("(?is)A.B", "a\nb", true),
        .init("(?si)a.b", "A\nB", true), .init("(?i)σ", "Σ", true), .init("(?i)[é]", "É", true),
        .init("(?i)[à-ÿ]", "À", false), .init("(?i)\\x41", "a", true), .init("(?i)ǅ", "ǆ", true),
        .init("(?i)[^é]", "É", false), .init("(?i)ß", "SS", false), .init("(?i)k", "K", true),
    ]

    static let unicodeTexts: [RegexpCase] = [
        .init("日本", "こんにちは日本語", true), .init("^日本", "こんにちは日本語", false), .init("👍🏽", "ok 👍🏽", true),
        .init("^.$", "👍🏽", false), .init("e\u{301}", "cafe\u{301}", true), .init("é", "cafe\u{301}", false),
        .init("[😀-🙏]", "🙂", true), .init("Zoë", "Zoë Saldaña", true), .init("Ñ", "Saldaña", false),
        .init("\\ba", "ña", true),
        .init("^[^a-z]+$", "ÀÉÎÕÜ", true),
    ]

    @Test(
        "each syntax element matches what it documents, in the DFA, in the simulation and with a small cache",
        arguments: literals + dot + brackets + posixClasses + repetitions + alternationAndGroups + anchors
            + wordBoundaries + classEscapes + escapes + caseInsensitive + unicodeTexts)
    func syntax(_ example: RegexpCase) throws {
        #expect(
            try regexpAnswers(example.pattern, example.text) == [example.matches, example.matches, example.matches])
    }

    @Test("a pattern's cache serves many texts, and answers each the same as a fresh pattern")
    func reusedPattern() throws {
        let pattern = try CompiledPattern("\\b(cat|dog)s?\\b")
        let texts = ["cats", "a dog", "dogma", "concat", "", "cat", "hotdog s", "dogs!"]
        for text in texts + texts.reversed() {
            #expect(try pattern.matches(text) == CompiledPattern("\\b(cat|dog)s?\\b").matches(text), "\(text)")
        }
    }

    @Test("the UTF-8 sequences of a set encode exactly its scalars")
    func utf8Sequences() {
        let sets = [
            ScalarSet([0x41...0x5A]), ScalarSet([0x7F...0x80]), ScalarSet([0x7FF...0x800]),
            ScalarSet([0x10...0x1_0010]),
            ScalarSet([0xFFF...0x1_0FFF]), ScalarSet([0xD000...0xE000]), ScalarSet([0x3A9...0x3A9, 0x1F600...0x1F64F]),
        ]
        let probes: [UInt32] = [
            0, 0x0F, 0x10, 0x41, 0x5A, 0x5B, 0x7F, 0x80, 0x81, 0x3A9, 0x7FF, 0x800, 0xFFE, 0xFFF, 0x1000, 0xD000,
            0xD7FF, 0xE000, 0xFFFF, 0x1_0000, 0x1_0010, 0x1_0011, 0x1_0FFF, 0x1_1000, 0x1F600, 0x1F64F, 0x10_FFFF,
        ]
        for set in sets {
            let sequences = UTF8Sequences.of(set)
            for value in probes where !ScalarSet.surrogates.contains(value) {
                let bytes = UTF8Sequences.encode(value)
                let encoded = sequences.contains { sequence in
                    sequence.count == bytes.count && zip(sequence, bytes).allSatisfy { $0.contains($1) }
                }
                #expect(encoded == set.contains(value), "U+\(String(value, radix: 16)) in \(set.ranges)")
            }
        }
    }

    @Test("UTF-8 validation refuses every kind of malformed text, and accepts valid text of any length")
    func validation() {
        func valid(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) } }
        for text in ["", "a", "abcdefgh", "abcdefghi", "é", "aaaaaaaaé", "中文", "😀", "a\u{0}b", "\u{10FFFF}"] {
            #expect(valid(Array(text.utf8)), "\(text)")
        }
        let malformed: [[UInt8]] = [
            [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xC3], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82],
            [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xC3, 0x41],
            Array("abcdefgh".utf8) + [0xE2, 0x28, 0xA1], [0xF0, 0x9F, 0x98],
        ]
        for bytes in malformed { #expect(!valid(bytes), "\(bytes)") }
    }
}
