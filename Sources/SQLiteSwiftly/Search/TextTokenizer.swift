import CSQLiteSwiftly

/// A tokenizer written in Swift: it splits the text of a full-text index into the tokens (words) the index stores,
/// and a search's words the same way.
///
/// ```swift
/// /// Words are runs of letters and digits, folded to lower case.
/// struct SimpleWords: TextTokenizer {
///     static let name = "simple_words"
///     init(arguments: [String], context: borrowing TokenizerContext) {}
///
///     func tokenize(_ text: UnsafeBufferPointer<UInt8>, for reason: TokenizationReason, into tokens: inout TokenSink)
///         throws
///     {
///         // ... find each word's byte range in `text`, then:
///         // try tokens.add(folded, at: range)
///     }
/// }
///
/// try db.add(tokenizer: SimpleWords.self)
/// // FullTextIndex(columns: ["body"], tokenizer: .swift(SimpleWords.self))
/// ```
///
/// SQLite creates one value per index and connection, with the arguments the index's `tokenize` option gives after
/// the name, and calls ``tokenize(_:for:into:)`` for each text it indexes, each search and each snippet or
/// highlight, on the thread that runs the statement. A value may keep state; the method is not `mutating`, since
/// SQLite may tokenize again while a tokenization runs (a snippet of a search), so state that changes belongs in a
/// class. The text is UTF-8 as stored; it is not checked for validity.
///
/// A tokenizer that throws fails the statement that made it run, which writes nothing, with a
/// ``SQLiteError/Kind/tokenizerFailed`` error naming the tokenizer.
public protocol TextTokenizer: SendableMetatype {
    /// The name an index's `tokenize` option uses for this tokenizer.
    static var name: String { get }

    /// Creates the tokenizer of one index.
    ///
    /// - Parameters:
    ///   - arguments: The words after the tokenizer's name in the index's `tokenize` option.
    ///   - context: What a tokenizer may use while it is created, such as another tokenizer to wrap
    ///     (``TokenizerContext/tokenizer(_:)``). It cannot be kept.
    /// - Throws: Any error, to refuse the arguments: the statement that opens the index fails.
    init(arguments: [String], context: borrowing TokenizerContext) throws

    /// Splits a text into tokens, handing each one to `tokens`.
    ///
    /// - Parameters:
    ///   - text: The text's UTF-8 bytes, valid only during the call.
    ///   - reason: Why the text is split: a document to index, a search, or an auxiliary function.
    ///   - tokens: Receives each token, with the byte range of the text it comes from.
    /// - Throws: Any error, which fails the statement; or the error a ``TokenSink`` throws when
    ///   SQLite asks to stop, which must be passed on.
    func tokenize(_ text: UnsafeBufferPointer<UInt8>, for reason: TokenizationReason, into tokens: inout TokenSink)
        throws
}

/// Why SQLite asks a tokenizer to split a text.
public enum TokenizationReason: Hashable, Sendable {
    /// A row's text is being indexed, or removed from the index.
    case document
    /// A search's text is being split; each token must match the tokens of indexed text.
    case query
    /// A search's text whose last token is a prefix (`"sea"*`): a tokenizer that adds synonyms or stems should
    /// leave it as it is.
    case prefixQuery
    /// An auxiliary function (`highlight`, `snippet`) is splitting a row's text again to find the matches.
    case auxiliary

    init(flags: Int32) {
        if flags & FTS5_TOKENIZE_DOCUMENT != 0 {
            self = .document
        } else if flags & FTS5_TOKENIZE_PREFIX != 0 {
            self = .prefixQuery
        } else if flags & FTS5_TOKENIZE_QUERY != 0 {
            self = .query
        } else {
            self = .auxiliary
        }
    }

    var flags: Int32 {
        switch self {
        case .document: FTS5_TOKENIZE_DOCUMENT
        case .query: FTS5_TOKENIZE_QUERY
        case .prefixQuery: FTS5_TOKENIZE_QUERY | FTS5_TOKENIZE_PREFIX
        case .auxiliary: FTS5_TOKENIZE_AUX
        }
    }
}

/// What a ``TextTokenizer`` may use while SQLite creates it: the other tokenizers of its connection.
///
/// It is lent to ``TextTokenizer/init(arguments:context:)`` and cannot be kept.
public struct TokenizerContext: ~Copyable {
    let api: UnsafeMutablePointer<fts5_api>

    /// Creates another tokenizer of the connection, for a tokenizer that wraps it: one that adds synonyms to the
    /// words of `unicode61`, say.
    ///
    /// - Parameter description: The tokenizer, with its arguments: one of SQLite's, or a Swift tokenizer added to
    ///   the connection.
    /// - Returns: The tokenizer, to keep in the wrapping tokenizer.
    /// - Throws: ``SQLiteError`` when the connection has no tokenizer of that name, or it refuses the arguments.
    public func tokenizer(_ description: FullTextTokenizer) throws(SQLiteError) -> WrappedTokenizer {
        try WrappedTokenizer(description, api: api)
    }
}

@available(*, unavailable)
extension TokenizerContext: Sendable {}

extension FullTextTokenizer {
    /// A tokenizer written in Swift, added to every connection that uses the index with
    /// ``Connection/add(tokenizer:)``.
    ///
    /// - Parameters:
    ///   - type: The tokenizer type.
    ///   - arguments: The arguments its ``TextTokenizer/init(arguments:context:)`` receives.
    /// - Returns: The tokenizer's description, named ``TextTokenizer/name``.
    public static func swift<Tokenizer: TextTokenizer>(_ type: Tokenizer.Type, arguments: [String] = [])
        -> FullTextTokenizer
    {
        FullTextTokenizer(Tokenizer.name, arguments: arguments)
    }
}
