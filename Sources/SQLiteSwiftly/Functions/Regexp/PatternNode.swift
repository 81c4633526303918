/// A parsed REGEXP pattern: the tree that ``PatternParser`` builds and ``ProgramCompiler`` compiles.
indirect enum PatternNode: Equatable {
    /// Matches the empty text: an empty pattern, branch or group.
    case empty
    /// Matches one scalar of the set.
    case scalars(ScalarSet)
    /// Matches the empty text where the condition holds.
    case assertion(PatternAssertion)
    /// Matches each part in turn.
    case sequence([PatternNode])
    /// Matches any one of the branches.
    case alternatives([PatternNode])
    /// Matches the node `minimum` to `maximum` times (`nil`: no upper bound).
    case repetition(PatternNode, minimum: Int, maximum: Int?)

    /// Whether every match must begin at the start of the text (each branch starts with `^`), so that the
    /// search need not try later positions.
    var isAnchoredAtStart: Bool {
        switch self {
        case .assertion(let assertion): assertion == .textStart
        case .sequence(let parts): parts.first?.isAnchoredAtStart ?? false
        case .alternatives(let branches): branches.allSatisfy(\.isAnchoredAtStart)
        case .repetition(let node, let minimum, _): minimum > 0 && node.isAnchoredAtStart
        case .empty, .scalars: false
        }
    }
}

/// A condition on the position between two characters.
enum PatternAssertion: UInt8, Equatable {
    /// `^`: the start of the text.
    case textStart
    /// `$`: the end of the text.
    case textEnd
    /// `\b`: a word character on one side and not on the other (the text's ends count as non-word).
    case wordBoundary
    /// `\B`: the same on both sides.
    case notWordBoundary
}
