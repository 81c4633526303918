/// What to search a full-text index for: an FTS5 query, made from the text a person typed so that it is never a
/// syntax error, or written in FTS5's query syntax.
///
/// ```swift
/// let pattern = try SearchPattern("crème \"brûlée", mode: .prefixes)  // "crème"* """brûlée"*
/// let notes = try db.search(Note.self, matching: pattern)
/// ```
///
/// A person's text is split into words at white space and control characters, and each word becomes an FTS5
/// string (between double quotes, its own quotes doubled), which the index's tokenizer splits further as it
/// splits the indexed text. Quotes, `*`, `-`, `:`, `^`, parentheses, `AND`, `OR`, `NOT` and `NEAR` are then plain
/// text, and a NUL is a separator (FTS5 reads its query as C text, which would end there). So any text gives a
/// valid query: the initializer returns `nil` only when the text holds no word at all, and throws only when it is
/// longer than ``maximumWordCount`` words or ``maximumLength`` bytes, which a search box should refuse rather
/// than run (a query's cost grows with its words). A word that the tokenizer turns into no token at all, such as
/// `-` for `unicode61`, matches nothing and is ignored in the other modes.
///
/// A pattern is bound as a value, never written into SQL: use it in ``Connection/search(_:matching:where:orderBy:weights:highlight:snippet:limit:offset:)``,
/// or interpolate it into SQL of your own (`"... WHERE notes_fts MATCH \(pattern)"`).
public struct SearchPattern: Hashable, Sendable, CustomStringConvertible {
    /// How the words of a person's text are combined.
    public enum Mode: Hashable, Sendable {
        /// Rows that contain every word, in any order and column: `"sea" "view"`.
        case allWords
        /// Rows that contain at least one of the words: `"sea" OR "view"`.
        case anyWord
        /// Rows that contain the words next to each other, in this order: `"sea view"`.
        case phrase
        /// Rows that contain, for every word, a word that starts with it: `"sea"* "vi"*`. For a search box that
        /// searches as the person types, since the last word is usually unfinished.
        case prefixes
    }

    /// The most words a person's text may have.
    public static let maximumWordCount = 256
    /// The most UTF-8 bytes a person's text may have.
    public static let maximumLength = 16_384

    /// The FTS5 query.
    public let query: String

    /// Makes a query from the text a person typed.
    ///
    /// - Parameters:
    ///   - text: Any text: words in any script, punctuation, FTS5 operators, emoji, NUL characters.
    ///   - mode: How the words are combined; every word must be found, by default.
    /// - Returns: A pattern, or `nil` when the text has no word (it is empty, or all white space).
    /// - Throws: ``SQLiteError`` of kind ``SQLiteError/Kind/invalidSearchPattern`` and code
    ///   ``ResultCode/tooBig`` when the text has more than ``maximumWordCount`` words or ``maximumLength`` bytes.
    public init?(_ text: String, mode: Mode = .allWords) throws(SQLiteError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw Self.tooLong("\(text.utf8.count) bytes, more than the \(Self.maximumLength) a pattern may have")
        }
        let words = text.unicodeScalars.split(whereSeparator: Self.isSeparator)
        guard words.count <= Self.maximumWordCount else {
            throw Self.tooLong("\(words.count) words, more than the \(Self.maximumWordCount) a pattern may have")
        }
        guard !words.isEmpty else { return nil }
        switch mode {
        case .allWords: query = words.map(Self.string).joined(separator: " ")
        case .anyWord: query = words.map(Self.string).joined(separator: " OR ")
        case .prefixes: query = words.map { Self.string($0) + "*" }.joined(separator: " ")
        case .phrase: query = Self.string(words.map(String.init).joined(separator: " ").unicodeScalars[...])
        }
    }

    /// Uses a query written in FTS5's syntax as it is: operators, column filters, `NEAR`, prefixes, grouping.
    ///
    /// ```swift
    /// let pattern = SearchPattern(rawQuery: "title:sea* AND NOT (storm OR rain)")
    /// ```
    ///
    /// See <https://www.sqlite.org/fts5.html#full_text_query_syntax>. A query that is not valid syntax fails
    /// when it runs: ``Connection/search(_:matching:where:orderBy:weights:highlight:snippet:limit:offset:)``
    /// throws ``SQLiteError/Kind/invalidSearchPattern`` with FTS5's message. Never pass a person's text here.
    ///
    /// - Parameter rawQuery: An FTS5 query.
    public init(rawQuery: String) {
        query = rawQuery
        isRaw = true
    }

    /// Whether the query was given in FTS5's syntax rather than made from a person's text.
    public private(set) var isRaw = false

    /// The FTS5 query.
    public var description: String { query }

    /// White space and control characters (NUL included) separate words.
    private static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x21 || (0x7F...0x9F).contains(scalar.value) || scalar.properties.isWhitespace
    }

    /// A word as an FTS5 string: between double quotes, each double quote doubled.
    private static func string(_ word: Substring.UnicodeScalarView) -> String {
        String(word).quoted(by: UInt8(ascii: "\""))
    }

    private static func tooLong(_ what: String) -> SQLiteError {
        SQLiteError(.invalidSearchPattern, code: .tooBig, message: "the search text has \(what)")
    }
}

extension SearchPattern: SQLiteValueConvertible {
    /// Patterns are stored as text.
    public static var declaredType: DeclaredType { .text }

    /// Reads a stored query as a raw FTS5 query (``init(rawQuery:)``).
    ///
    /// - Parameter sqliteValue: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for a value that is not text.
    public init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        guard case .text(let text) = sqliteValue else { throw .conversion("expected a search pattern as TEXT") }
        self.init(rawQuery: text)
    }

    /// The query, as text.
    public var sqliteValue: SQLiteValue { .text(query) }

    /// Binds the query as text.
    ///
    /// - Parameter slot: The parameter to bind.
    /// - Throws: ``SQLiteError`` when the text cannot be bound.
    public func bind(to slot: borrowing ParameterSlot) throws(SQLiteError) {
        try slot.bind(query)
    }
}
