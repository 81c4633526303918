/// A set of instruction indices with constant-time insertion, membership test and clearing, in insertion order
/// (Briggs and Torczon's sparse set): the threads of the simulation at one position of the text.
struct InstructionSet {
    /// The members in insertion order, in `dense[0..<count]`.
    private(set) var dense: [Int32]
    /// Where each member is in `dense`; entries of non-members hold anything.
    private var sparse: [Int32]
    private(set) var count = 0

    init(capacity: Int) {
        dense = [Int32](repeating: 0, count: capacity)
        sparse = dense
    }

    subscript(index: Int) -> Int32 { dense[index] }

    func contains(_ instruction: Int32) -> Bool {
        let index = Int(sparse[Int(instruction)])
        return index < count && dense[index] == instruction
    }

    mutating func clear() {
        count = 0
    }

    /// Adds `start` and every instruction it reaches through splits; stops at the others.
    mutating func addClosure(of start: Int32, in instructions: [MatchInstruction], stack: inout [Int32]) {
        stack.append(start)
        while let instruction = stack.popLast() {
            guard !contains(instruction) else { continue }
            dense[count] = instruction
            sparse[Int(instruction)] = Int32(count)
            count += 1
            let step = instructions[Int(instruction)]
            if step.operation == .split {
                stack.append(step.alternative)
                stack.append(step.next)
            }
        }
    }
}
