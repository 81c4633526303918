import CSQLiteSwiftly
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SQLFunction {
    /// `regexp(pattern, text)`, which SQLite calls for `text REGEXP pattern`: whether the pattern matches
    /// anywhere in the text, with the standard library's `Regex` syntax.
    ///
    /// ```swift
    /// try db.add(function: .regexp())
    /// let codes = try db.fetchAll(String.self, "SELECT code FROM parts WHERE code REGEXP '^[A-Z]{2}-[0-9]+$'")
    /// ```
    ///
    /// A pattern that is the same for every row (a literal or a bound value) is compiled once per run of the
    /// statement, not once per row. NULL on either side gives NULL. A pattern that does not compile, or a value
    /// that is not text, makes the statement fail with ``SQLiteError/Kind/functionFailed``.
    ///
    /// - Parameter options: How SQLite may use the function; deterministic and direct-only by default.
    /// - Returns: The function, to add to a connection.
    public static func regexp(options: Options = .deterministic) -> SQLFunction {
        regexp(options: options, counter: nil)
    }

    /// ``regexp(options:)``, counting the patterns it compiles in `counter` (for tests and benchmarks).
    static func regexp(options: Options, counter: PatternCounter?) -> SQLFunction {
        SQLFunction(
            name: "regexp", argumentCount: 2, options: options,
            implementation: .scalar { context, count, values in
                let arguments = FunctionArguments(count: count, values: values)
                let pattern: CompiledPattern
                if let cached = sqlite3_get_auxdata(context, 0) {
                    pattern = Unmanaged<CompiledPattern>.fromOpaque(cached).takeUnretainedValue()
                } else {
                    guard let text: String = try arguments[0] else { return sqlite3_result_null(context) }
                    pattern = try CompiledPattern(text)
                    counter?.count.add(1, ordering: .relaxed)
                    // SQLite keeps the pattern while the argument stays the same, and releases it after.
                    sqlite3_set_auxdata(context, 0, Unmanaged.passRetained(pattern).toOpaque(), releaseBox)
                }
                guard let text: String = try arguments[1] else { return sqlite3_result_null(context) }
                sqlite3_result_int(context, try pattern.regex.firstMatch(in: text) == nil ? 0 : 1)
            })
    }
}

/// A compiled REGEXP pattern, kept by SQLite as the pattern argument's auxiliary data.
final class CompiledPattern {
    let regex: Regex<AnyRegexOutput>

    init(_ pattern: String) throws(SQLiteError) {
        do {
            regex = try Regex(pattern)
        } catch {
            throw SQLiteError(.misuse, message: "the pattern is not a valid regular expression: \(error)")
        }
    }
}

/// Counts the patterns a REGEXP function compiles.
final class PatternCounter: Sendable {
    let count = Atomic<Int>(0)
}
