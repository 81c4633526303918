/// What the decoding and encoding states of ``CodableTableModel`` share: a statement keeps one of each from row
/// to row (``RawStatement/decodingState``, ``RawStatement/encodingState``), with the keyed container it handed out.
protocol StatementCodingState: AnyObject {
    /// The model the state serves.
    var modelID: ObjectIdentifier { get }
    /// Whether a decoding or encoding is using the state now.
    var isValid: Bool { get }
    /// Drops the cached container, which refers back to the state: the statement calls it when it lets go.
    func release()
}

extension StatementCodingState {
    /// The state in `slot` when it serves `model` and is idle; otherwise a new one from `make`, which takes the
    /// slot unless the state there is in use (a decoding inside another one on the same statement gets a state
    /// of its own, dropped after its row). `kept` says whether the slot holds the state returned.
    static func reusing(_ slot: inout Self?, model: ObjectIdentifier, make: () -> Self) -> (state: Self, kept: Bool) {
        if let cached = slot, cached.modelID == model, !cached.isValid { return (cached, true) }
        let state = make()
        if let previous = slot {
            guard !previous.isValid else { return (state, false) }
            previous.release()
        }
        slot = state
        return (state, true)
    }
}

/// The keyed container a coding state handed out, kept for the next row together with its key type.
///
/// The holder is a `CachedDecodingContainer<Key>` or `CachedEncodingContainer<Key>`; the key type is compared
/// before the caller downcasts it.
struct ContainerSlot {
    private var holder: AnyObject?
    private var key: ObjectIdentifier?

    /// The holder kept for `type`, if any.
    @inline(__always) func holder<Key>(for type: Key.Type) -> AnyObject? {
        key == ObjectIdentifier(type) ? holder : nil
    }

    /// Keeps `holder`, made for `type`.
    mutating func keep<Key>(_ holder: AnyObject, for type: Key.Type) {
        self.holder = holder
        key = ObjectIdentifier(type)
    }

    /// Forgets the holder.
    mutating func clear() {
        holder = nil
        key = nil
    }
}
