/// A set of Unicode scalars: what one step of a pattern (a literal, `.`, a bracket expression, a class escape)
/// accepts.
///
/// The set is kept as sorted, disjoint, non-adjacent ranges of scalar values. Surrogate code points are never
/// members: valid UTF-8 text cannot hold them.
struct ScalarSet: Equatable {
    /// The ranges, sorted, disjoint and non-adjacent.
    private(set) var ranges: [ClosedRange<UInt32>]

    static let largestScalar: UInt32 = 0x10_FFFF
    static let surrogates: ClosedRange<UInt32> = 0xD800...0xDFFF

    /// The set of the scalars in `ranges`, which may overlap and come in any order.
    init(_ ranges: [ClosedRange<UInt32>] = []) {
        self.ranges = Self.normalized(ranges)
    }

    /// The set of one scalar.
    init(_ scalar: Unicode.Scalar) {
        ranges = [scalar.value...scalar.value]
    }

    /// Every scalar.
    static let all = ScalarSet([0...largestScalar])
    /// Every scalar except the line feed, which `.` does not match unless the `s` flag is set.
    static let allButNewline = ScalarSet([0...0x09, 0x0B...largestScalar])

    var isEmpty: Bool { ranges.isEmpty }

    func contains(_ value: UInt32) -> Bool {
        var (low, high) = (0, ranges.count)
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < value {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < ranges.count && ranges[low].contains(value)
    }

    /// Whether the set holds every scalar from U+0080 on, as the complement of an ASCII set does.
    var containsAllNonASCII: Bool {
        guard let last = ranges.last, last.upperBound == Self.largestScalar else { return false }
        let upper = ScalarSet([0x80...Self.largestScalar])
        return upper.ranges.allSatisfy { range in
            ranges.contains { $0.lowerBound <= range.lowerBound && $0.upperBound >= range.upperBound }
        }
    }

    func union(_ other: ScalarSet) -> ScalarSet {
        ScalarSet(ranges + other.ranges)
    }

    /// Every scalar that is not in the set.
    func inverted() -> ScalarSet {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
            next = range.upperBound + 1
        }
        if next <= Self.largestScalar { result.append(next...Self.largestScalar) }
        return ScalarSet(result)
    }

    /// The set with the other case of each ASCII letter it holds.
    func addingASCIICases() -> ScalarSet {
        var added: [ClosedRange<UInt32>] = []
        for (letters, shift) in [(UInt32(0x41)...0x5A, Int64(0x20)), (UInt32(0x61)...0x7A, Int64(-0x20))] {
            for range in ranges where range.overlaps(letters) {
                let low = Int64(max(range.lowerBound, letters.lowerBound)) + shift
                let high = Int64(min(range.upperBound, letters.upperBound)) + shift
                added.append(UInt32(low)...UInt32(high))
            }
        }
        return added.isEmpty ? self : ScalarSet(ranges + added)
    }

    /// Sorts and merges ranges, and takes the surrogates out.
    private static func normalized(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var merged: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let clamped = range.clamped(to: 0...largestScalar)
            if let last = merged.last, clamped.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, clamped.upperBound)
            } else {
                merged.append(clamped)
            }
        }
        var result: [ClosedRange<UInt32>] = []
        for range in merged {
            if range.overlaps(surrogates) {
                if range.lowerBound < surrogates.lowerBound {
                    result.append(range.lowerBound...(surrogates.lowerBound - 1))
                }
                if range.upperBound > surrogates.upperBound {
                    result.append((surrogates.upperBound + 1)...range.upperBound)
                }
            } else {
                result.append(range)
            }
        }
        return result
    }
}

// MARK: - Named classes (ASCII)

extension ScalarSet {
    /// `\d`, `[:digit:]`.
    static let digits = ScalarSet([0x30...0x39])
    /// `\w`: ASCII letters, digits and the underscore.
    static let wordCharacters = ScalarSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    /// `\s`, `[:space:]`: space, tab, line feed, vertical tab, form feed, carriage return.
    static let whitespace = ScalarSet([0x09...0x0D, 0x20...0x20])

    /// The POSIX class named `name` (`alpha` for `[:alpha:]`), in its ASCII definition.
    static func posixClass(named name: String) -> ScalarSet? {
        switch name {
        case "alpha": ScalarSet([0x41...0x5A, 0x61...0x7A])
        case "digit": digits
        case "alnum": ScalarSet([0x30...0x39, 0x41...0x5A, 0x61...0x7A])
        case "upper": ScalarSet([0x41...0x5A])
        case "lower": ScalarSet([0x61...0x7A])
        case "space": whitespace
        case "blank": ScalarSet([0x09...0x09, 0x20...0x20])
        case "punct": ScalarSet([0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E])
        case "print": ScalarSet([0x20...0x7E])
        case "graph": ScalarSet([0x21...0x7E])
        case "cntrl": ScalarSet([0x00...0x1F, 0x7F...0x7F])
        case "xdigit": ScalarSet([0x30...0x39, 0x41...0x46, 0x61...0x66])
        default: nil
        }
    }

    /// Whether an ASCII byte is a word character for `\b` and `\B`.
    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F
            || (byte >= 0x61 && byte <= 0x7A)
    }
}

extension ScalarSet {
    /// The set of `scalar` and, ignoring case, its other cases: the other case of an ASCII letter, and the
    /// one-scalar uppercase and lowercase forms of other scalars.
    static func ignoringCase(_ scalar: Unicode.Scalar) -> ScalarSet {
        if scalar.isASCII { return ScalarSet(scalar).addingASCIICases() }
        var ranges = [scalar.value...scalar.value]
        for mapping in [scalar.properties.lowercaseMapping, scalar.properties.uppercaseMapping] {
            let scalars = mapping.unicodeScalars
            if scalars.count == 1, let other = scalars.first { ranges.append(other.value...other.value) }
        }
        return ScalarSet(ranges)
    }
}
