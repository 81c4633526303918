/// One token of SQL text, as far as the generator needs to tell them apart.
struct SQLToken: Hashable, Sendable {
    /// What kind of text the token is.
    enum Kind: Hashable, Sendable {
        /// A keyword, a bare identifier or a number: `CHECK`, `price`, `10`.
        case word
        /// A quoted identifier: `"unit price"`, `` `a` `` or `[a]`.
        case quotedIdentifier
        /// A string literal: `'it''s'`.
        case string
        /// Any other single character: `(`, `,`, `>`.
        case symbol
    }

    var kind: Kind
    /// The token exactly as written, quotes included.
    var text: String
    /// The position of the token's first character in the source, as an offset in characters.
    var offset: Int

    /// Whether the token is the bare word `keyword`, ignoring ASCII case.
    func isKeyword(_ keyword: String) -> Bool {
        kind == .word && text.uppercased() == keyword
    }

    /// Whether the token is the symbol `character`.
    func isSymbol(_ character: Character) -> Bool {
        kind == .symbol && text == String(character)
    }

    /// The name the token stands for: quotes removed and doubled quotes undone for a quoted identifier, the
    /// text itself for a word.
    var identifier: String {
        guard kind == .quotedIdentifier, let first = text.first else { return text }
        let close: Character = first == "[" ? "]" : first
        var body = String(text.dropFirst())
        if body.last == close { body.removeLast() }
        guard first != "[" else { return body }
        return body.replacingOccurrences(of: String(repeating: close, count: 2), with: String(close))
    }
}

/// Splits SQL text into tokens, skipping spaces and comments.
///
/// It knows SQLite's quoting (`'text'`, `"name"`, `` `name` ``, `[name]`, with doubled quotes inside) and comments
/// (`-- ...` and `/* ... */`), which is enough to find clauses such as `CHECK (...)` and `COLLATE NOCASE` in the
/// `CREATE` statements SQLite keeps in `sqlite_schema`. It never fails: unterminated text runs to the end.
enum SQLTokenizer {
    /// The tokens of `sql`, in order.
    ///
    /// - Parameter sql: SQL text.
    /// - Returns: The tokens; comments and spaces are dropped.
    static func tokens(in sql: String) -> [SQLToken] {
        let characters = Array(sql)
        var tokens: [SQLToken] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let start = index
            if character.isWhitespace {
                index += 1
                continue
            }
            if character == "-", index + 1 < characters.count, characters[index + 1] == "-" {
                while index < characters.count, !characters[index].isNewline { index += 1 }
                continue
            }
            if character == "/", index + 1 < characters.count, characters[index + 1] == "*" {
                index += 2
                while index < characters.count, !(characters[index] == "*" && next(characters, index) == "/") {
                    index += 1
                }
                index = min(index + 2, characters.count)
                continue
            }
            let kind: SQLToken.Kind
            switch character {
            case "'":
                index = endOfQuoted(characters, from: index, close: "'")
                kind = .string
            case "\"", "`":
                index = endOfQuoted(characters, from: index, close: character)
                kind = .quotedIdentifier
            case "[":
                index += 1
                while index < characters.count, characters[index] != "]" { index += 1 }
                index = min(index + 1, characters.count)
                kind = .quotedIdentifier
            default:
                if isWordCharacter(character) {
                    while index < characters.count, isWordCharacter(characters[index]) { index += 1 }
                    kind = .word
                } else {
                    index += 1
                    kind = .symbol
                }
            }
            tokens.append(SQLToken(kind: kind, text: String(characters[start..<index]), offset: start))
        }
        return tokens
    }

    /// The source text from the start of `first` to the end of `last`, on one line: runs of spaces and line breaks
    /// become one space.
    ///
    /// - Parameters:
    ///   - first: The first token.
    ///   - last: The last token.
    ///   - sql: The text both tokens come from.
    /// - Returns: The text, spaces collapsed.
    static func text(from first: SQLToken, through last: SQLToken, in sql: String) -> String {
        let characters = Array(sql)
        let end = min(last.offset + last.text.count, characters.count)
        guard first.offset < end else { return "" }
        return singleLine(String(characters[first.offset..<end]))
    }

    /// The text with every run of white space (line breaks included) turned into one space, and no white space at
    /// either end.
    static func singleLine(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The index of the token that closes the parenthesis at `open`, or the last index when it is not closed.
    ///
    /// - Parameters:
    ///   - tokens: The tokens.
    ///   - open: The index of a `(` token.
    /// - Returns: The index of the matching `)`.
    static func matchingParenthesis(in tokens: [SQLToken], from open: Int) -> Int {
        var depth = 0
        for index in open..<tokens.count {
            if tokens[index].isSymbol("(") { depth += 1 }
            if tokens[index].isSymbol(")") {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return tokens.count - 1
    }

    private static func next(_ characters: [Character], _ index: Int) -> Character? {
        index + 1 < characters.count ? characters[index + 1] : nil
    }

    /// The index just past a quoted run that starts at `start`; a doubled closing quote stays inside.
    private static func endOfQuoted(_ characters: [Character], from start: Int, close: Character) -> Int {
        var index = start + 1
        while index < characters.count {
            if characters[index] == close {
                if next(characters, index) == close {
                    index += 2
                    continue
                }
                return index + 1
            }
            index += 1
        }
        return characters.count
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "$" || !character.isASCII
    }
}
