/// One instruction of a compiled pattern: a state of its automaton over UTF-8 bytes.
struct MatchInstruction {
    enum Operation: UInt8 {
        /// Consumes one byte in `low...high`, then goes to `next`.
        case byteRange
        /// Goes to both `next` and `alternative` without consuming anything.
        case split
        /// Goes to `next` without consuming anything, when the assertion numbered `low` holds.
        case assertion
        /// The pattern matched.
        case match
        /// Never goes anywhere: a set with no scalar (`[^\x{0}-\x{10FFFF}]`).
        case fail
    }

    var operation: Operation
    var low: UInt8 = 0
    var high: UInt8 = 0
    var next: Int32 = 0
    var alternative: Int32 = 0

    var assertion: PatternAssertion? { operation == .assertion ? PatternAssertion(rawValue: low) : nil }
}

/// A compiled pattern: the instructions of a non-deterministic automaton over UTF-8 bytes, as Thompson's
/// construction builds it, and the partition of byte values that the lazy DFA uses.
struct MatchProgram {
    var instructions: [MatchInstruction]
    /// The first instruction. Unless every match must start at the text's start, it is a loop that consumes any
    /// scalar, so that a match may start anywhere.
    var start: Int32
    /// Whether the program uses `\b` or `\B`, whose answer depends on the bytes on both sides.
    var hasWordAssertions: Bool
    /// Whether the program uses `^` (other than nowhere).
    var hasStartAssertion: Bool
    /// The class of each byte value: two bytes of one class take every instruction to the same place.
    var byteClasses: [UInt8] = []
    /// The number of classes.
    var classCount = 0
    /// One byte of each class.
    var representatives: [UInt8] = []

    init(instructions: [MatchInstruction], start: Int32) {
        self.instructions = instructions
        self.start = start
        let assertions = instructions.compactMap(\.assertion)
        hasWordAssertions = assertions.contains { $0 == .wordBoundary || $0 == .notWordBoundary }
        hasStartAssertion = assertions.contains(.textStart)
        computeByteClasses()
    }

    /// Splits the byte values at every range's bounds (and between word and non-word bytes when `\b` is used).
    private mutating func computeByteClasses() {
        var boundaries = [Bool](repeating: false, count: 257)
        for instruction in instructions where instruction.operation == .byteRange {
            boundaries[Int(instruction.low)] = true
            boundaries[Int(instruction.high) + 1] = true
        }
        if hasWordAssertions {
            for range: ClosedRange<Int> in [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A] {
                boundaries[range.lowerBound] = true
                boundaries[range.upperBound + 1] = true
            }
        }
        byteClasses = [UInt8](repeating: 0, count: 256)
        var current = -1
        for byte in 0..<256 {
            if boundaries[byte] || current < 0 {
                current += 1
                representatives.append(UInt8(byte))
            }
            byteClasses[byte] = UInt8(current)
        }
        classCount = current + 1
    }
}
