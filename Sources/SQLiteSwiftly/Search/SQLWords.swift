/// The words of an SQL text as SQLite reads them, for comparing the schema's statements with the ones the library
/// writes: white space and comments dropped, quoted identifiers unquoted, string literals kept apart.
///
/// Two statements that differ only in spacing, comments, the case of keywords and identifiers, or the way
/// identifiers are quoted have the same words (``key``).
struct SQLWords {
    /// One word of SQL.
    struct Word: Hashable {
        enum Kind: Hashable {
            /// A keyword, a bare or quoted identifier, or a number.
            case name
            /// A string literal, `'...'`.
            case string
            /// Any other character, such as `(` or `,`.
            case symbol
        }

        var kind: Kind
        /// The text, unquoted.
        var text: String

        /// What compares: names ignoring ASCII case, as SQLite compares identifiers and keywords.
        var key: String { kind == .name ? text.sqlIdentifierKey : text }

        func isSymbol(_ character: Character) -> Bool {
            kind == .symbol && text == String(character)
        }

        func isName(_ name: String) -> Bool {
            kind == .name && key == name.sqlIdentifierKey
        }
    }

    private(set) var words: [Word] = []

    /// Splits `sql` into words; an unterminated quote runs to the end of the text.
    init(_ sql: String) {
        let bytes = Array(sql.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0C:
                index += 1
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                index += 2
                while index < bytes.count
                    && !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count
                        && bytes[index + 1] == UInt8(ascii: "/"))
                {
                    index += 1
                }
                index += 2
            case UInt8(ascii: "'"):
                words.append(Word(kind: .string, text: Self.quoted(bytes, &index, closing: byte)))
            case UInt8(ascii: "\""), UInt8(ascii: "`"):
                words.append(Word(kind: .name, text: Self.quoted(bytes, &index, closing: byte)))
            case UInt8(ascii: "["):
                words.append(Word(kind: .name, text: Self.quoted(bytes, &index, closing: UInt8(ascii: "]"))))
            default:
                if Self.isNameByte(byte) {
                    let start = index
                    while index < bytes.count && (Self.isNameByte(bytes[index]) || bytes[index] == UInt8(ascii: "$")) {
                        index += 1
                    }
                    words.append(Word(kind: .name, text: String(decoding: bytes[start..<index], as: UTF8.self)))
                } else {
                    words.append(Word(kind: .symbol, text: String(decoding: [byte], as: UTF8.self)))
                    index += 1
                }
            }
        }
    }

    /// The words' keys, for comparing two statements.
    var keys: [String] { words.map { "\($0.kind):\($0.key)" } }

    /// The text between a quote at `index` and its closing quote, each doubled closing quote read as one;
    /// `index` moves past the closing quote.
    private static func quoted(_ bytes: [UInt8], _ index: inout Int, closing: UInt8) -> String {
        var text: [UInt8] = []
        index += 1
        while index < bytes.count {
            if bytes[index] == closing {
                if closing != UInt8(ascii: "]") && index + 1 < bytes.count && bytes[index + 1] == closing {
                    text.append(closing)
                    index += 2
                    continue
                }
                index += 1
                break
            }
            text.append(bytes[index])
            index += 1
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Letters, digits, `_` and every non-ASCII byte make names and numbers.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "_") || isASCIIAlphanumeric(byte)
    }
}
