/// The text form of a stored `Date`: `YYYY-MM-DD HH:MM:SS.fff…` in UTC, lossless and readable by SQLite.
///
/// The fraction has at least 3 digits (milliseconds, like SQLite's `strftime('%f')`) and as many more as it
/// takes to give back the exact `Double` of `timeIntervalSinceReferenceDate`: the shortest decimal that
/// round-trips the fractional part. SQLite's date functions accept any number of fraction digits, and the
/// text of two dates compares like the dates (years 0000 to 9999), so `ORDER BY` and `datetime(column)` work.
///
/// Why it is exact: for a time interval `t`, `t - floor(t)` is computed exactly for `t >= 0` and `t <= -1`,
/// and `floor(t) + fraction` gives back `t` exactly. For `-1 < t < 0` (the second before 2001-01-01),
/// `1 + t` would round, so the fraction is written as the exact decimal complement of `|t|` and read back the
/// same way.
enum DateText {
    /// Seconds from 1970-01-01 to 2001-01-01, the reference date of `Date`.
    static let referenceOffset: Int64 = 978_307_200

    /// Formats a time interval since 2001-01-01 00:00:00 UTC.
    static func format(sinceReferenceDate interval: Double) throws(SQLiteError) -> String {
        guard interval.isFinite else { throw .conversion("a Date with an infinite or NaN time cannot be stored") }
        let whole = interval.rounded(.down)
        guard whole > -63_240_000_000, whole < 252_500_000_000 else {
            throw .conversion("a Date outside the years 0000 to 9999 cannot be stored as TEXT")
        }
        var fraction: [UInt8]
        if interval < 0 && interval > -1 {
            fraction = complement(shortestDigits(-interval))
        } else {
            let part = interval - whole
            fraction = part == 0 ? [] : shortestDigits(part)
        }
        while fraction.count < 3 { fraction.append(UInt8(ascii: "0")) }
        let unix = Int64(whole) + referenceOffset
        let days = unix >= 0 ? unix / 86_400 : (unix - 86_399) / 86_400
        let seconds = unix - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        guard (0...9999).contains(year) else {
            throw .conversion("a Date outside the years 0000 to 9999 cannot be stored as TEXT")
        }
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + " "
        text += pad(seconds / 3600, 2) + ":" + pad(seconds % 3600 / 60, 2) + ":" + pad(seconds % 60, 2) + "."
        text += String(decoding: fraction, as: UTF8.self)
        return text
    }

    /// Parses `YYYY-MM-DD[( |T)HH:MM[:SS[.f…]]][Z|±HH:MM]` into a time interval since 2001-01-01.
    static func parse(_ text: String) throws(SQLiteError) -> Double {
        var scanner = Scanner(bytes: Array(text.utf8))
        guard let parsed = scanner.dateTime() else {
            throw .conversion("stored TEXT is not a date of the form YYYY-MM-DD HH:MM:SS.SSS")
        }
        let whole = parsed.unixSeconds - referenceOffset
        let digits = parsed.fraction
        if digits.allSatisfy({ $0 == UInt8(ascii: "0") }) { return Double(whole) }
        if whole == -1 {
            return -decimalFraction(complement(digits))
        }
        return Double(whole) + decimalFraction(digits)
    }

    /// The digits after "0." of the shortest decimal that reads back as `value`, for `0 < value < 1`.
    static func shortestDigits(_ value: Double) -> [UInt8] {
        let description = Array(value.description.utf8)
        let zero = UInt8(ascii: "0")
        var digits: [UInt8]
        if let e = description.firstIndex(of: UInt8(ascii: "e")) {
            let exponent = Int(String(decoding: description[(e + 2)...], as: UTF8.self)) ?? 0
            let mantissa = description[..<e].filter { $0 != UInt8(ascii: ".") }
            digits = Array(repeating: zero, count: max(exponent - 1, 0)) + mantissa
        } else if let dot = description.firstIndex(of: UInt8(ascii: ".")) {
            digits = Array(description[(dot + 1)...])
        } else {
            digits = []
        }
        while digits.last == zero { digits.removeLast() }
        return digits
    }

    /// The digits of `1 - 0.digits`, computed exactly (`10^n - digits`); trailing zeros removed.
    static func complement(_ digits: [UInt8]) -> [UInt8] {
        let zero = UInt8(ascii: "0")
        guard let last = digits.lastIndex(where: { $0 != zero }) else { return [] }
        var result: [UInt8] = []
        result.reserveCapacity(last + 1)
        for index in 0..<last { result.append(zero + 9 - (digits[index] - zero)) }
        result.append(zero + 10 - (digits[last] - zero))
        return result
    }

    static func decimalFraction(_ digits: [UInt8]) -> Double {
        Double("0." + String(decoding: digits, as: UTF8.self)) ?? 0
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Year, month, day of a day count since 1970-01-01 in the proleptic Gregorian calendar.
    ///
    /// Howard Hinnant's `civil_from_days`: <https://howardhinnant.github.io/date_algorithms.html>.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The day count since 1970-01-01 of a proleptic Gregorian date (Hinnant's `days_from_civil`).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

// MARK: - Reading date text

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
