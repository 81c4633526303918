/// Finds parameter placeholders in SQL text and expands those bound to a ``ValueList``.
///
/// SQLite cannot bind a list to one placeholder, so `id IN (?)` with a three-element list becomes
/// `id IN (?, ?, ?)` before compiling. The scan skips string literals, quoted identifiers and comments, so a
/// `?` inside `'why?'` is left alone. Values are still bound, never spliced into the SQL.
enum SQLPlaceholders {
    struct Placeholder {
        var range: Range<Int>
        var text: String
    }

    /// The placeholders of `sql`, in order of appearance.
    static func scan(_ sql: String) -> [Placeholder] {
        let bytes = Array(sql.utf8)
        var found: [Placeholder] = []
        var index = 0
        func isWordByte(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }
        func skip(past closing: UInt8, from start: Int) -> Int {
            var position = start
            while position < bytes.count {
                if bytes[position] == closing {
                    // A doubled quote inside a quoted token stands for one quote.
                    if closing != UInt8(ascii: "]"), position + 1 < bytes.count, bytes[position + 1] == closing {
                        position += 2
                        continue
                    }
                    return position + 1
                }
                position += 1
            }
            return position
        }
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
                index = skip(past: byte, from: index + 1)
            case UInt8(ascii: "["):
                index = skip(past: UInt8(ascii: "]"), from: index + 1)
            case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
                index += 2
                while index < bytes.count
                    && !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count
                        && bytes[index + 1] == UInt8(ascii: "/"))
                {
                    index += 1
                }
                index = min(index + 2, bytes.count)
            case UInt8(ascii: "?"):
                var end = index + 1
                while end < bytes.count && bytes[end] >= UInt8(ascii: "0") && bytes[end] <= UInt8(ascii: "9") {
                    end += 1
                }
                found.append(Placeholder(range: index..<end, text: String(decoding: bytes[index..<end], as: UTF8.self)))
                index = end
            case UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "$"):
                guard isWordByte(next) && next != UInt8(ascii: "$") else {
                    index += 1
                    continue
                }
                var end = index + 1
                while end < bytes.count && isWordByte(bytes[end]) && bytes[end] != UInt8(ascii: "$") { end += 1 }
                found.append(Placeholder(range: index..<end, text: String(decoding: bytes[index..<end], as: UTF8.self)))
                index = end
            default:
                if isWordByte(byte) {
                    while index < bytes.count && isWordByte(bytes[index]) { index += 1 }
                } else {
                    index += 1
                }
            }
        }
        return found
    }

    /// Rewrites `sql` so that each ``ValueList`` argument has one placeholder per element, and flattens the
    /// arguments to match. Returns the input unchanged when no argument is a list.
    static func expand(_ sql: String, _ arguments: StatementArguments) throws(SQLiteError) -> (
        String, StatementArguments
    ) {
        guard arguments.containsList else { return (sql, arguments) }
        let placeholders = scan(sql)
        var replacements: [(Range<Int>, String)] = []
        var result: StatementArguments
        switch arguments.storage {
        case .positional(let values):
            guard placeholders.allSatisfy({ $0.text == "?" }) else {
                throw SQLiteError(
                    .parameterMismatch,
                    message: "a ValueList needs plain ? placeholders when the arguments are positional", sql: sql)
            }
            guard placeholders.count == values.count else {
                throw SQLiteError(
                    .parameterMismatch,
                    message: "the SQL has \(placeholders.count) parameters but \(values.count) arguments were given",
                    sql: sql)
            }
            var flat: [StatementArguments.Argument] = []
            for (placeholder, value) in zip(placeholders, values) {
                if case .list(let items) = value {
                    replacements.append(
                        (placeholder.range, Array(repeating: "?", count: items.count).joined(separator: ", ")))
                    flat += items.map { .value($0) }
                } else {
                    flat.append(value)
                }
            }
            result = StatementArguments(positional: flat)
        case .named(var values):
            var expanded = Set<String>()
            for placeholder in placeholders where placeholder.text.count > 1 && placeholder.text.first != "?" {
                let bare = String(placeholder.text.dropFirst())
                let key = values[placeholder.text] != nil ? placeholder.text : bare
                guard case .list(let items) = values[key] else { continue }
                let names = items.indices.map { "\(placeholder.text)__\($0 + 1)" }
                replacements.append((placeholder.range, names.joined(separator: ", ")))
                for (name, item) in zip(names, items) { values[name] = .value(item) }
                expanded.insert(key)
            }
            // A list that matched no placeholder stays, so that binding reports it as an extra argument.
            for key in expanded { values[key] = nil }
            result = StatementArguments(positional: [])
            result.storage = .named(values)
        }
        var bytes = Array(sql.utf8)
        for (range, text) in replacements.reversed() {
            bytes.replaceSubrange(range, with: Array(text.utf8))
        }
        return (String(decoding: bytes, as: UTF8.self), result)
    }
}
