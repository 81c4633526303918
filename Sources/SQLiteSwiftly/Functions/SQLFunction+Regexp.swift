import CSQLiteSwiftly
import Synchronization

extension SQLFunction {
    /// `regexp(pattern, text)`, which SQLite calls for `text REGEXP pattern`: whether the pattern matches
    /// anywhere in the text.
    ///
    /// ```swift
    /// try db.add(function: .regexp())
    /// let count = try db.fetchValue(Int.self, "SELECT count(*) FROM parts WHERE code REGEXP '^[A-Z]{2}-[0-9]+$'")
    /// ```
    ///
    /// The matcher is the library's own, in Swift, with the same results on every platform. It never
    /// backtracks: it reads the text's UTF-8 bytes once, through a DFA built lazily from the pattern (which hands
    /// over to a simulation of the pattern's automaton when its cache of states is full), so a match takes time
    /// proportional to the text's length, at most times the pattern's size, whatever the pattern.
    ///
    /// The syntax is close to POSIX extended regular expressions, with the usual escapes:
    ///
    /// | syntax | matches |
    /// | --- | --- |
    /// | `abc`, `\.`, `\*` | the characters themselves; `\` before a punctuation character makes it literal |
    /// | `.` | any character but a line feed (any character after `(?s)`) |
    /// | `[abc]`, `[a-z]`, `[^abc]` | one character of the set, of the range, not in the set |
    /// | `[[:alpha:]]`, `[[:digit:]]`, ... | a POSIX class, ASCII only: `alpha digit alnum upper lower space blank punct print graph cntrl xdigit` |
    /// | `\d \w \s`, `\D \W \S` | an ASCII digit, word character (`[A-Za-z0-9_]`), white space; anything else |
    /// | `\t \n \r \f \v`, `\x41`, `\x{1F600}`, `\u00E9`, `\u{E9}` | control characters; a character by its code point |
    /// | `x*`, `x+`, `x?`, `x{2}`, `x{2,}`, `x{2,5}` | repetitions, counts up to 1,000 (`*?` and the other lazy forms mean the same) |
    /// | `x\|y`, `(x)`, `(?:x)` | either; groups |
    /// | `^`, `$`, `\b`, `\B` | the start and the end of the text (not of a line), a word boundary, anything else |
    /// | `(?i)`, `(?s)` | at the very start: ignore case, `.` matches line feeds |
    ///
    /// Characters are Unicode scalars compared as stored, without normalization: a precomposed `é` does not match
    /// `e` followed by a combining accent. `[^abc]`, `\D`, `\W` and `\S` match a line feed. Ranges go by code
    /// point. In a bracket expression a backslash escapes (`[\]\\]`), unlike POSIX; `]` first and `-` first or last
    /// are literal. Ignoring case, ASCII letters match both cases, and a non-ASCII character written on its own (not
    /// in a range) also matches its one-character uppercase and lowercase forms (`é` and `É`). Backreferences,
    /// lookaround, possessive repetitions, collating elements and flags elsewhere than at the start are refused,
    /// as is a pattern that compiles to more than 10,000 instructions (a repetition copies what it repeats).
    ///
    /// A pattern that is the same for every row (a literal or a bound value) is compiled once per run of the
    /// statement, not once per row. NULL on either side gives NULL. A pattern that does not compile says what
    /// is wrong and at which character (counted from 1), and, like a value that is not text or text that is
    /// not valid UTF-8, makes the statement fail with ``SQLiteError/Kind/functionFailed``.
    ///
    /// - Parameter options: How SQLite may use the function; deterministic and direct-only by default.
    /// - Returns: The function, to add to a connection.
    public static func regexp(options: Options = .deterministic) -> SQLFunction {
        regexp(options: options, counter: nil)
    }

    /// ``regexp(options:)``, counting the patterns it compiles in `counter`, with a bound on each pattern's DFA
    /// cache and a stop check (for tests and benchmarks).
    ///
    /// `stopRequested` is called every 65,536 bytes or steps of a match; when it returns `true`, the statement
    /// fails with ``ResultCode/interrupt``, as after ``Connection/interruptHandle``'s `interrupt()`.
    static func regexp(
        options: Options, counter: PatternCounter?, memoryLimit: Int = LazyDFA.defaultMemoryLimit,
        stopRequested: @escaping @Sendable () -> Bool = { false }
    ) -> SQLFunction {
        SQLFunction(
            name: "regexp", argumentCount: 2, options: options,
            implementation: .scalar { context, count, values in
                let arguments = FunctionArguments(count: count, values: values)
                let text = try arguments.pointer(at: 1)
                if let cached = sqlite3_get_auxdata(context, 0) {
                    // Borrowed for the call (SQLite holds it until the statement ends): no reference counting.
                    return try Unmanaged<CompiledPattern>.fromOpaque(cached)._withUnsafeGuaranteedRef {
                        try answer($0, text, context, stopRequested)
                    }
                }
                guard let source: String = try arguments[0] else { return sqlite3_result_null(context) }
                let pattern = try CompiledPattern(source, memoryLimit: memoryLimit)
                counter?.count.add(1, ordering: .relaxed)
                // SQLite keeps the pattern while the argument stays the same, and releases it after.
                sqlite3_set_auxdata(context, 0, Unmanaged.passRetained(pattern).toOpaque(), releaseBox)
                try answer(pattern, text, context, stopRequested)
            })
    }

    /// Sets the result of `regexp` for the argument `value`, the text to search.
    private static func answer(
        _ pattern: CompiledPattern, _ value: OpaquePointer, _ context: OpaquePointer, _ stopRequested: () -> Bool
    ) throws(SQLiteError) {
        let type = sqlite3_value_type(value)
        if type == SQLITE_NULL { return sqlite3_result_null(context) }
        guard type == SQLITE_TEXT else {
            throw FunctionArguments.located(StoredValue.mismatch(expected: .text, found: type), index: 1)
        }
        // sqlite3_value_text before sqlite3_value_bytes: the documented order that avoids a conversion.
        guard let bytes = sqlite3_value_text(value) else { throw SQLiteError.outOfMemory("reading TEXT") }
        let text = UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value)))
        // A long match checks, besides the injected check, the connection's interrupt flag and the calling task.
        let interrupts = sqlite3_user_data(context).map { Unmanaged<FunctionBox>.fromOpaque($0) }
        let shouldStop = {
            stopRequested()
                || interrupts?._withUnsafeGuaranteedRef { $0.interrupts.isRaised } == true
                || currentTaskIsCancelled()
        }
        do {
            sqlite3_result_int(context, try pattern.matches(text, stopRequested: shouldStop) ? 1 : 0)
        } catch {
            guard error.code == .interrupt else { throw FunctionArguments.located(error, index: 1) }
            // The statement ends as an interrupted one does: SQLITE_INTERRUPT, message "interrupted".
            sqlite3_result_error_code(context, SQLITE_INTERRUPT)
        }
    }
}

/// Counts the patterns a REGEXP function compiles.
final class PatternCounter: Sendable {
    let count = Atomic<Int>(0)
}
