/// Where each key is among the parents of a related-rows query: a related row finds its parents by its key.
///
/// Parents that share a key (the books of one author, looking up their author) are chained, so that a row goes to
/// each of them. A NULL key matches nothing.
@usableFromInline
struct ParentPositions {
    /// The first parent with each key.
    @usableFromInline let first: [SQLiteValue: Int]
    /// For each parent, the next parent with the same key, or -1.
    @usableFromInline let next: [Int]
    /// The distinct keys, NULL left out, in the parents' order.
    @usableFromInline let distinctKeys: [SQLiteValue]

    @usableFromInline init(_ keys: [SQLiteValue]) {
        var first: [SQLiteValue: Int] = [:]
        first.reserveCapacity(keys.count)
        // For the first parent of each key, the last parent of its chain.
        var last = [Int](repeating: -1, count: keys.count)
        var next = [Int](repeating: -1, count: keys.count)
        var distinct: [SQLiteValue] = []
        for (position, key) in keys.enumerated() where key != .null {
            if let head = first[key] {
                next[last[head]] = position
                last[head] = position
            } else {
                first[key] = position
                last[position] = position
                distinct.append(key)
            }
        }
        self.first = first
        self.next = next
        distinctKeys = distinct
    }

    /// Calls `body` with the position of each parent whose key is `key`, as SQLite compared them; returns `false`
    /// when none has it.
    ///
    /// SQLite compares a column and a key after converting them to the column's affinity, so a row's key may be
    /// the text `"1"` where the parent's is the integer 1: when no parent has the row's key as it is, its other
    /// forms are tried.
    @inlinable func forEach(matching key: SQLiteValue, _ body: (Int) throws -> Void) rethrows -> Bool {
        guard let head = first[key] ?? converted(key) else { return false }
        var position = head
        while position >= 0 {
            try body(position)
            position = next[position]
        }
        return true
    }

    /// The first parent whose key is `key` in another storage class: a number as text, text as a number.
    @usableFromInline func converted(_ key: SQLiteValue) -> Int? {
        switch key {
        case .integer(let value):
            return first[.real(Double(value))] ?? first[.text(String(value))]
        case .real(let value):
            if let exact = Int64(exactly: value), let position = first[.integer(exact)] { return position }
            return first[.text("\(value)")]
        case .text(let text):
            if let integer = Int64(text), let position = first[.integer(integer)] { return position }
            return Double(text).flatMap { first[.real($0)] }
        case .blob, .null:
            return nil
        }
    }
}

extension RawStatement {
    /// Keeps the value a model encodes for a column that the parameter map marks as captured (a parent's key,
    /// read by a related-rows query) instead of binding it.
    @usableFromInline func capture<Value: SQLiteValueConvertible>(_ value: Value) throws(SQLiteError) {
        capturedValue = try value.sqliteValue
    }
}
