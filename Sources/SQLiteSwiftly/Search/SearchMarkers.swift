/// How a search marks the matched words in the text of each result: the whole text of each indexed column.
///
/// ```swift
/// SearchHighlight(open: "<mark>", close: "</mark>")  // "<mark>Sea</mark> view at dawn"
/// ```
///
/// The markers are bound as values; the text they surround is the row's text as stored, not escaped for HTML.
public struct SearchHighlight: Hashable, Sendable {
    /// The text written before each matched word.
    public var open: String
    /// The text written after each matched word.
    public var close: String

    /// Creates highlight markers.
    ///
    /// - Parameters:
    ///   - open: The text written before each matched word.
    ///   - close: The text written after each matched word.
    public init(open: String, close: String) {
        self.open = open
        self.close = close
    }
}

/// How a search makes a short extract of each result around its matched words, as a search results page shows.
///
/// ```swift
/// SearchSnippet(open: "[", close: "]", ellipsis: "…", wordCount: 8)  // "…the [sea] was calm…"
/// ```
public struct SearchSnippet: Hashable, Sendable {
    /// The text written before each matched word.
    public var open: String
    /// The text written after each matched word.
    public var close: String
    /// The text written where the extract cuts the column's text.
    public var ellipsis: String
    /// The most words an extract holds, 1 to 64.
    public var wordCount: Int
    /// The indexed column the extract is taken from, or `nil` for the column that matches best in each row.
    public var column: String?

    /// Creates a snippet description.
    ///
    /// - Parameters:
    ///   - open: The text written before each matched word.
    ///   - close: The text written after each matched word.
    ///   - ellipsis: The text written where the extract cuts the text.
    ///   - wordCount: The most words an extract holds, 1 to 64.
    ///   - column: The indexed column to take the extract from, or `nil` for the best one in each row.
    public init(open: String, close: String, ellipsis: String = "…", wordCount: Int = 12, column: String? = nil) {
        self.open = open
        self.close = close
        self.ellipsis = ellipsis
        self.wordCount = wordCount
        self.column = column
    }
}
