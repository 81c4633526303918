/// Compiles a ``PatternNode`` into a ``MatchProgram`` (Thompson's construction, built from the end backwards:
/// each node is compiled knowing where it continues).
struct ProgramCompiler {
    /// The most instructions a pattern may compile to. A counted repetition copies what it repeats, so a small
    /// pattern can ask for many (`(.{100}){100}`); the cap bounds the work per byte of the simulation and per
    /// new state of the DFA.
    static let maximumSize = 10_000

    private var instructions = [MatchInstruction(operation: .match)]

    /// Compiles `node`.
    ///
    /// - Throws: ``SQLiteError/Kind/functionFailed`` when the program would be larger than ``maximumSize``.
    static func compile(_ node: PatternNode) throws(SQLiteError) -> MatchProgram {
        guard weight(of: node) <= maximumSize else {
            throw SQLiteError(
                .functionFailed,
                message: "the pattern is too large: it compiles to more than \(maximumSize) instructions "
                    + "(a repetition such as {m,n} copies what it repeats n times)")
        }
        var compiler = ProgramCompiler()
        var start = compiler.emit(node, next: 0)
        if !node.isAnchoredAtStart {
            // A loop over any scalar before the pattern lets a match start at any scalar boundary.
            let loop = compiler.append(MatchInstruction(operation: .split))
            let anyScalar = compiler.emit(.scalars(.all), next: loop)
            compiler.instructions[Int(loop)] = MatchInstruction(
                operation: .split, next: start, alternative: anyScalar)
            start = loop
        }
        return MatchProgram(instructions: compiler.instructions, start: start)
    }

    /// An upper bound of the number of instructions `node` compiles to, saturated above ``maximumSize``. An
    /// empty node weighs one, so that repeating it many times is refused too.
    private static func weight(of node: PatternNode) -> Int {
        let limit = maximumSize + 1
        switch node {
        case .empty, .assertion: return 1
        case .scalars(let set):
            let sequences = UTF8Sequences.of(set)
            return sequences.isEmpty ? 1 : min(sequences.reduce(sequences.count - 1) { $0 + $1.count }, limit)
        case .sequence(let parts):
            return parts.reduce(0) { min($0 + weight(of: $1), limit) }
        case .alternatives(let branches):
            return branches.reduce(branches.count - 1) { min($0 + weight(of: $1), limit) }
        case .repetition(let node, let minimum, let maximum):
            let (copies, splits) = maximum.map { ($0, $0 - minimum) } ?? (max(minimum, 1), 1)
            let (total, overflow) = weight(of: node).multipliedReportingOverflow(by: copies)
            return overflow ? limit : min(total + splits, limit)
        }
    }

    private mutating func append(_ instruction: MatchInstruction) -> Int32 {
        instructions.append(instruction)
        return Int32(instructions.count - 1)
    }

    private mutating func split(_ first: Int32, _ second: Int32) -> Int32 {
        append(MatchInstruction(operation: .split, next: first, alternative: second))
    }

    /// Compiles `node` to continue at `next`, and returns its entry.
    private mutating func emit(_ node: PatternNode, next: Int32) -> Int32 {
        switch node {
        case .empty: return next
        case .scalars(let set): return emit(set, next: next)
        case .assertion(let assertion):
            return append(MatchInstruction(operation: .assertion, low: assertion.rawValue, next: next))
        case .sequence(let parts):
            return parts.reversed().reduce(next) { emit($1, next: $0) }
        case .alternatives(let branches):
            let entries = branches.map { emit($0, next: next) }
            return entries.dropLast().reversed().reduce(entries[entries.count - 1]) { split($1, $0) }
        case .repetition(let node, let minimum, let maximum):
            var entry = next
            var mandatory = minimum
            if let maximum {
                for _ in minimum..<maximum { entry = split(emit(node, next: entry), next) }
            } else {
                // One copy serves both the last mandatory pass and the loop (x+ is x looping back).
                let loop = append(MatchInstruction(operation: .split))
                let body = emit(node, next: loop)
                instructions[Int(loop)] = MatchInstruction(operation: .split, next: body, alternative: next)
                entry = minimum > 0 ? body : loop
                mandatory = max(minimum - 1, 0)
            }
            for _ in 0..<mandatory { entry = emit(node, next: entry) }
            return entry
        }
    }

    /// Compiles a set of scalars: one byte-range chain per UTF-8 sequence, sharing common suffixes.
    private mutating func emit(_ set: ScalarSet, next: Int32) -> Int32 {
        var shared: [UInt64: Int32] = [:]
        var entries: [Int32] = []
        for sequence in UTF8Sequences.of(set) {
            var target = next
            for range in sequence.reversed() {
                let key = UInt64(range.lowerBound) << 40 | UInt64(range.upperBound) << 32 | UInt64(UInt32(target))
                if let existing = shared[key] {
                    target = existing
                } else {
                    target = append(
                        MatchInstruction(
                            operation: .byteRange, low: range.lowerBound, high: range.upperBound, next: target))
                    shared[key] = target
                }
            }
            entries.append(target)
        }
        guard let last = entries.last else { return append(MatchInstruction(operation: .fail)) }
        return entries.dropLast().reversed().reduce(last) { split($1, $0) }
    }
}
