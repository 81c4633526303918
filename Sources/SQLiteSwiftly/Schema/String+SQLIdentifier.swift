extension String {
    /// The string with ASCII letters lowercased and every other character kept: how SQLite folds the case of
    /// identifiers (table and column names), so that `"Name"` and `"name"` are one column but `"Ä"` and `"ä"`
    /// are two. Compare identifiers with this, not with `lowercased()`, which folds every script.
    var sqlIdentifierKey: String {
        guard utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return self }
        return String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}

extension String {
    /// The string as a quoted SQL identifier: `my "table"` becomes `"my ""table"""`.
    var quotedSQLIdentifier: String {
        var quoted = "\""
        for character in self {
            quoted.append(character)
            if character == "\"" { quoted.append(character) }
        }
        quoted.append("\"")
        return quoted
    }
}
