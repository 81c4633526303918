import CSQLiteSwiftly

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The column names of the last result a connection read as ``UntypedRow``s, lent to the next result that has
/// the same names.
///
/// A query console or a test runner sends many different statements that return the same columns. Making the
/// names of a result costs a `String` per column and an array; comparing SQLite's names with the bytes kept
/// here costs a fraction of that. The kept bytes are SQLite's own, before any repair of invalid UTF-8, so equal
/// bytes give equal strings.
///
/// One per connection, used only by its statements, so never from two threads at once.
final class ColumnNameCache {
    /// The names lent out, in column order.
    private var names: [String] = []
    /// The names as SQLite gave them, each followed by its NUL.
    private var bytes: [UInt8] = []

    /// The names of the columns of `row`: the kept array when SQLite names them the same.
    func names(of row: borrowing Row) -> [String] {
        let count = row.count
        if count == names.count && namesMatch(row, count: count) { return names }
        var names: [String] = []
        var bytes: [UInt8] = []
        var complete = true
        names.reserveCapacity(count)
        for index in 0..<count {
            // A name SQLite cannot give (out of memory) reads as "", and the names are not kept.
            guard let cName = row.rawColumnName(at: index) else {
                names.append("")
                complete = false
                continue
            }
            names.append(String(cString: cName))
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: cName, count: strlen(cName) + 1))
        }
        self.names = complete ? names : []
        self.bytes = complete ? bytes : []
        return names
    }

    /// Whether SQLite's names for the `count` columns of `row` are the kept bytes, in order.
    private func namesMatch(_ row: borrowing Row, count: Int) -> Bool {
        bytes.withUnsafeBytes { kept in
            var offset = 0
            for index in 0..<count {
                guard let name = row.rawColumnName(at: index) else { return false }
                let length = strlen(name) + 1  // with its NUL, so that "a" does not match "ab"
                guard length <= kept.count - offset, let start = kept.baseAddress,
                    memcmp(name, start + offset, length) == 0
                else { return false }
                offset += length
            }
            return offset == kept.count
        }
    }
}
