/// The tables a changeset or patchset changes, read from its bytes in one pass that also proves them well formed.
///
/// SQLite's own reader checks the bytes too, but two things it does are not what the library promises: it applies
/// a changeset for a table that does not exist, or whose columns or primary key differ, by skipping that table's
/// changes silently (it only logs); and it reads a patchset where a changeset was declared. So before a changeset
/// is inverted, applied or read, this walks it by the format documented in SQLite's `sqlite3session.c`:
///
/// - a table header: `T` (changeset) or `P` (patchset), the column count (a varint), one primary-key byte per
///   column (0, or the column's place in the key), the table name and a NUL;
/// - then its changes: an operation byte (`SQLITE_INSERT` 18, `SQLITE_UPDATE` 23, `SQLITE_DELETE` 9), an
///   "indirect" byte, and one record per image: an INSERT has the new row, a DELETE the old one (in a patchset,
///   its primary-key fields only), an UPDATE the old and then the new row (in a patchset, one record);
/// - each field of a record: a type byte, 0 (undefined) and 5 (NULL) alone, 1 (integer) and 2 (real) followed by
///   8 bytes, 3 (text) and 4 (blob) followed by a varint length and that many bytes.
///
/// Anything else (a byte past the end, an unknown type or operation, a header of the other format) is
/// ``SQLiteError/Kind/invalidChangeset`` naming the offset. The walk reads each byte once and allocates only the
/// table list.
struct ChangesetLayout {
    /// One table as the changeset describes it. A table that appears in several sections is listed once.
    struct Table {
        var name: String
        /// The number of columns the changeset has for it.
        var columnCount: Int
        /// Per column, 0 or its 1-based place in the primary key, as SQLite writes it.
        var primaryKey: [UInt8]
        /// The kinds of change made to it.
        var kinds: DatabaseChange.Kinds
    }

    /// The tables, in the order they first appear.
    private(set) var tables: [Table] = []
    /// The number of changes, not counting UPDATEs that change no column (SQLite skips those when applying).
    private(set) var changeCount = 0

    /// Walks `bytes`, which must hold a changeset, or a patchset when `patchset` is true.
    ///
    /// - Throws: ``SQLiteError/Kind/invalidChangeset`` for bytes that are not one.
    init(scanning bytes: UnsafeRawBufferPointer, patchset: Bool) throws(SQLiteError) {
        var reader = Reader(bytes: bytes)
        var positions: [String: Int] = [:]
        while !reader.isAtEnd {
            let header = try reader.byte()
            guard header == (patchset ? 0x50 : 0x54) else {
                let other = header == (patchset ? 0x54 : 0x50)
                throw other
                    ? reader.invalid(
                        patchset
                            ? "a changeset where a patchset was expected"
                            : "a patchset where a changeset was expected (a patchset cannot be inverted; read it with "
                                + "Patchset)")
                    : reader.invalid("byte \(header) where a table header ('T' or 'P') was expected")
            }
            let columns = try reader.varint()
            guard columns >= 1 && columns <= 65_536 else { throw reader.invalid("a table of \(columns) columns") }
            let primaryKey = Array(try reader.bytes(Int(columns)))
            let name = try reader.name()
            let keyFields = primaryKey.reduce(0) { $0 + ($1 == 0 ? 0 : 1) }
            let index: Int
            if let known = positions[name.sqlIdentifierKey] {
                index = known
                guard tables[index].columnCount == Int(columns), tables[index].primaryKey == primaryKey else {
                    throw reader.invalid("table \"\(name)\" appears twice with different columns")
                }
            } else {
                index = tables.count
                positions[name.sqlIdentifierKey] = index
                tables.append(Table(name: name, columnCount: Int(columns), primaryKey: primaryKey, kinds: []))
            }
            var kinds: DatabaseChange.Kinds = []
            while let operation = reader.peek(), operation != 0x50 && operation != 0x54 {
                let (kind, counts) = try Self.scanChange(
                    &reader, columns: Int(columns), keyFields: keyFields, patchset: patchset)
                kinds.insert(kind)
                if counts { changeCount += 1 }
            }
            tables[index].kinds.formUnion(kinds)
        }
    }

    /// Reads one change: returns its kind, and whether SQLite applies it (an UPDATE without new values it skips).
    private static func scanChange(
        _ reader: inout Reader, columns: Int, keyFields: Int, patchset: Bool
    ) throws(SQLiteError) -> (DatabaseChange.Kinds, Bool) {
        let operation = try reader.byte()
        _ = try reader.byte()  // the indirect flag: any value
        switch operation {
        case 18:
            _ = try reader.record(columns)
            return (.insert, true)
        case 9:
            _ = try reader.record(patchset ? keyFields : columns)
            return (.delete, true)
        case 23:
            if patchset { return (.update, try reader.record(columns)) }
            _ = try reader.record(columns)
            return (.update, try reader.record(columns))
        default:
            throw reader.invalid("byte \(operation) where an operation (INSERT, UPDATE or DELETE) was expected")
        }
    }
}

/// A cursor over the bytes that throws instead of reading past the end.
private struct Reader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    var isAtEnd: Bool { offset >= bytes.count }

    func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    /// The error for bytes that are not a changeset, saying what was found at `position` (the cursor's offset by
    /// default).
    func invalid(_ what: String, at position: Int? = nil) -> SQLiteError {
        SQLiteError(
            .invalidChangeset, code: .corrupt,
            message: "the bytes are not a valid changeset: \(what) at byte \(position ?? offset) of \(bytes.count)")
    }

    mutating func byte() throws(SQLiteError) -> UInt8 {
        guard offset < bytes.count else { throw invalid("the end of the bytes, cut short,") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func bytes(_ count: Int) throws(SQLiteError) -> UnsafeRawBufferPointer.SubSequence {
        guard count <= bytes.count - offset else { throw invalid("the end of the bytes, cut short,") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// SQLite's variable-length integer: up to eight bytes of 7 bits, high bit set on all but the last, or a
    /// ninth byte of 8 bits.
    mutating func varint() throws(SQLiteError) -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 {
            let byte = try byte()
            value = (value << 7) | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return value }
        }
        return (value << 8) | UInt64(try byte())
    }

    /// A NUL-terminated UTF-8 table name.
    mutating func name() throws(SQLiteError) -> String {
        let start = offset
        guard let end = bytes[start...].firstIndex(of: 0) else { throw invalid("a table name without its end") }
        offset = end + 1
        guard end > start, let name = String(validating: bytes[start..<end], as: UTF8.self) else {
            throw invalid("a table name that is empty or not UTF-8")
        }
        return name
    }

    /// Skips a record of `fields` fields; returns whether any field is defined (not type 0).
    ///
    /// The loop every change of an application pays for: it reads each type byte once and checks each value's
    /// length against the end before skipping it, with the offset in a local.
    mutating func record(_ fields: Int) throws(SQLiteError) -> Bool {
        var defined = false
        var at = offset
        let end = bytes.count
        defer { offset = at }
        for _ in 0..<fields {
            guard at < end else { throw invalid("the end of the bytes, cut short,", at: at) }
            let type = bytes[at]
            at += 1
            switch type {
            case 0: continue
            case 5: break
            case 1, 2:
                guard end - at >= 8 else { throw invalid("the end of the bytes, cut short,", at: end) }
                at += 8
            case 3, 4:
                guard at < end else { throw invalid("the end of the bytes, cut short,", at: at) }
                var length = UInt64(bytes[at])
                if length < 0x80 {
                    at += 1  // the usual one-byte length
                } else {
                    offset = at
                    length = try varint()
                    at = offset
                }
                guard length <= UInt64(end - at) else { throw invalid("a value longer than the bytes", at: at) }
                at += Int(length)
            default: throw invalid("value type \(type)", at: at - 1)
            }
            defined = true
        }
        return defined
    }
}
