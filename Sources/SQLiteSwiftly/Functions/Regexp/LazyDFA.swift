/// A deterministic automaton over bytes built lazily from a ``MatchProgram``, one state and one transition at a
/// time as texts need them, with a bounded cache.
///
/// A state is a set of the simulation's threads (its leaves: byte ranges, undecided assertions, the match) and
/// what the assertions need to know about the byte before: whether it was the text's start and whether it was a
/// word character. Its transitions are a row of the table, one entry per byte class: the next state's row
/// offset, or ``unknown``, ``matched`` or ``dead``; the row's last entry says whether the state accepts the end
/// of the text (``matched`` or ``dead``, ``unknown`` until asked). A transition first decides the state's assertions knowing
/// the next byte, then moves the threads past it. A byte therefore costs one table read once its transition is
/// known, and at most one new state (a step of the simulation, bounded by the program's size) otherwise.
///
/// When the cache holds ``memoryLimit`` bytes, the rest of the text runs in the simulation from the current
/// state's threads, and the next text starts with an empty cache.
struct LazyDFA {
    static let unknown: Int32 = -1
    static let matched: Int32 = -2
    static let dead: Int32 = -3
    /// The default bound of a pattern's cache of states.
    static let defaultMemoryLimit = 1 << 20

    /// A state's identity: its sorted leaves, and the flags of the byte before.
    struct StateKey: Hashable {
        var flags: UInt8
        var leaves: [Int32]

        var atStart: Bool { flags & LazyDFA.atStartFlag != 0 }
        var previousIsWord: Bool { flags & LazyDFA.previousIsWordFlag != 0 }
    }

    static let atStartFlag: UInt8 = 1
    static let previousIsWordFlag: UInt8 = 2

    private var simulation: NFASimulation
    private let byteClasses: [UInt8]
    private let classCount: Int
    /// The length of a table row: an entry per byte class, and the answer at the end of the text.
    private let rowLength: Int
    private let memoryLimit: Int
    private var table: [Int32] = []
    private var states: [StateKey] = []
    private var offsets: [StateKey: Int32] = [:]
    private var memoryUsed = 0
    private var startState = unknown
    /// How many times the cache filled up, for tests.
    private(set) var fallbacks = 0

    init(program: MatchProgram, memoryLimit: Int = defaultMemoryLimit) {
        simulation = NFASimulation(program: program)
        byteClasses = program.byteClasses
        classCount = program.classCount
        rowLength = classCount + 1
        self.memoryLimit = memoryLimit
    }

    private var program: MatchProgram { simulation.program }

    /// Whether the pattern matches anywhere in `text`, which must be valid UTF-8.
    ///
    /// - Throws: An ``ResultCode/interrupt`` error when `stopRequested`, called every 65,536 bytes (or
    ///   simulation steps), returns `true`.
    mutating func matches(_ text: UnsafeBufferPointer<UInt8>, stopRequested: () -> Bool) throws(SQLiteError)
        -> Bool
    {
        if memoryUsed >= memoryLimit { reset() }
        if startState == Self.unknown { startState = addState(for: program.start) }
        var state = startState
        var position = 0
        let count = text.count
        while true {
            if state < 0 {
                if state == Self.unknown { return try handOver(text, at: position, stopRequested: stopRequested) }
                return state == Self.matched
            }
            let chunkEnd = min(count, position + NFASimulation.pollInterval)
            (state, position) = run(text, from: position, to: chunkEnd, in: state)
            if position == count { return acceptsAtEnd(state) }
            if position == chunkEnd {
                if stopRequested() { throw NFASimulation.interrupted }
                continue
            }
            // The transition is not a plain state: compute it, or it was decided (matched, dead).
            let byteClass = Int(byteClasses[Int(text[position])])
            var next = table[Int(state) + byteClass]
            if next == Self.unknown {
                next = transition(from: state, on: byteClass)
                if next == Self.unknown {
                    return try handOver(text, at: position, from: state, stopRequested: stopRequested)
                }
            }
            state = next
            position += 1
        }
    }

    /// The hot loop: follows known transitions from `position` until `end` or a transition that is not a state.
    private func run(_ text: UnsafeBufferPointer<UInt8>, from position: Int, to end: Int, in state: Int32)
        -> (Int32, Int)
    {
        table.withUnsafeBufferPointer { table in
            byteClasses.withUnsafeBufferPointer { classes in
                var state = state
                var position = position
                while position < end {
                    let next = table[Int(state) &+ Int(classes[Int(text[position])])]
                    if next < 0 { break }
                    state = next
                    position &+= 1
                }
                return (state, position)
            }
        }
    }

    /// Whether the state at row offset `state` accepts the end of the text.
    private mutating func acceptsAtEnd(_ state: Int32) -> Bool {
        let answer = table[Int(state) + classCount]
        if answer != Self.unknown { return answer == Self.matched }
        let key = states[Int(state) / rowLength]
        simulation.load(key.leaves)
        let context = NFASimulation.Context(
            atStart: key.atStart, previousIsWord: key.previousIsWord, nextIsWord: false, atEnd: true)
        let accepts = simulation.resolve(context)
        table[Int(state) + classCount] = accepts ? Self.matched : Self.dead
        return accepts
    }

    /// Computes and records the transition of the state at row offset `state` on a byte of `byteClass`.
    private mutating func transition(from state: Int32, on byteClass: Int) -> Int32 {
        let key = states[Int(state) / rowLength]
        let byte = program.representatives[byteClass]
        let isWord = ScalarSet.isWordByte(byte)
        simulation.load(key.leaves)
        let context = NFASimulation.Context(
            atStart: key.atStart, previousIsWord: key.previousIsWord, nextIsWord: isWord, atEnd: false)
        let next: Int32
        if simulation.resolve(context) {
            next = Self.matched
        } else {
            simulation.step(byte)
            let flags = program.hasWordAssertions && isWord ? Self.previousIsWordFlag : 0
            next = addState(StateKey(flags: flags, leaves: simulation.leaves()))
        }
        if next != Self.unknown { table[Int(state) + byteClass] = next }
        return next
    }

    /// The start state: the program's first instruction at the text's start.
    private mutating func addState(for start: Int32) -> Int32 {
        simulation.load([start])
        return addState(StateKey(flags: program.hasStartAssertion ? Self.atStartFlag : 0, leaves: simulation.leaves()))
    }

    /// The row offset of the state `key`, added if new; ``matched`` or ``dead`` for those; ``unknown`` when the
    /// cache is full.
    private mutating func addState(_ key: StateKey) -> Int32 {
        if key.leaves.isEmpty { return Self.dead }
        if key.leaves[0] == 0 { return Self.matched }  // instruction 0 is the match
        if let offset = offsets[key] { return offset }
        let cost = rowLength * 4 + key.leaves.count * 8 + 64
        guard memoryUsed + cost <= memoryLimit else {
            fallbacks += 1
            memoryUsed = memoryLimit
            return Self.unknown
        }
        memoryUsed += cost
        let offset = Int32(table.count)
        table.append(contentsOf: repeatElement(Self.unknown, count: rowLength))
        states.append(key)
        offsets[key] = offset
        return offset
    }

    /// Continues the match in the simulation from the state at row offset `state` (or from the start).
    private mutating func handOver(
        _ text: UnsafeBufferPointer<UInt8>, at position: Int, from state: Int32? = nil, stopRequested: () -> Bool
    ) throws(SQLiteError) -> Bool {
        guard let state else {
            simulation.load([program.start])
            return try simulation.run(
                text, from: position, atStart: true, previousIsWord: false, stopRequested: stopRequested)
        }
        let key = states[Int(state) / rowLength]
        simulation.load(key.leaves)
        return try simulation.run(
            text, from: position, atStart: key.atStart, previousIsWord: key.previousIsWord,
            stopRequested: stopRequested)
    }

    /// Empties the cache.
    private mutating func reset() {
        table.removeAll(keepingCapacity: false)
        states.removeAll()
        offsets.removeAll()
        memoryUsed = 0
        startState = Self.unknown
    }
}
