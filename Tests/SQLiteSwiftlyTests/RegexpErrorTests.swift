import Testing

@testable import SQLiteSwiftly

/// A pattern that must be refused, the character (from 1) the error names, and a part of its message.
struct InvalidPattern: CustomTestStringConvertible, Sendable {
    let pattern: String
    let position: Int
    let problem: String

    init(_ pattern: String, _ position: Int, _ problem: String) {
        (self.pattern, self.position, self.problem) = (pattern, position, problem)
    }

    var testDescription: String { pattern.debugDescription }
}

@Suite struct RegexpErrorTests {
    static let invalid: [InvalidPattern] = [
        .init("*a", 1, "'*' has nothing to repeat"), .init("a|*", 3, "nothing to repeat"),
        .init("(+)", 2, "'+' has nothing to repeat"), .init("?", 1, "nothing to repeat"),
        .init("{2}", 1, "'{' has nothing to repeat"), .init("a**", 3, "a repetition cannot follow another"),
        .init("a*??", 4, "cannot follow another"), .init("a{2}+", 5, "cannot follow another"),
        .init("^*", 2, "an anchor cannot be repeated"), .init("x$+", 3, "an anchor cannot be repeated"),
        .init("\\b{2}", 3, "an anchor cannot be repeated"), .init("(abc", 1, "missing ')' for this '('"),
        .init("a(b(c)", 2, "missing ')'"), .init("abc)", 4, "unmatched ')'"), .init("(a))", 4, "unmatched ')'"),
        .init("[abc", 1, "missing ']' for this '['"), .init("x[]", 2, "missing ']'"), .init("[^]", 1, "missing ']'"),
        .init("[z-a]", 2, "the range 'z-a' is out of order"), .init("[[:foo:]]", 2, "unknown class '[:foo:]'"),
        .init("[[:alpha:", 2, "missing ':]'"), .init("[[.a.]]", 2, "collating elements"),
        .init("[[=a=]]", 2, "equivalence classes"), .init("[a-\\d]", 4, "a class cannot end a range"),
        .init("[a-[:digit:]]", 4, "a class cannot end a range"), .init("[\\b]", 2, "'\\b' is not allowed"),
        .init("abc\\", 4, "the pattern ends with a backslash"), .init("[a\\", 3, "ends with a backslash"),
        .init("\\q", 1, "unknown escape '\\q'"), .init("a\\A", 2, "unknown escape '\\A'"),
        .init("(a)\\1", 4, "'\\1': backreferences are not supported"), .init("\\0", 1, "backreferences"),
        .init("\\x4", 1, "'\\x' needs 2 hexadecimal digits"), .init("\\xg1", 1, "needs 2 hexadecimal digits"),
        .init("\\u12", 1, "'\\u' needs 4 hexadecimal digits"), .init("\\x{}", 1, "needs 1 to 6 hexadecimal digits"),
        .init("\\x{1234567}", 1, "1 to 6"), .init("\\u{12", 1, "and a '}'"),
        .init("\\x{110000}", 1, "'\\x{110000}' is not a Unicode scalar value"),
        .init("a\\u{D800}", 2, "'\\u{D800}' is not a Unicode scalar value"),
        .init("a{", 2, "'{' must start a repetition"), .init("a{x}", 2, "must start a repetition"),
        .init("a{2", 2, "must start a repetition"), .init("a{,3}", 2, "must start a repetition"),
        .init("a{2,3", 2, "must start a repetition"), .init("a{1001}", 2, "a repetition count is above 1000"),
        .init("a{1,99999999999999999999}", 2, "above 1000"),
        .init("a{3,2}", 2, "the repetition's minimum 3 is above its maximum 2"),
        .init("a(?i)b", 2, "flags such as (?i) are only allowed at the start"),
        .init("(?m)a", 3, "unknown flag 'm': only i and s are"), .init("(?i:a)", 4, "scoped flags"),
        .init("(?i", 1, "missing ')' after the flags"), .init("(?=a)", 1, "lookaround and named groups"),
        .init("a(?!b)", 2, "lookaround"), .init("(?<n>a)", 1, "named groups"),
        .init("(?#x)", 1, "unknown group syntax"),
        .init("é*+", 3, "cannot follow another"), .init("日本(語", 3, "missing ')'"), .init("😀😀)", 3, "unmatched ')'"),
        .init(String(repeating: "(", count: 101) + String(repeating: ")", count: 101), 101, "nest more than 100"),
    ]

    @Test("an invalid pattern is refused with what is wrong and at which character", arguments: invalid)
    func invalidPattern(_ example: InvalidPattern) throws {
        let error = try #require(capturedError { try CompiledPattern(example.pattern) })
        #expect(error.kind == .functionFailed)
        let prefix = "the pattern is not a valid regular expression at character \(example.position): "
        #expect(error.message.hasPrefix(prefix), "\(error.message)")
        #expect(error.message.contains(example.problem), "\(error.message)")
    }

    @Test("groups may nest 100 levels deep")
    func deepNesting() throws {
        let pattern = String(repeating: "(", count: 100) + "a" + String(repeating: ")", count: 100)
        #expect(try CompiledPattern(pattern).matches("a"))
    }

    @Test("a pattern that compiles to more than 10,000 instructions is refused, a smaller one is not")
    func sizeCap() throws {
        for pattern in [
            "(a{1000}){11}", "((((a{11}){10}){10}){10})", "(.{100}){100}", "((?:){1000}){1000}",
            "(x{1000}|y{1000}){5}", String(repeating: "[é-ë]", count: 6_000),
        ] {
            let error = try #require(capturedError { try CompiledPattern(pattern) }, "\(pattern)")
            #expect(error.kind == .functionFailed)
            #expect(error.message.hasPrefix("the pattern is too large: it compiles to more than 10000 instructions"))
        }
        #expect(try CompiledPattern("^(a{1000}){4}$").matches(String(repeating: "a", count: 4_000)))
        #expect(try !CompiledPattern("^(a{1000}){4}$").matches(String(repeating: "a", count: 3_999)))
        #expect(try CompiledPattern(".{200}").matches(String(repeating: "é", count: 200)))
        // Exactly 10,000 instructions; anchored, so that one thread runs (unanchored, each of the 10,000 positions
        // would start one: the O(n x m) bound, slow in a debug build).
        let largest = try CompiledPattern("^" + String(repeating: "[a-z]", count: 9_999))
        #expect(try largest.matches(String(repeating: "q", count: 9_999)))
        #expect(try !largest.matches(String(repeating: "q", count: 9_998)))
    }
}
