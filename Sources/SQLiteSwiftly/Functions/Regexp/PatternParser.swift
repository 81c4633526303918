/// Parses a REGEXP pattern into a ``PatternNode``, or throws an error that names the character at fault.
///
/// The syntax is documented on ``SQLFunction/regexp(options:)``. Positions in messages count Unicode
/// scalars from 1.
struct PatternParser {
    /// The largest count a counted repetition (`{m,n}`) may name.
    static let maximumRepetition = 1_000
    /// How deep groups may nest.
    static let maximumNesting = 100

    let scalars: [Unicode.Scalar]
    var position = 0
    var ignoresCase = false
    var dotMatchesNewline = false
    /// The positions of the groups being parsed, innermost last.
    private var openGroups: [Int] = []

    private init(_ pattern: String) {
        scalars = Array(pattern.unicodeScalars)
    }

    /// Parses `pattern`.
    ///
    /// - Throws: ``SQLiteError/Kind/functionFailed`` naming the problem and its position.
    static func parse(_ pattern: String) throws(SQLiteError) -> PatternNode {
        var parser = PatternParser(pattern)
        try parser.parseFlags()
        let node = try parser.parseAlternatives()
        if parser.position < parser.scalars.count {
            throw parser.failure("unmatched ')'", at: parser.position)
        }
        return node
    }

    /// The error for `problem` at the 0-based scalar index `index`.
    func failure(_ problem: String, at index: Int) -> SQLiteError {
        SQLiteError(
            .functionFailed,
            message: "the pattern is not a valid regular expression at character \(index + 1): \(problem)")
    }

    func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    /// Reads `(?i)`, `(?s)` or both at the start of the pattern.
    private mutating func parseFlags() throws(SQLiteError) {
        guard peek() == "(", peek(1) == "?", let first = peek(2), first.isASCII, first.properties.isAlphabetic else {
            return
        }
        var index = 2
        while let flag = peek(index), flag != ")" {
            switch flag {
            case "i": ignoresCase = true
            case "s": dotMatchesNewline = true
            case ":":
                throw failure("scoped flags such as (?i:...) are not supported: put (?i) at the start", at: index)
            default: throw failure("unknown flag '\(flag.escaped(asASCII: false))': only i and s are", at: index)
            }
            index += 1
        }
        guard peek(index) == ")" else { throw failure("missing ')' after the flags", at: 0) }
        position = index + 1
    }

    private mutating func parseAlternatives() throws(SQLiteError) -> PatternNode {
        var branches = [try parseSequence()]
        while peek() == "|" {
            position += 1
            branches.append(try parseSequence())
        }
        return branches.count == 1 ? branches[0] : .alternatives(branches)
    }

    private mutating func parseSequence() throws(SQLiteError) -> PatternNode {
        var parts: [PatternNode] = []
        while let scalar = peek(), scalar != "|", scalar != ")" {
            let (atom, repeatable) = try parseAtom()
            parts.append(try parseRepetition(of: atom, repeatable: repeatable))
        }
        return parts.isEmpty ? .empty : parts.count == 1 ? parts[0] : .sequence(parts)
    }

    /// One atom, and whether a repetition may follow it (not after an anchor).
    private mutating func parseAtom() throws(SQLiteError) -> (PatternNode, repeatable: Bool) {
        let start = position
        guard let scalar = peek() else { throw failure("unexpected end of the pattern", at: start) }
        position += 1
        switch scalar {
        case "(": return (try parseGroup(at: start), true)
        case "*", "+", "?", "{":
            throw failure("'\(scalar)' has nothing to repeat (write '\\\(scalar)' for the character itself)", at: start)
        case ".": return (.scalars(dotMatchesNewline ? .all : .allButNewline), true)
        case "^": return (.assertion(.textStart), false)
        case "$": return (.assertion(.textEnd), false)
        case "[": return (.scalars(try parseBracketExpression(at: start)), true)
        case "\\":
            switch try parseEscape(at: start, inBrackets: false) {
            case .scalar(let value): return (literal(value), true)
            case .set(let set): return (.scalars(set), true)
            case .assertion(let assertion): return (.assertion(assertion), false)
            }
        default: return (literal(scalar), true)
        }
    }

    /// A literal scalar, with its other cases under `(?i)`.
    func literal(_ scalar: Unicode.Scalar) -> PatternNode {
        .scalars(ignoresCase ? .ignoringCase(scalar) : ScalarSet(scalar))
    }

    /// A group, after its `(`.
    private mutating func parseGroup(at start: Int) throws(SQLiteError) -> PatternNode {
        if peek() == "?" {
            switch peek(1) {
            case ":": position += 2
            case "=", "!", "<":
                throw failure("lookaround and named groups are not supported", at: start)
            case "i", "s", "-":
                throw failure("flags such as (?i) are only allowed at the start of the pattern", at: start)
            default: throw failure("unknown group syntax '(?'", at: start)
            }
        }
        guard openGroups.count < Self.maximumNesting else {
            throw failure("groups nest more than \(Self.maximumNesting) levels deep", at: start)
        }
        openGroups.append(start)
        let node = try parseAlternatives()
        openGroups.removeLast()
        guard peek() == ")" else { throw failure("missing ')' for this '('", at: start) }
        position += 1
        return node
    }

    /// `*`, `+`, `?` or `{m,n}` after an atom, if there is one.
    private mutating func parseRepetition(of atom: PatternNode, repeatable: Bool) throws(SQLiteError)
        -> PatternNode
    {
        let start = position
        let minimum: Int
        let maximum: Int?
        switch peek() {
        case "*": (minimum, maximum) = (0, nil)
        case "+": (minimum, maximum) = (1, nil)
        case "?": (minimum, maximum) = (0, 1)
        case "{": (minimum, maximum) = try parseBounds()
        default: return atom
        }
        guard repeatable else { throw failure("an anchor cannot be repeated", at: start) }
        if position == start { position += 1 }
        if peek() == "?" { position += 1 }  // lazy: the same answer for a yes-or-no match
        if let next = peek(), next == "*" || next == "+" || next == "?" || next == "{" {
            throw failure("a repetition cannot follow another: use a group, as in (a*)*", at: position)
        }
        if maximum == 0 { return .empty }
        if minimum == 1 && maximum == 1 { return atom }
        return .repetition(atom, minimum: minimum, maximum: maximum)
    }

    /// `{m}`, `{m,}` or `{m,n}`, leaving the position after the `}`.
    private mutating func parseBounds() throws(SQLiteError) -> (Int, Int?) {
        let start = position
        var index = position + 1
        func number() -> Int? {
            var value: Int?
            while index < scalars.count, (0x30...0x39).contains(scalars[index].value) {
                value = min((value ?? 0) * 10 + Int(scalars[index].value - 0x30), Self.maximumRepetition + 1)
                index += 1
            }
            return value
        }
        let incomplete = "'{' must start a repetition such as {2}, {2,} or {2,5} (write '\\{' for a brace)"
        guard let minimum = number() else { throw failure(incomplete, at: start) }
        var maximum: Int? = minimum
        if index < scalars.count, scalars[index] == "," {
            index += 1
            maximum = number()
        }
        guard index < scalars.count, scalars[index] == "}" else { throw failure(incomplete, at: start) }
        if minimum > Self.maximumRepetition || (maximum ?? 0) > Self.maximumRepetition {
            throw failure("a repetition count is above \(Self.maximumRepetition)", at: start)
        }
        if let maximum, maximum < minimum {
            throw failure("the repetition's minimum \(minimum) is above its maximum \(maximum)", at: start)
        }
        position = index + 1
        return (minimum, maximum)
    }
}
