// Escapes and bracket expressions: the parts of a pattern that name characters and sets of characters.

extension PatternParser {
    /// What an escape stands for.
    enum Escape {
        case scalar(Unicode.Scalar)
        case set(ScalarSet)
        case assertion(PatternAssertion)
    }

    /// An escape, after its backslash at `start`.
    mutating func parseEscape(at start: Int, inBrackets: Bool) throws(SQLiteError) -> Escape {
        guard let scalar = peek() else { throw failure("the pattern ends with a backslash", at: start) }
        position += 1
        switch scalar {
        case "d": return .set(.digits)
        case "D": return .set(ScalarSet.digits.inverted())
        case "w": return .set(.wordCharacters)
        case "W": return .set(ScalarSet.wordCharacters.inverted())
        case "s": return .set(.whitespace)
        case "S": return .set(ScalarSet.whitespace.inverted())
        case "b", "B":
            if inBrackets { throw failure("'\\\(scalar)' is not allowed in a bracket expression", at: start) }
            return .assertion(scalar == "b" ? .wordBoundary : .notWordBoundary)
        case "t": return .scalar("\t")
        case "n": return .scalar("\n")
        case "r": return .scalar("\r")
        case "f": return .scalar("\u{0C}")
        case "v": return .scalar("\u{0B}")
        case "x", "u": return .scalar(try parseCodePoint(at: start, digits: scalar == "x" ? 2 : 4))
        case "0"..."9":
            throw failure("'\\\(scalar)': backreferences are not supported", at: start)
        default:
            if scalar.properties.isAlphabetic && scalar.isASCII {
                throw failure("unknown escape '\\\(scalar)'", at: start)
            }
            return .scalar(scalar)
        }
    }

    /// `{h...}` (1 to 6 hexadecimal digits) or exactly `digits` hexadecimal digits, after `\x` or `\u`.
    private mutating func parseCodePoint(at start: Int, digits: Int) throws(SQLiteError) -> Unicode.Scalar {
        let escape = "\\" + String(scalars[start + 1])
        var value: UInt32 = 0
        var count = 0
        let braced = peek() == "{"
        if braced { position += 1 }
        while let scalar = peek(), let digit = scalar.hexadecimalDigit, braced ? count < 7 : count < digits {
            value = value &* 16 &+ digit
            count += 1
            position += 1
        }
        if braced {
            guard count > 0, count <= 6, peek() == "}" else {
                throw failure("'\(escape){' needs 1 to 6 hexadecimal digits and a '}'", at: start)
            }
            position += 1
        } else if count != digits {
            throw failure(
                "'\(escape)' needs \(digits) hexadecimal digits, or braces: \(escape){\(String(repeating: "h", count: digits))}",
                at: start)
        }
        guard let scalar = Unicode.Scalar(value) else {
            let hex = String(value, radix: 16, uppercase: true)
            throw failure("'\(escape){\(hex)}' is not a Unicode scalar value", at: start)
        }
        return scalar
    }

    /// A bracket expression, after its `[` at `start`.
    mutating func parseBracketExpression(at start: Int) throws(SQLiteError) -> ScalarSet {
        let negated = peek() == "^"
        if negated { position += 1 }
        var ranges: [ClosedRange<UInt32>] = []
        var sets: [ScalarSet] = []
        var first = true
        while true {
            guard let scalar = peek() else { throw failure("missing ']' for this '['", at: start) }
            if scalar == "]" && !first {
                position += 1
                break
            }
            first = false
            let elementStart = position
            switch try parseBracketElement() {
            case .set(let set): sets.append(set)
            case .assertion: throw failure("an anchor is not allowed in a bracket expression", at: elementStart)
            case .scalar(let low):
                guard peek() == "-", let after = peek(1), after != "]" else {
                    sets.append(ignoresCase ? .ignoringCase(low) : ScalarSet(low))
                    continue
                }
                position += 1
                let highStart = position
                guard case .scalar(let high) = try parseBracketElement() else {
                    throw failure("a class cannot end a range", at: highStart)
                }
                guard low <= high else {
                    let range = "\(low.escaped(asASCII: false))-\(high.escaped(asASCII: false))"
                    throw failure("the range '\(range)' is out of order", at: elementStart)
                }
                ranges.append(low.value...high.value)
            }
        }
        var set = ScalarSet(ranges + sets.flatMap(\.ranges))
        if ignoresCase { set = set.addingASCIICases() }
        return negated ? set.inverted() : set
    }

    /// One element of a bracket expression: a character, an escape or a POSIX class such as `[:alpha:]`.
    private mutating func parseBracketElement() throws(SQLiteError) -> Escape {
        let start = position
        guard let scalar = peek() else { throw failure("unexpected end of the pattern", at: start) }
        position += 1
        if scalar == "\\" { return try parseEscape(at: start, inBrackets: true) }
        guard scalar == "[", let kind = peek(), kind == ":" || kind == "." || kind == "=" else {
            return .scalar(scalar)
        }
        guard kind == ":" else {
            throw failure("collating elements [. .] and equivalence classes [= =] are not supported", at: start)
        }
        var name = ""
        var index = position + 1
        while index + 1 < scalars.count, !(scalars[index] == ":" && scalars[index + 1] == "]") {
            name.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard index + 1 < scalars.count else { throw failure("missing ':]' for this '[:'", at: start) }
        guard let set = ScalarSet.posixClass(named: name) else {
            throw failure("unknown class '[:\(name):]'", at: start)
        }
        position = index + 2
        return .set(set)
    }
}

extension Unicode.Scalar {
    /// The value of an ASCII hexadecimal digit.
    fileprivate var hexadecimalDigit: UInt32? {
        switch value {
        case 0x30...0x39: value - 0x30
        case 0x41...0x46: value - 0x41 + 10
        case 0x61...0x66: value - 0x61 + 10
        default: nil
        }
    }
}
