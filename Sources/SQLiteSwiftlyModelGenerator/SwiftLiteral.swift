import SQLiteSwiftly

/// Swift source text for values: string literals and ``SQLiteValue`` literals for `DEFAULT` clauses.
enum SwiftLiteral {
    /// A Swift string literal holding `text` exactly: quotes, backslashes and control characters are escaped,
    /// other characters (including non-ASCII letters) are kept.
    ///
    /// - Parameter text: Any text.
    /// - Returns: The literal, with its quotes.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.properties.generalCategory == .format {
                    result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// The Swift expression for a value passed as `default:` to ``Column``.
    ///
    /// - Parameter value: The default value.
    /// - Returns: A literal such as `0`, `1.5`, `"text"`, `.null` or `.blob([0x01])`.
    static func value(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return ".null"
        case .integer(let integer): return String(integer)
        case .real(let real): return "\(real)"
        case .text(let text): return string(text)
        case .blob(let bytes):
            let hex = bytes.map { "0x" + (($0 < 16) ? "0" : "") + String($0, radix: 16, uppercase: true) }
            return ".blob([\(hex.joined(separator: ", "))])"
        }
    }

    /// The value of a `DEFAULT` expression as SQLite reports it in `pragma_table_xinfo`, when it is a literal.
    ///
    /// Integers, reals, quoted text, `X'...'` blobs, `NULL`, `TRUE` and `FALSE` are literals. Anything else
    /// (`CURRENT_TIMESTAMP`, `(1 + 1)`, a number too large for 64 bits) is an expression a model cannot declare:
    /// the result is then `nil` and the generator mentions the expression in a comment.
    ///
    /// - Parameter expression: The default expression's SQL text.
    /// - Returns: The value, or `nil` for an expression that is not a literal.
    static func defaultValue(_ expression: String) -> SQLiteValue? {
        let text = expression.trimmingSpaces
        switch text.uppercased() {
        case "NULL": return .null
        case "TRUE": return .integer(1)
        case "FALSE": return .integer(0)
        default: break
        }
        if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") {
            let body = text.dropFirst().dropLast()
            // A lone quote inside means this is not one literal (e.g. 'a' || 'b'); doubled quotes are one quote.
            guard !body.replacingOccurrences(of: "''", with: "").contains("'") else { return nil }
            return .text(body.replacingOccurrences(of: "''", with: "'"))
        }
        if text.count >= 3, text.uppercased().hasPrefix("X'"), text.hasSuffix("'") {
            let digits = Array(text.dropFirst(2).dropLast())
            guard digits.count.isMultiple(of: 2) else { return nil }
            var bytes: [UInt8] = []
            for index in stride(from: 0, to: digits.count, by: 2) {
                guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else { return nil }
                bytes.append(byte)
            }
            return .blob(bytes)
        }
        let unsigned = text.hasPrefix("+") ? String(text.dropFirst()) : text
        if let integer = Int64(unsigned) { return .integer(integer) }
        let isNumeric = unsigned.allSatisfy { $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }
        if isNumeric, unsigned.contains(where: \.isNumber), let real = Double(unsigned), real.isFinite {
            // Integers too large for 64 bits are kept as expressions: as REAL they would change value.
            guard unsigned.contains(where: { ".eE".contains($0) }) else { return nil }
            return .real(real)
        }
        return nil
    }
}

extension StringProtocol {
    /// The text with every occurrence of `target` replaced by `replacement` (without Foundation).
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return String(self) }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
