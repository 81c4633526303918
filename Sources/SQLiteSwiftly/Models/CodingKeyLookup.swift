/// Finds the column of a coding key for ``CodableTableModel``, expecting keys in column order.
///
/// Synthesized `Codable` code visits the properties in declaration order, which is usually the column order:
/// the lookup first checks the column after the last one found (one comparison of two short strings), and
/// only searches all columns, exactly and then ignoring ASCII case, when that guess fails.
struct CodingKeyLookup {
    let columns: [Column]
    /// The column expected for the next key.
    var next = 0

    init(columns: [Column]) {
        self.columns = columns
    }

    /// The index of the column named like `key`, or `nil`.
    mutating func index(of key: some CodingKey) -> Int? {
        let name = key.stringValue
        if next < columns.count && columns[next].name == name {
            next += 1
            return next - 1
        }
        guard let found = search(name) else { return nil }
        next = found + 1
        return found
    }

    /// The index of the column named like `key`, without moving the guess.
    func peek(_ key: some CodingKey) -> Int? {
        let name = key.stringValue
        if next < columns.count && columns[next].name == name { return next }
        return search(name)
    }

    private func search(_ name: String) -> Int? {
        if let exact = columns.firstIndex(where: { $0.name == name }) { return exact }
        let lowered = name.sqlIdentifierKey
        return columns.firstIndex { $0.name.sqlIdentifierKey == lowered }
    }
}

/// Thrown inside the library when a value needs keyed or unkeyed containers, so is stored as JSON.
struct NeedsJSON: Error {}
