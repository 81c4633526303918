/// How a full-text index splits text into the words it indexes and searches: an FTS5 tokenizer and its
/// arguments, written into the index's `tokenize` option.
///
/// ```swift
/// .unicode61()                          // unicode61 remove_diacritics 2
/// .porter()                             // porter unicode61 remove_diacritics 2: "running" finds "run"
/// .trigram()                            // trigram: any substring of three characters or more
/// FullTextTokenizer("synonyms")         // a Swift tokenizer added with Connection.add(tokenizer:)
/// ```
///
/// The tokenizer must exist on every connection that writes to or searches the index: SQLite's own ones always
/// do; a Swift tokenizer must be added to each connection first (``Connection/add(tokenizer:)``).
public struct FullTextTokenizer: Hashable, Sendable, CustomStringConvertible {
    /// The tokenizer's name: `unicode61`, `ascii`, `porter`, `trigram`, or the name of a Swift tokenizer.
    public var name: String
    /// The tokenizer's arguments, in order, such as `["remove_diacritics", "2"]`.
    public var arguments: [String]

    /// Creates a tokenizer description from a name and arguments.
    ///
    /// - Parameters:
    ///   - name: The tokenizer's name.
    ///   - arguments: Its arguments, passed to the tokenizer as they are.
    public init(_ name: String, arguments: [String] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// The tokenizer that understands every script: words are runs of letters and digits, folded to lower case.
    ///
    /// - Parameters:
    ///   - removingDiacritics: Whether accents are removed, so that `creme` finds `crème` (the `remove_diacritics 2`
    ///     option: every diacritic SQLite knows, not only those of the older mode 1, which is FTS5's default).
    ///   - tokenCharacters: Characters that count as letters, such as `"-_"`.
    ///   - separators: Characters that separate words although they are letters or digits.
    /// - Returns: The `unicode61` tokenizer.
    public static func unicode61(
        removingDiacritics: Bool = true, tokenCharacters: String = "", separators: String = ""
    ) -> FullTextTokenizer {
        var arguments = ["remove_diacritics", removingDiacritics ? "2" : "0"]
        if !tokenCharacters.isEmpty { arguments += ["tokenchars", tokenCharacters] }
        if !separators.isEmpty { arguments += ["separators", separators] }
        return FullTextTokenizer("unicode61", arguments: arguments)
    }

    /// The tokenizer for ASCII text: words are runs of ASCII letters and digits and of any non-ASCII character.
    ///
    /// - Parameters:
    ///   - tokenCharacters: ASCII characters that count as letters.
    ///   - separators: ASCII characters that separate words.
    /// - Returns: The `ascii` tokenizer.
    public static func ascii(tokenCharacters: String = "", separators: String = "") -> FullTextTokenizer {
        var arguments: [String] = []
        if !tokenCharacters.isEmpty { arguments += ["tokenchars", tokenCharacters] }
        if !separators.isEmpty { arguments += ["separators", separators] }
        return FullTextTokenizer("ascii", arguments: arguments)
    }

    /// The Porter stemmer over another tokenizer: English words are reduced to their stem, so that `running`,
    /// `runs` and `run` find each other.
    ///
    /// - Parameter base: The tokenizer whose words are stemmed; ``unicode61(removingDiacritics:tokenCharacters:separators:)``
    ///   by default.
    /// - Returns: The `porter` tokenizer.
    public static func porter(_ base: FullTextTokenizer = .unicode61()) -> FullTextTokenizer {
        FullTextTokenizer("porter", arguments: [base.name] + base.arguments)
    }

    /// The tokenizer that indexes every sequence of three characters, so that a search finds any substring of
    /// three characters or more (`"ello"` finds `hello`), in any script. Shorter words find nothing. The index is
    /// several times larger than with words.
    ///
    /// - Parameter caseSensitive: Whether upper and lower case differ.
    /// - Returns: The `trigram` tokenizer.
    public static func trigram(caseSensitive: Bool = false) -> FullTextTokenizer {
        FullTextTokenizer("trigram", arguments: ["case_sensitive", caseSensitive ? "1" : "0"])
    }

    /// The `tokenize` option's text, such as `unicode61 remove_diacritics 2`: each word bare when it is made of
    /// ASCII letters, digits, `_` and non-ASCII characters, as FTS5 reads bare words, otherwise in single quotes.
    public var description: String {
        ([name] + arguments).map { word in
            let isBare =
                !word.isEmpty
                && word.utf8.allSatisfy { $0 >= 0x80 || $0 == UInt8(ascii: "_") || isASCIIAlphanumeric($0) }
            return isBare ? word : word.quoted(by: UInt8(ascii: "'"))
        }.joined(separator: " ")
    }

    /// What FTS5 cannot receive: an empty name, or a NUL, which would cut the C text short.
    var problem: String? {
        if name.isEmpty { return "a full-text tokenizer has an empty name" }
        if ([name] + arguments).contains(where: { $0.contains("\0") }) {
            return "the full-text tokenizer \"\(name)\" has a NUL character in its name or arguments"
        }
        return nil
    }
}

/// Whether a byte is an ASCII letter or digit.
func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
}
