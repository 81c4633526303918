/// A joined row type: the members it reads, for its layout.
@usableFromInline
protocol JoinedRowProtocol: RowDecodable {
    /// The members' types, in the tuple's order.
    static var memberTypes: [any JoinedRowMember.Type] { get }
}

/// The row type behind a tuple of members: each of its rows is decoded member by member, through the statement's
/// ``JoinedLayout``, so that the library's row loop, cursors and observations read tuples as they read any row
/// type.
///
/// It reads the statement's columns as they come (no ``RowDecodable/expectedColumnNames``); its members find their
/// own columns through the layout, which the statement makes at the first row of each run (and before the run,
/// where the caller can, so that a mismatch fails before any row is read).
@usableFromInline
struct JoinedRow<First: JoinedRowMember, Second: JoinedRowMember, each Other: JoinedRowMember>: JoinedRowProtocol {
    @usableFromInline let members: (First, Second, repeat each Other)

    @inlinable init(row: borrowing Row) throws {
        let raw = row.raw
        let number = row.number
        let layout = try raw.joinedLayout(for: Self.self, atRow: number)
        var index = 1
        func other<Member: JoinedRowMember>(_ type: Member.Type) throws -> Member {
            index += 1
            return try layout.member(type, index, raw: raw, number: number)
        }
        members = (
            try layout.member(First.self, 0, raw: raw, number: number),
            try layout.member(Second.self, 1, raw: raw, number: number),
            repeat try other((each Other).self)
        )
    }

    @usableFromInline static var memberTypes: [any JoinedRowMember.Type] {
        var types: [any JoinedRowMember.Type] = [First.self, Second.self]
        for type in repeat (each Other).self { types.append(type) }
        return types
    }
}
