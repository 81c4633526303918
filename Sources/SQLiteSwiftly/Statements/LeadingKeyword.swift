/// What the first keyword of a statement's SQL says about it, for the checks a run makes before it starts.
@usableFromInline enum LeadingKeyword: UInt8 {
    /// Any other statement.
    case other
    /// `CREATE`, `DROP` or `ALTER`: a statement that may change the schema.
    case schema
    /// `COMMIT` or `END`: a statement that ends the transaction by committing it.
    case commit
    /// `ROLLBACK`: a statement that undoes the transaction or a savepoint, and may run after a cancellation.
    case rollback
}

extension String {
    /// What the SQL's first keyword, after blanks and comments, says about the statement. (`WITH` can begin
    /// none of them.) Runs at every compile, over the first bytes only.
    var leadingKeyword: LeadingKeyword {
        if let answer = utf8.withContiguousStorageIfAvailable(Self.leadingKeyword) { return answer }
        var text = self
        return text.withUTF8(Self.leadingKeyword)
    }

    private static func leadingKeyword(_ bytes: UnsafeBufferPointer<UInt8>) -> LeadingKeyword {
        // Most SQL starts with its keyword: a first letter that begins none of the keywords (SELECT, INSERT,
        // UPDATE, WITH, PRAGMA, BEGIN...) settles it without the scan.
        switch (bytes.first ?? 0) | 0x20 {
        // A letter other than a, c, d, e and r: no ALTER, CREATE, DROP, COMMIT, END or ROLLBACK.
        case 0x62, 0x66...0x71, 0x73...0x7A: return .other
        default: break
        }
        var index = 0
        func at(_ offset: Int) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                index += 1
            } else if byte == UInt8(ascii: "-") && at(1) == UInt8(ascii: "-") {
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
            } else if byte == UInt8(ascii: "/") && at(1) == UInt8(ascii: "*") {
                index += 2
                while index < bytes.count && !(bytes[index] == UInt8(ascii: "*") && at(1) == UInt8(ascii: "/")) {
                    index += 1
                }
                index += 2
            } else {
                break
            }
        }
        // The first word, upper-cased (ASCII letters only, with one bit), against the keywords.
        var word: UInt64 = 0
        var length = 0
        while index < bytes.count, length < 9, (bytes[index] | 0x20) >= 0x61, (bytes[index] | 0x20) <= 0x7A {
            word = word << 8 | UInt64(bytes[index] & ~0x20)
            index += 1
            length += 1
        }
        guard length < 9 else { return .other }  // eight letters at most fit the word, and ROLLBACK has eight
        let create: UInt64 = 0x43_52_45_41_54_45, drop: UInt64 = 0x44_52_4F_50, alter: UInt64 = 0x41_4C_54_45_52
        let commit: UInt64 = 0x43_4F_4D_4D_49_54, end: UInt64 = 0x45_4E_44
        let rollback: UInt64 = 0x52_4F_4C_4C_42_41_43_4B
        switch word {
        case create, drop, alter: return .schema
        case commit, end: return .commit
        case rollback: return .rollback
        default: return .other
        }
    }
}
