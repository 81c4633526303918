extension DateText {
    /// A date and time read from text: whole seconds since 1970 (UTC) and the fraction's digits.
    struct Parsed {
        var unixSeconds: Int64
        var fraction: [UInt8]
    }

    /// Reads `YYYY-MM-DD[( |T)HH:MM[:SS[.f…]]][Z|±HH:MM]`, the forms SQLite's date functions accept and write.
    struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func dateTime() -> Parsed? {
            guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
                (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
            else { return nil }
            var seconds: Int64 = 0
            var fraction: [UInt8] = []
            if index < bytes.count && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "T")) {
                index += 1
                guard let hour = number(2), expect(":"), let minute = number(2), hour < 24, minute < 60 else {
                    return nil
                }
                seconds = hour * 3600 + minute * 60
                if expect(":") {
                    guard let second = number(2), second < 60 else { return nil }
                    seconds += second
                    if expect(".") {
                        while index < bytes.count, isDigit(bytes[index]) {
                            fraction.append(bytes[index])
                            index += 1
                        }
                        guard !fraction.isEmpty else { return nil }
                    }
                }
            }
            guard let offset = zone() else { return nil }
            let days = DateText.days(year: year, month: month, day: day)
            return Parsed(unixSeconds: days * 86_400 + seconds - offset, fraction: fraction)
        }

        /// The time-zone suffix as seconds east of UTC: none or `Z` is 0.
        private mutating func zone() -> Int64? {
            if index == bytes.count { return 0 }
            if expect("Z") { return index == bytes.count ? 0 : nil }
            let sign: Int64
            if expect("+") {
                sign = 1
            } else if expect("-") {
                sign = -1
            } else {
                return nil
            }
            guard let hours = number(2), expect(":"), let minutes = number(2), hours < 24, minutes < 60,
                index == bytes.count
            else { return nil }
            return sign * (hours * 3600 + minutes * 60)
        }

        private mutating func number(_ width: Int) -> Int64? {
            guard index + width <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<(index + width)] {
                guard isDigit(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            index += width
            return value
        }

        private mutating func expect(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        private func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        private func daysIn(month: Int64, year: Int64) -> Int64 {
            switch month {
            case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        }
    }
}
