import CSQLiteSwiftly

/// The C function FTS5 gives a tokenizer to receive each token.
public typealias TokenCallback =
    @convention(c) (
        UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, Int32, Int32
    ) -> Int32

/// Where a ``TextTokenizer`` hands the tokens of a text, in order.
///
/// Each token comes with the byte range of the text it stands for (`highlight` and `snippet` mark those bytes),
/// which must lie within the text. A token can be the text's own bytes (``add(textIn:colocated:)``) or any other
/// bytes, such as the word folded to lower case. A *colocated* token takes the same position as the token before
/// it, as a synonym does: a search for either finds the text.
///
/// The sink is lent to one call of ``TextTokenizer/tokenize(_:for:into:)`` and cannot be kept.
public struct TokenSink: ~Copyable {
    @usableFromInline let context: UnsafeMutableRawPointer?
    @usableFromInline let callback: TokenCallback
    @usableFromInline let text: UnsafeBufferPointer<UInt8>
    /// FTS5's answer to the last token: anything but `SQLITE_OK` stops the tokenization.
    @usableFromInline var status: Int32 = SQLITE_OK
    /// Whether a token was added yet: the first one cannot be colocated.
    @usableFromInline var hasToken = false

    init(context: UnsafeMutableRawPointer?, callback: @escaping TokenCallback, text: UnsafeBufferPointer<UInt8>) {
        self.context = context
        self.callback = callback
        self.text = text
    }

    /// Adds a token.
    ///
    /// - Parameters:
    ///   - token: The token's bytes, valid only during the call. An empty token is skipped.
    ///   - range: The byte range of the text the token stands for.
    ///   - colocated: Whether the token takes the position of the token before it, as a synonym does.
    /// - Throws: ``SQLiteError/Kind/tokenizerFailed`` for a range outside the text or a colocated first token;
    ///   ``SQLiteError`` with SQLite's code when SQLite asks to stop (it has what it needs, or failed): the
    ///   tokenizer must then stop and throw it on, and every later call throws it again.
    @inlinable public mutating func add(
        _ token: UnsafeBufferPointer<UInt8>, at range: Range<Int>, colocated: Bool = false
    )
        throws(SQLiteError)
    {
        guard status == SQLITE_OK else { throw stopped() }
        guard range.lowerBound >= 0, range.upperBound <= text.count, !colocated || hasToken else {
            throw misplaced(range, colocated: colocated)
        }
        guard let base = token.baseAddress, !token.isEmpty else { return }
        guard token.count <= Int32.max else { throw misplaced(range, colocated: colocated) }
        hasToken = true
        let code = base.withMemoryRebound(to: CChar.self, capacity: token.count) { bytes in
            callback(
                context, colocated ? FTS5_TOKEN_COLOCATED : 0, bytes, Int32(truncatingIfNeeded: token.count),
                Int32(truncatingIfNeeded: range.lowerBound), Int32(truncatingIfNeeded: range.upperBound))
        }
        if code != SQLITE_OK {
            status = code
            throw stopped()
        }
    }

    /// Adds the text's own bytes in `range` as a token.
    ///
    /// - Parameters:
    ///   - range: The byte range of the text that is the token.
    ///   - colocated: Whether the token takes the position of the token before it.
    /// - Throws: As `add(_:at:colocated:)` for bytes.
    @inlinable public mutating func add(textIn range: Range<Int>, colocated: Bool = false) throws(SQLiteError) {
        guard range.lowerBound >= 0, range.upperBound <= text.count else {
            throw misplaced(range, colocated: colocated)
        }
        try add(UnsafeBufferPointer(rebasing: text[range]), at: range, colocated: colocated)
    }

    /// Adds a token given as a string.
    ///
    /// - Parameters:
    ///   - token: The token. An empty token is skipped.
    ///   - range: The byte range of the text the token stands for.
    ///   - colocated: Whether the token takes the position of the token before it.
    /// - Throws: As `add(_:at:colocated:)` for bytes.
    public mutating func add(_ token: String, at range: Range<Int>, colocated: Bool = false) throws(SQLiteError) {
        var token = token
        var failure: SQLiteError?
        token.withUTF8 { bytes in
            do throws(SQLiteError) { try add(bytes, at: range, colocated: colocated) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    @usableFromInline func stopped() -> SQLiteError {
        SQLiteError(.sqlite, code: ResultCode(rawValue: status), message: "SQLite stopped the tokenizer")
    }

    @usableFromInline func misplaced(_ range: Range<Int>, colocated: Bool) -> SQLiteError {
        let problem =
            colocated && !hasToken
            ? "its first token is colocated, but there is no token before it"
            : "a token's range \(range) is not within the text's \(text.count) bytes"
        return SQLiteError(.tokenizerFailed, message: problem)
    }
}

@available(*, unavailable)
extension TokenSink: Sendable {}
