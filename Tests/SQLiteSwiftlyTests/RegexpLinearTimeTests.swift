import Synchronization
import Testing

@testable import SQLiteSwiftly

@Suite struct RegexpLinearTimeTests {
    static let pathological: [RegexpCase] = [
        .init("^(a+)+$", String(repeating: "a", count: 30) + "b", false),
        .init("^(a+)+$", String(repeating: "a", count: 30), true),
        .init("(a+)+$", String(repeating: "a", count: 40) + "!", false),
        .init("(a|a)*b", String(repeating: "a", count: 40), false),
        .init("(a|a)*b", String(repeating: "a", count: 40) + "b", true),
        .init("(a*)*b", String(repeating: "a", count: 40), false),
        .init("^(a|aa)+$", String(repeating: "a", count: 50) + "!", false),
        .init("(x+x+)+y", String(repeating: "x", count: 40), false),
        .init("^((a{1,10}){1,10}){1,10}b", String(repeating: "a", count: 120), false),
        .init("((a{1,10}){1,10}){1,10}b", String(repeating: "a", count: 120) + "b", true),
        .init("(.*a){12}", String(repeating: "a", count: 11) + String(repeating: "b", count: 40), false),
        .init("^(\\w+\\s?)*$", "an example of catastrophic backtracking!", false),
        .init("^(([a-z])+.)+[A-Z]([a-z])+$", "aaaaaaaaaaaaaaaaaaaaaaaaaaaa!", false),
        .init("(a|b|ab)*c", String(repeating: "ab", count: 30), false),
        .init("^(a?){30}a{30}$", String(repeating: "a", count: 30), true),
        .init("^(a?){30}a{30}$", String(repeating: "a", count: 29), false),
    ]

    @Test(
        "patterns that make a backtracking matcher run for ages answer at once and correctly", arguments: pathological)
    func pathologicalPattern(_ example: RegexpCase) throws {
        #expect(
            try regexpAnswers(example.pattern, example.text) == [example.matches, example.matches, example.matches])
    }

    @Test("a long text with nested repetitions is one pass, in the DFA and in the simulation")
    func longText() throws {
        for (limit, count) in [(LazyDFA.defaultMemoryLimit, 1 << 20), (0, 1 << 17)] {
            let text = String(repeating: "a", count: count)
            #expect(try !CompiledPattern("(a|a)*b", memoryLimit: limit).matches(text))
            #expect(try CompiledPattern("(a+)+$", memoryLimit: limit).matches(text))
        }
    }

    @Test(
        "the stop check is called at least every 65,536 bytes, and ends the match with an interrupt",
        arguments: [(LazyDFA.defaultMemoryLimit, 1 << 20), (0, 1 << 18)])
    func stopCheck(memoryLimit: Int, count: Int) throws {
        let text = Array(String(repeating: "ab", count: count / 2).utf8)
        let pattern = try CompiledPattern("(a|b)*c", memoryLimit: memoryLimit)
        var polls = 0
        let completed = try text.withUnsafeBufferPointer { bytes in
            try pattern.matches(bytes) {
                polls += 1
                return false
            }
        }
        #expect(!completed)
        #expect(polls >= count / 65_536 - 1, "\(polls) polls")
        polls = 0
        let error = try #require(
            capturedError {
                try text.withUnsafeBufferPointer { bytes in
                    try pattern.matches(bytes) {
                        polls += 1
                        return polls == 3
                    }
                }
            })
        #expect(error.code == .interrupt)
        #expect(polls == 3)
        // The pattern still works after an interrupted match.
        #expect(try pattern.matches("abc"))
    }

    @Test("a full cache hands the text over to the simulation, and the answers stay right")
    func cacheFallback() throws {
        // The DFA of this pattern needs 2^13 states: it remembers the last 13 characters.
        let pattern = try CompiledPattern("(a|b)*a(a|b){12}", memoryLimit: 20_000)
        var generator = SplitMix(state: 27)
        for _ in 0..<40 {
            let text = String((0..<Int(generator.next() % 200)).map { _ in generator.next() % 2 == 0 ? "a" : "b" })
            let characters = Array(text)
            let expected = characters.count >= 13 && characters[..<(characters.count - 12)].contains("a")
            #expect(try pattern.matches(text) == expected, "\(text)")
        }
        #expect(pattern.fallbacks > 0)
    }
}
