/// The UTF-8 encodings of a set of scalars, as sequences of byte ranges: a text's bytes at a position encode a
/// scalar of the set exactly when they match one of the sequences (each byte within its range).
///
/// A range of scalars is split until each part has one encoded length and each byte position of its encodings
/// varies independently of the others; each part is then one sequence. The text is known to be valid UTF-8, so
/// a set that holds every scalar from U+0080 on (`.`, a negated class) needs only the three generic sequences
/// `[C2-DF][80-BF]`, `[E0-EF][80-BF]{2}`, `[F0-F4][80-BF]{3}` for them.
enum UTF8Sequences {
    static func of(_ set: ScalarSet) -> [[ClosedRange<UInt8>]] {
        var sequences: [[ClosedRange<UInt8>]] = []
        var ranges = set.ranges
        if set.containsAllNonASCII {
            ranges = ranges.compactMap { $0.lowerBound < 0x80 ? $0.lowerBound...min($0.upperBound, 0x7F) : nil }
            let continuation: ClosedRange<UInt8> = 0x80...0xBF
            sequences = [
                [0xC2...0xDF, continuation], [0xE0...0xEF, continuation, continuation],
                [0xF0...0xF4, continuation, continuation, continuation],
            ]
        }
        for range in ranges { split(range.lowerBound, range.upperBound, into: &sequences) }
        return sequences
    }

    private static func split(_ low: UInt32, _ high: UInt32, into sequences: inout [[ClosedRange<UInt8>]]) {
        for boundary: UInt32 in [0x7F, 0x7FF, 0xFFFF] where low <= boundary && high > boundary {
            split(low, boundary, into: &sequences)
            split(boundary + 1, high, into: &sequences)
            return
        }
        let (lowBytes, highBytes) = (encode(low), encode(high))
        for index in 1..<max(lowBytes.count, 1) {
            let mask: UInt32 = (1 << (6 * UInt32(index))) - 1
            guard low & ~mask != high & ~mask else { continue }
            if low & mask != 0 {
                split(low, low | mask, into: &sequences)
                split((low | mask) + 1, high, into: &sequences)
                return
            }
            if high & mask != mask {
                split(low, (high & ~mask) - 1, into: &sequences)
                split(high & ~mask, high, into: &sequences)
                return
            }
        }
        sequences.append(zip(lowBytes, highBytes).map { $0...$1 })
    }

    /// The UTF-8 bytes of a scalar value (not a surrogate: sets never hold one).
    static func encode(_ value: UInt32) -> [UInt8] {
        switch value {
        case 0..<0x80: [UInt8(value)]
        case 0x80..<0x800: [UInt8(0xC0 | value >> 6), UInt8(0x80 | value & 0x3F)]
        case 0x800..<0x1_0000:
            [UInt8(0xE0 | value >> 12), UInt8(0x80 | (value >> 6) & 0x3F), UInt8(0x80 | value & 0x3F)]
        default:
            [
                UInt8(0xF0 | value >> 18), UInt8(0x80 | (value >> 12) & 0x3F), UInt8(0x80 | (value >> 6) & 0x3F),
                UInt8(0x80 | value & 0x3F),
            ]
        }
    }
}
