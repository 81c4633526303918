/// A compiled REGEXP pattern: its program and the lazy DFA that runs it, with the DFA's cache of states.
///
/// The REGEXP function keeps one as the pattern argument's auxiliary data, so the cache serves every row of a
/// statement's run. It is used by one connection's statement at a time, and is not `Sendable`.
final class CompiledPattern {
    /// Unchecked: a pattern serves one call at a time, on its connection's thread, and a match calls nothing
    /// that could reach the pattern again (the stop check reads a flag). The dynamic check cost a tenth of a
    /// short text's match.
    @exclusivity(unchecked) private var automaton: LazyDFA

    /// Compiles `pattern`.
    ///
    /// - Parameters:
    ///   - pattern: The pattern, in the syntax of ``SQLFunction/regexp(options:)``.
    ///   - memoryLimit: The bound of the DFA's cache, in bytes.
    /// - Throws: ``SQLiteError/Kind/functionFailed`` for a pattern that is not valid or too large.
    init(_ pattern: String, memoryLimit: Int = LazyDFA.defaultMemoryLimit) throws(SQLiteError) {
        let program = try ProgramCompiler.compile(try PatternParser.parse(pattern))
        automaton = LazyDFA(program: program, memoryLimit: memoryLimit)
    }

    /// How many times the DFA's cache filled up and a text finished in the simulation.
    var fallbacks: Int { automaton.fallbacks }

    /// Whether the pattern matches anywhere in `text`.
    ///
    /// - Parameters:
    ///   - text: The text's UTF-8 bytes.
    ///   - stopRequested: Called every 65,536 bytes or simulation steps; `true` stops the match.
    /// - Returns: Whether a match was found.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` when `text` is not valid UTF-8; an error with code
    ///   ``ResultCode/interrupt`` when `stopRequested` returned `true`.
    func matches(_ text: UnsafeBufferPointer<UInt8>, stopRequested: () -> Bool) throws(SQLiteError) -> Bool {
        guard UTF8Validation.isValid(text) else {
            throw .conversion("stored TEXT is not valid UTF-8")
        }
        return try automaton.matches(text, stopRequested: stopRequested)
    }

    /// Whether the pattern matches anywhere in `text`, never stopping early.
    func matches(_ text: String) throws(SQLiteError) -> Bool {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(SQLiteError) in try matches(bytes, stopRequested: { false }) }
        }
        return try result.get()
    }
}

@available(*, unavailable)
extension CompiledPattern: Sendable {}
