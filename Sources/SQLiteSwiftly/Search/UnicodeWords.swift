/// A ready tokenizer, written in Swift, that folds words as the library's Unicode collations do and splits
/// Chinese and Japanese text into characters.
///
/// ```swift
/// try db.add(tokenizer: UnicodeWords.self)
/// // FullTextIndex(columns: ["title", "body"], tokenizer: .swift(UnicodeWords.self))
/// ```
///
/// A word is a run of letters, digits and the combining marks that follow them, in any script. Each word is folded
/// as ``Collation/unicodeCaseAndAccentInsensitive`` compares it: Unicode's default case folding, then accents
/// removed (`ÉCOLE` finds `école`, `STRASSE` finds `straße`, `θαλασσα` finds `θάλασσα`), the same in every locale.
/// With the argument `keep_accents`, accents count, as with ``Collation/unicodeCaseInsensitive``. Han ideographs,
/// hiragana and katakana are written without spaces between words, so each is a token of its own: a search for
/// `東京` is a phrase of two characters, and finds them next to each other wherever they appear.
///
/// SQLite's `unicode61` knows fewer diacritics (none outside Latin scripts), folds no ligature such as `ß`, and
/// makes a whole line of Japanese a single word.
public struct UnicodeWords: TextTokenizer, Sendable {
    /// `unicode_words`.
    public static let name = "unicode_words"

    /// Whether accents are removed: `true` unless the index gives the argument `keep_accents`.
    public let removesAccents: Bool

    /// Creates the tokenizer from the index's arguments: none, or `keep_accents`.
    ///
    /// - Parameters:
    ///   - arguments: The `tokenize` option's arguments.
    ///   - context: Not used.
    /// - Throws: ``SQLiteError/Kind/misuse`` for another argument.
    public init(arguments: [String], context: borrowing TokenizerContext) throws {
        guard arguments.allSatisfy({ $0 == "keep_accents" }) else {
            throw SQLiteError(.misuse, message: "unicode_words takes no argument but keep_accents, not \(arguments)")
        }
        removesAccents = arguments.isEmpty
    }

    /// Splits `text` into folded words, and ideographs and kana into single characters.
    ///
    /// - Parameters:
    ///   - text: The text's UTF-8 bytes.
    ///   - reason: Why the text is split; every reason splits the same way.
    ///   - tokens: Receives the tokens.
    /// - Throws: What `tokens` throws.
    public func tokenize(
        _ text: UnsafeBufferPointer<UInt8>, for reason: TokenizationReason, into tokens: inout TokenSink
    )
        throws
    {
        var folded: [UInt8] = []
        var index = 0
        while index < text.count {
            let (scalar, length) = Self.scalar(in: text, at: index)
            guard let scalar, Self.isWordStart(scalar) else {
                index += length
                continue
            }
            if Self.isCharacterWord(scalar) {
                try tokens.add(textIn: index..<index + length)
                index += length
                continue
            }
            let start = index
            var isASCII = true
            while index < text.count {
                let (next, nextLength) = Self.scalar(in: text, at: index)
                guard let next, index == start || Self.continuesWord(next) else { break }
                isASCII = isASCII && next.isASCII
                index += nextLength
            }
            let word = UnsafeBufferPointer(rebasing: text[start..<index])
            folded.removeAll(keepingCapacity: true)
            if isASCII {
                folded.append(contentsOf: word.lazy.map(UnicodeFolding.lowercase))
            } else {
                folded.append(contentsOf: UnicodeFolding.key(word, accents: removesAccents).utf8)
            }
            try folded.withUnsafeBufferPointer { try tokens.add($0, at: start..<index) }
        }
    }

    /// The scalar at `index` and its length in bytes; `nil` (length 1) for a byte that does not start valid UTF-8.
    private static func scalar(in text: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar?, Int) {
        let first = text[index]
        if first < 0x80 { return (Unicode.Scalar(first), 1) }
        let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 0
        guard length > 0, index + length <= text.count else { return (nil, 1) }
        var value = UInt32(first) & (0xFF >> (length + 1))
        for offset in 1..<length {
            let byte = text[index + offset]
            guard byte & 0xC0 == 0x80 else { return (nil, 1) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return (Unicode.Scalar(value), length)
    }

    /// Letters and digits start a word.
    private static func isWordStart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isASCIIAlphanumeric(UInt8(scalar.value)) }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// Letters, digits and combining marks continue a word, except the characters that are words of their own.
    private static func continuesWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isASCIIAlphanumeric(UInt8(scalar.value)) }
        if isCharacterWord(scalar) { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return isWordStart(scalar)
        }
    }

    /// Han ideographs, hiragana and katakana: each is a token of its own.
    private static func isCharacterWord(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF66...0xFF9F,
            0x20000...0x3FFFF:
            true
        default: false
        }
    }
}
