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
        members = try Self.decode(row)
    }

    /// Decodes the members of `row`: the tuple the caller asked for, made without a `JoinedRow` around it.
    @inlinable @inline(__always) static func decode(_ row: borrowing Row) throws -> (First, Second, repeat each Other) {
        // The statement outlives the row, which borrows it: no retain is needed to reach it.
        let layout = try Unmanaged.passUnretained(row.raw)._withUnsafeGuaranteedRef { raw in
            try raw.joinedLayout(for: Self.self, atRow: row.number)
        }
        var index = 1
        return (
            try row.member(First.self, 0, layout: layout),
            try row.member(Second.self, 1, layout: layout),
            repeat try row.member((each Other).self, Self.advance(&index), layout: layout)
        )
    }

    /// The index of the next member after `index`.
    @inlinable static func advance(_ index: inout Int) -> Int {
        index += 1
        return index
    }

    @usableFromInline static var memberTypes: [any JoinedRowMember.Type] {
        var types: [any JoinedRowMember.Type] = [First.self, Second.self]
        for type in repeat (each Other).self { types.append(type) }
        return types
    }
}
