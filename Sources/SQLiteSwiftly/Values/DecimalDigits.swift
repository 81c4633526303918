/// A decimal number's value as written: its sign, its significant digits (no leading or trailing zeros) and the
/// power of ten of the last one. Two texts with equal `DecimalDigits` denote the same number (`1.50`, `15e-1`).
///
/// `Decimal` reads the text of a TEXT column. It holds 38 significant digits, and `Decimal(string:)` drops the
/// ones past that without a word; comparing the text's digits with those of the value it parsed tells.
struct DecimalDigits: Equatable {
    let isNegative: Bool
    let digits: [UInt8]
    let exponent: Int

    /// Parses `[+-]digits[.digits][(e|E)[+-]digits]` with at least one digit before the exponent; `nil` for
    /// any other text.
    init?(_ text: String) {
        var bytes = Substring(text).utf8[...]
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        func digits() -> Substring.UTF8View.SubSequence {
            let run = bytes.prefix(while: isDigit)
            bytes = bytes.dropFirst(run.count)
            return run
        }
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var mantissa = Array(digits())
        var fractionCount = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            let fraction = digits()
            fractionCount = fraction.count
            mantissa += fraction
        }
        guard !mantissa.isEmpty else { return nil }
        var exponent = 0
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            let written = digits()
            guard !written.isEmpty else { return nil }
            // Far beyond any Decimal's range (its exponent is -128...127): clamped, so it cannot overflow.
            for digit in written { exponent = min(exponent * 10 + Int(digit - UInt8(ascii: "0")), 1_000_000) }
            if exponentNegative { exponent = -exponent }
        }
        guard bytes.isEmpty else { return nil }
        // Significant digits only: without leading zeros, and with trailing zeros moved into the exponent.
        let first = mantissa.firstIndex { $0 != UInt8(ascii: "0") }
        guard let first, let last = mantissa.lastIndex(where: { $0 != UInt8(ascii: "0") }) else {
            (isNegative, self.digits, self.exponent) = (false, [], 0)  // zero, whatever its sign and exponent
            return
        }
        isNegative = negative
        self.digits = Array(mantissa[first...last])
        self.exponent = exponent - fractionCount + (mantissa.count - 1 - last)
    }
}
