import CSQLiteSwiftly

/// The column maps of a joined row type on one statement: for each member, the result position of each column
/// it reads, and the positions whose all being NULL means the member's row is absent.
///
/// A statement keeps the layout of the last joined row type it read (``RawStatement/joinedLayout``), made once
/// per type and re-prepare, as it keeps the column map of a single row type. A member's ``Row`` reads through its
/// part of ``storage``, so a joined row costs the same column reads as its members read one by one.
@usableFromInline
final class JoinedLayout {
    /// Where a member's map and key positions are in ``storage``.
    @usableFromInline struct Entry {
        @usableFromInline let offset: Int
        @usableFromInline let count: Int32
        @usableFromInline let keyOffset: Int
        @usableFromInline let keyCount: Int
    }

    /// The joined row type the layout was made for.
    @usableFromInline let type: ObjectIdentifier
    /// The statement's re-prepare count when it was made: a re-prepared `SELECT *` may return other columns.
    @usableFromInline let reprepares: Int32
    /// Every member's column map, one after the other, then every member's key positions.
    @usableFromInline let storage: UnsafeMutablePointer<Int32>
    /// One entry per member, in the tuple's order.
    @usableFromInline let members: [Entry]

    init(type: ObjectIdentifier, reprepares: Int32, assignment: JoinedColumnAssignment) {
        self.type = type
        self.reprepares = reprepares
        let maps = assignment.positions
        let keys = assignment.keyPositions
        let total = maps.reduce(0) { $0 + $1.count } + keys.reduce(0) { $0 + $1.count }
        storage = .allocate(capacity: max(total, 1))
        var entries: [Entry] = []
        var next = 0
        for map in maps {
            (storage + next).initialize(from: map, count: map.count)
            entries.append(Entry(offset: next, count: Int32(map.count), keyOffset: 0, keyCount: 0))
            next += map.count
        }
        for (member, key) in keys.enumerated() {
            (storage + next).initialize(from: key, count: key.count)
            let entry = entries[member]
            entries[member] = Entry(offset: entry.offset, count: entry.count, keyOffset: next, keyCount: key.count)
            next += key.count
        }
        members = entries
    }

    deinit {
        storage.deallocate()
    }

    /// Decodes member `index` of the current row of `raw`.
    @inlinable @inline(__always)
    func member<Member: JoinedRowMember>(_ type: Member.Type, _ index: Int, raw: RawStatement, number: Int) throws
        -> Member
    {
        let entry = members[index]
        let isAbsent = Member.isOptionalMember && isAbsent(entry, raw.handle)
        do {
            return try Member.decodeMember(
                from: Row(raw: raw, number: number, columnMap: storage + entry.offset, columnCount: entry.count),
                isAbsent: isAbsent)
        } catch {
            throw explained(error, member: type, entry: entry, raw: raw)
        }
    }

    /// Whether every key column of a member holds NULL: its joined row is absent.
    @inlinable func isAbsent(_ entry: Entry, _ statement: OpaquePointer) -> Bool {
        var key = entry.keyOffset
        let end = key + entry.keyCount
        while key < end {
            if sqlite3_column_type(statement, storage[key]) != SQLITE_NULL { return false }
            key += 1
        }
        return true
    }

    /// A member's decoding error; when the member is not optional and its row is absent, an error that says so.
    @usableFromInline func explained<Member: JoinedRowMember>(
        _ error: any Error, member: Member.Type, entry: Entry, raw: RawStatement
    ) -> any Error {
        guard !Member.isOptionalMember, var error = error as? SQLiteError, error.kind == .conversionFailed,
            isAbsent(entry, raw.handle)
        else { return error }
        error.message =
            "the \(Member.memberRowType) of this row is absent (its primary key is NULL, as a LEFT JOIN gives when "
            + "no row matches): read it as \(Member.memberRowType)? (\(error.message))"
        return error
    }
}

extension JoinedLayout {
    /// Makes the layout of `members` on `raw`, from the columns it returns now.
    static func make(
        type: ObjectIdentifier, members: [any JoinedRowMember.Type], raw: RawStatement, reprepares: Int32
    ) throws(SQLiteError) -> JoinedLayout {
        let statement = raw.handle
        let columns = (0..<raw.columnCount).map { position in
            JoinedColumnAssignment.ResultColumn(
                name: sqlite3_column_name(statement, position).map { String(cString: $0) } ?? "",
                table: csqlite_column_table_name(statement, position).map { String(cString: $0) },
                origin: csqlite_column_origin_name(statement, position).map { String(cString: $0) })
        }
        let assignment = try JoinedColumnAssignment(columns: columns, members: members.map(shape), sql: raw.sql)
        return JoinedLayout(type: type, reprepares: reprepares, assignment: assignment)
    }

    /// What a member needs: its columns, its table when it is a model, and the columns that tell whether its row
    /// is absent (the primary key's; all of them for a row type without one).
    static func shape(of member: any JoinedRowMember.Type) -> JoinedColumnAssignment.Member {
        let rowType = member.memberRowType
        let names = rowType.expectedColumnNames
        let model = names == nil ? nil : rowType as? any TableModel.Type
        var keyIndexes: [Int] = []
        if let model, let names {
            let keys = Set(model.columns.filter(\.isPrimaryKey).map(\.name.sqlIdentifierKey))
            keyIndexes = names.indices.filter { keys.contains(names[$0].sqlIdentifierKey) }
        }
        return JoinedColumnAssignment.Member(
            typeName: member.isOptionalMember ? "\(rowType)?" : "\(rowType)", names: names, table: model?.tableName,
            keyIndexes: keyIndexes)
    }
}

extension RawStatement {
    /// The layout of joined row type `type` for the row `number` of the current run: checked at each run's first
    /// row (the first step may have re-prepared the statement), reused for the others.
    @inlinable @inline(__always)
    func joinedLayout<Joined: JoinedRowProtocol>(for type: Joined.Type, atRow number: Int) throws(SQLiteError)
        -> JoinedLayout
    {
        if number != 1, let layout = joinedLayout, layout.type == ObjectIdentifier(type) { return layout }
        return try currentJoinedLayout(for: type)
    }

    /// The layout of `type` for the statement as it is now, made again if the type or the statement changed.
    @usableFromInline func currentJoinedLayout<Joined: JoinedRowProtocol>(for type: Joined.Type) throws(SQLiteError)
        -> JoinedLayout
    {
        let reprepares = reprepareCount
        if let layout = joinedLayout, layout.type == ObjectIdentifier(type), layout.reprepares == reprepares {
            return layout
        }
        do {
            let layout = try JoinedLayout.make(
                type: ObjectIdentifier(type), members: Joined.memberTypes, raw: self, reprepares: reprepares)
            joinedLayout = layout
            return layout
        } catch {
            abandon()
            throw error
        }
    }
}
