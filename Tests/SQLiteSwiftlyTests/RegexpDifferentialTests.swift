#if os(Linux)
    import Glibc
    import Testing

    @testable import SQLiteSwiftly

    /// Compares the matcher with glibc's POSIX `regcomp(REG_EXTENDED | REG_NOSUB)` and `regexec` on random
    /// patterns of the syntax both share, over texts of a small alphabet, in the C.UTF-8 locale.
    @Suite struct RegexpDifferentialTests {
        /// What the random patterns and texts are made of.
        struct Alphabet {
            /// Characters written as themselves, in and out of bracket expressions.
            var literals: [String]
            /// Ranges for bracket expressions.
            var ranges: [String]
            /// Characters of the texts.
            var text: [String]
            /// Whether patterns use `\w \W \s \S \b \B` and POSIX classes (ASCII texts only: glibc's classes
            /// follow the locale).
            var asciiClasses: Bool
        }

        static let ascii = Alphabet(
            literals: ["a", "b", "c", "A", "1", "_", " ", "-"], ranges: ["a-b", "a-c", "b-c", "A-C", "0-9"],
            text: ["a", "b", "c", "A", "B", "1", "_", " ", "-", "\n"], asciiClasses: true)
        static let unicode = Alphabet(
            literals: ["a", "b", "é", "中", "😀", "\u{301}"], ranges: ["a-b", "b-c"],
            text: ["a", "b", "é", "e", "中", "😀", "😁", "\u{301}", "\n"], asciiClasses: false)
        static let caseless = Alphabet(
            literals: ["a", "b", "A", "B", "é", "É"], ranges: ["a-b", "A-B"],
            text: ["a", "b", "A", "B", "é", "É", "c"],
            asciiClasses: false)

        @Test("ASCII patterns with classes, anchors and word boundaries agree with glibc")
        func asciiPatterns() throws {
            try compare(Self.ascii, patterns: 2_500, seed: 0x5EED_0001, ignoreCase: false)
        }

        @Test("patterns and texts of accented, CJK and emoji characters agree with glibc")
        func unicodePatterns() throws {
            try compare(Self.unicode, patterns: 1_500, seed: 0x5EED_0002, ignoreCase: false)
        }

        @Test("(?i) agrees with glibc's REG_ICASE on ASCII letters and single accented letters")
        func caselessPatterns() throws {
            try compare(Self.caseless, patterns: 1_000, seed: 0x5EED_0003, ignoreCase: true)
        }

        func compare(_ alphabet: Alphabet, patterns: Int, seed: UInt64, ignoreCase: Bool) throws {
            let locale = try #require(
                newlocale(Int32(1) << LC_CTYPE | Int32(1) << LC_COLLATE, "C.UTF-8", nil), "no C.UTF-8 locale")
            let previous = uselocale(locale)
            defer {
                uselocale(previous)
                freelocale(locale)
            }
            var generator = PatternGenerator(random: SplitMix(state: seed), alphabet: alphabet)
            var disagreements = 0
            for _ in 0..<patterns where disagreements < 10 {
                let pattern = generator.pattern()
                var posix = regex_t()
                let options = REG_EXTENDED | REG_NOSUB | (ignoreCase ? REG_ICASE : 0)
                guard regcomp(&posix, pattern, options) == 0 else {
                    Issue.record("seed \(seed): glibc refuses \(pattern.debugDescription)")
                    disagreements += 1
                    continue
                }
                defer { regfree(&posix) }
                // POSIX's '.' matches a line feed: the s flag says the same.
                let flags: String = ignoreCase ? "(?is)" : "(?s)"
                let ours = try CompiledPattern(flags + pattern)
                for _ in 0..<12 {
                    let text = generator.text()
                    let expected = regexec(&posix, text, 0, nil, 0) == 0
                    let answer = try ours.matches(text)
                    if answer != expected {
                        let text = "\(pattern.debugDescription) on \(text.debugDescription)"
                        Issue.record("seed \(seed): \(text): glibc says \(expected), the matcher \(answer)")
                        disagreements += 1
                    }
                }
            }
        }
    }

    /// Random extended regular expressions in the syntax that glibc and the matcher share.
    struct PatternGenerator {
        var random: SplitMix
        let alphabet: RegexpDifferentialTests.Alphabet

        mutating func pick<T>(_ items: [T]) -> T {
            items[Int(random.next() % UInt64(items.count))]
        }

        mutating func chance(_ percent: UInt64) -> Bool {
            random.next() % 100 < percent
        }

        mutating func text() -> String {
            (0..<random.next() % 9).map { _ in pick(alphabet.text) }.joined()
        }

        /// Branches, each perhaps anchored. glibc 2.36 gets anchors wrong inside repeated groups
        /// (`(^c|c.+a){3}` matches `ccacaca`, `B(\\B.|c?){1,}_` matches `Ba a _` but `B(\\B.|c?)*_` does not) and
        /// next to a line feed (`\\n^` matches `b\\n`), so `^` and `$` appear only here and `\\b`, `\\B` only
        /// outside groups.
        mutating func pattern() -> String {
            let count = chance(25) ? 2 + Int(random.next() % 2) : 1
            return (0..<count).map { _ in
                (chance(20) ? "^" : "") + sequence(depth: 2) + (chance(20) ? "$" : "")
            }.joined(separator: "|")
        }

        mutating func alternatives(depth: Int) -> String {
            let count = chance(25) ? 2 + Int(random.next() % 2) : 1
            return (0..<count).map { _ in sequence(depth: depth) }.joined(separator: "|")
        }

        mutating func sequence(depth: Int) -> String {
            (0...random.next() % 3).map { _ in piece(depth: depth) }.joined()
        }

        mutating func piece(depth: Int) -> String {
            if alphabet.asciiClasses && depth == 2 && chance(7) { return pick(["\\b", "\\B"]) }
            let atom = atom(depth: depth)
            guard chance(35) else { return atom }
            return atom + pick(["*", "+", "?", "{2}", "{0,2}", "{1,}", "{1,3}", "{0}", "{3}"])
        }

        mutating func atom(depth: Int) -> String {
            switch random.next() % 10 {
            case 0: return "."
            case 1, 2: return bracket()
            case 3 where depth > 0, 4 where depth > 0: return "(" + alternatives(depth: depth - 1) + ")"
            case 5 where alphabet.asciiClasses: return pick(["\\w", "\\W", "\\s", "\\S"])
            default: return pick(alphabet.literals)
            }
        }

        mutating func bracket() -> String {
            var body = chance(30) ? "^" : ""
            for _ in 0...random.next() % 3 {
                if alphabet.asciiClasses && chance(20) {
                    body += pick(["[:alpha:]", "[:digit:]", "[:upper:]", "[:lower:]", "[:space:]", "[:punct:]"])
                } else {
                    body += chance(30) ? pick(alphabet.ranges) : pick(alphabet.literals.filter { $0 != "-" })
                }
            }
            return "[" + body + "]"
        }
    }
#endif
