/// The simulation of a ``MatchProgram``'s automaton over a text, one byte at a time, all threads in step
/// (Thompson's algorithm, as in a Pike VM without captures): at most one thread per instruction, so a byte
/// costs at most the program's size.
///
/// The lazy DFA builds its states with it, and hands a text over to it when its cache is full.
struct NFASimulation {
    /// Bytes or thread steps between two calls of the stop check.
    static let pollInterval = 1 << 16

    let program: MatchProgram
    /// The threads before the next byte: byte ranges, assertions not yet decided, and the match.
    private(set) var current: InstructionSet
    private var next: InstructionSet
    private var stack: [Int32] = []

    init(program: MatchProgram) {
        self.program = program
        current = InstructionSet(capacity: program.instructions.count)
        next = current
    }

    /// Where the text is: what the assertions need to know.
    struct Context {
        var atStart: Bool
        var previousIsWord: Bool
        var nextIsWord: Bool
        var atEnd: Bool

        func holds(_ assertion: PatternAssertion) -> Bool {
            switch assertion {
            case .textStart: atStart
            case .textEnd: atEnd
            case .wordBoundary: previousIsWord != nextIsWord
            case .notWordBoundary: previousIsWord == nextIsWord
            }
        }
    }

    /// Starts over with the threads `instructions` and what they reach through splits.
    mutating func load(_ instructions: some Sequence<Int32>) {
        current.clear()
        for instruction in instructions { current.addClosure(of: instruction, in: program.instructions, stack: &stack) }
    }

    /// Follows the assertions that hold in `context`; returns whether a thread reached the match.
    mutating func resolve(_ context: Context) -> Bool {
        var index = 0
        while index < current.count {
            let instruction = program.instructions[Int(current[index])]
            switch instruction.operation {
            case .match: return true
            case .assertion:
                if let assertion = instruction.assertion, context.holds(assertion) {
                    current.addClosure(of: instruction.next, in: program.instructions, stack: &stack)
                }
            case .byteRange, .split, .fail: break
            }
            index += 1
        }
        return false
    }

    /// Moves every thread that accepts `byte` past it; the others end.
    mutating func step(_ byte: UInt8) {
        next.clear()
        for index in 0..<current.count {
            let instruction = program.instructions[Int(current[index])]
            if instruction.operation == .byteRange && instruction.low <= byte && byte <= instruction.high {
                next.addClosure(of: instruction.next, in: program.instructions, stack: &stack)
            }
        }
        swap(&current, &next)
    }

    /// The threads that matter for what comes next (byte ranges, assertions, the match), sorted: the identity
    /// of a DFA state.
    func leaves() -> [Int32] {
        var leaves: [Int32] = []
        for index in 0..<current.count {
            let instruction = current[index]
            switch program.instructions[Int(instruction)].operation {
            case .byteRange, .assertion, .match: leaves.append(instruction)
            case .split, .fail: break
            }
        }
        return leaves.sorted()
    }

    /// Runs the loaded threads over `text` from `position`, as the DFA state with `flags` left them.
    ///
    /// - Throws: An ``ResultCode/interrupt`` error when `stopRequested` returns `true`.
    mutating func run(
        _ text: UnsafeBufferPointer<UInt8>, from position: Int, atStart: Bool, previousIsWord: Bool,
        stopRequested: () -> Bool
    ) throws(SQLiteError) -> Bool {
        var context = Context(atStart: atStart, previousIsWord: previousIsWord, nextIsWord: false, atEnd: false)
        var budget = Self.pollInterval
        for index in position..<text.count {
            let byte = text[index]
            context.nextIsWord = ScalarSet.isWordByte(byte)
            if resolve(context) { return true }
            step(byte)
            if current.count == 0 { return false }
            context.atStart = false
            context.previousIsWord = context.nextIsWord
            budget -= current.count + 1
            if budget <= 0 {
                budget = Self.pollInterval
                if stopRequested() { throw Self.interrupted }
            }
        }
        context.nextIsWord = false
        context.atEnd = true
        return resolve(context)
    }

    /// The error of a match stopped by its stop check.
    static let interrupted = SQLiteError(
        .sqlite, code: .interrupt, message: "interrupted while matching a regular expression")
}
