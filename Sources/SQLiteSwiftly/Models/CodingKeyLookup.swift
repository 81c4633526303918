/// Finds the column of a coding key for ``CodableTableModel``, without hashing and without searching on the
/// common path.
///
/// Two guesses come before any search:
/// - **The plan.** A decoding records the columns its keys asked for, in the order they asked. The next row of
///   the same statement usually asks for the same keys in the same order, so request `n` is checked against
///   the `n`th recorded key (by its one-byte tag for enum keys, else by name) and gets its column without a
///   search. A key that differs from the plan (a custom `init(from:)` that skips a key on
///   some rows) is searched for, and the plan resumes after it when it finds it there.
/// - **Column order**, when there is no plan yet (the first row, and every encoding): synthesized `Codable` code
///   visits the properties in declaration order, which is usually the column order, so the column after the
///   last one found is tried first.
///
/// Only when both fail are the columns searched, exactly and then ignoring ASCII case.
struct CodingKeyLookup {
    let columns: [Column]
    /// The column names, compared without copying a ``Column``.
    let names: [String]
    /// The column expected for the next key, by column order.
    var next = 0
    /// The keys asked for by the first decoding, in order.
    private var plan: [PlanStep] = []
    /// The position in the plan of the next request.
    var step = 0
    /// Whether the plan is being recorded (the first decoding).
    var isRecording: Bool

    /// A lookup over `columns`; with `recordingPlan`, the first row's keys become the plan of the next rows.
    init(columns: [Column], recordingPlan: Bool) {
        self.columns = columns
        names = columns.map(\.name)
        isRecording = recordingPlan
    }

    /// Forgets a plan still being recorded, after a row that failed part-way: the next row records it again, whole.
    mutating func forgetUnfinishedPlan() {
        guard isRecording else { return }
        plan.removeAll()
        step = 0
    }

    /// Starts a row: the next request is the plan's first.
    mutating func rewind() {
        if isRecording && !plan.isEmpty { isRecording = false }
        step = 0
        next = 0
    }

    /// A key's identity without its `stringValue`, when its type is at most one byte (every synthesized
    /// `CodingKeys` enum with up to 256 cases): the byte, which tells the cases apart. `-1` for larger key types,
    /// which are compared by name.
    ///
    /// A key's name is a function of the key, so two keys of one type with the same byte have the same name.
    @inline(__always) static func tag<Key: CodingKey>(of key: Key) -> Int16 {
        switch MemoryLayout<Key>.size {
        case 0: return 0
        case 1: return Int16(unsafeBitCast(key, to: UInt8.self))  // the sizes match: checked just above
        default: return -1
        }
    }

    /// The index of the column named like `key`, or `nil`.
    @inline(__always) mutating func index<Key: CodingKey>(of key: Key) -> Int? {
        let step = self.step
        // The plan's fields are read in place: copying a step would retain its key.
        if step < plan.count && plan[step].type == ObjectIdentifier(Key.self) {
            let tag = Self.tag(of: key)
            if tag >= 0 ? plan[step].tag == tag : plan[step].key == key.stringValue {
                self.step = step + 1
                return plan[step].column
            }
        }
        return index(missingPlan: key)
    }

    private mutating func index<Key: CodingKey>(missingPlan key: Key) -> Int? {
        let name = key.stringValue
        let found: Int?
        if next < names.count && names[next] == name { found = next } else { found = search(name) }
        guard let found else { return nil }
        next = found + 1
        if isRecording {
            plan.append(PlanStep(type: ObjectIdentifier(Key.self), tag: Self.tag(of: key), key: name, column: found))
            step = plan.count
        } else if let resumed = plan[min(step, plan.count)...].firstIndex(where: { $0.key == name }) {
            step = resumed + 1
        }
        return found
    }

    /// Two keys of the plan being recorded that found the same column (names that differ only in case): two
    /// properties would read one column. `nil` when each column has one key.
    func keysSharingColumn() -> (first: String, second: String, column: String)? {
        for (position, step) in plan.enumerated() {
            if let other = plan[..<position].first(where: { $0.column == step.column }), other.key != step.key {
                return (other.key, step.key, names[step.column])
            }
        }
        return nil
    }

    /// The index of the column named like `key`, without moving the guesses.
    func peek(_ key: some CodingKey) -> Int? {
        let name = key.stringValue
        if step < plan.count && plan[step].key == name && plan[step].type == ObjectIdentifier(type(of: key)) {
            return plan[step].column
        }
        if next < names.count && names[next] == name { return next }
        return search(name)
    }

    private func search(_ name: String) -> Int? {
        if let exact = names.firstIndex(of: name) { return exact }
        let lowered = name.sqlIdentifierKey
        return names.firstIndex { $0.sqlIdentifierKey == lowered }
    }
}

/// One key of a ``CodingKeyLookup``'s plan: its type, its tag (see ``CodingKeyLookup/tag(of:)``), its name, and
/// its column.
struct PlanStep {
    let type: ObjectIdentifier
    let tag: Int16
    let key: String
    let column: Int
}

/// Thrown inside the library when a value needs keyed or unkeyed containers, so is stored as JSON.
struct NeedsJSON: Error {}
