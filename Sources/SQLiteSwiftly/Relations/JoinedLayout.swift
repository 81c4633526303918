import CSQLiteSwiftly

/// The column maps of a joined row type on one statement: for each member, the result position of each column
/// it reads, and the positions whose all being NULL means the member's row is absent.
///
/// A statement keeps the layout of the last joined row type it read (``RawStatement/joined``), made once
/// per type and re-prepare, as it keeps the column map of a single row type. A member's ``Row`` reads through its
/// part of ``storage``, so a joined row costs the same column reads as its members read one by one.
@usableFromInline
final class JoinedLayout {
    /// The joined row type the layout was made for.
    @usableFromInline let type: ObjectIdentifier
    /// The statement's re-prepare count when it was made: a re-prepared `SELECT *` may return other columns.
    @usableFromInline let reprepares: Int32
    /// Four numbers per member, in the tuple's order (where its column map starts in `storage`, its column
    /// count, where its key positions start, their count), then every member's map, then its key positions.
    /// Plain memory, so that a row reads it without reference counting.
    @usableFromInline let storage: UnsafeMutablePointer<Int32>

    init(type: ObjectIdentifier, reprepares: Int32, assignment: JoinedColumnAssignment) {
        self.type = type
        self.reprepares = reprepares
        let maps = assignment.positions
        let keys = assignment.keyPositions
        let header = 4 * maps.count
        storage = .allocate(capacity: header + maps.joined().count + keys.joined().count)
        var next = header
        for (member, map) in maps.enumerated() {
            storage[4 * member] = Int32(next)
            storage[4 * member + 1] = Int32(map.count)
            (storage + next).initialize(from: map, count: map.count)
            next += map.count
        }
        for (member, key) in keys.enumerated() {
            storage[4 * member + 2] = Int32(next)
            storage[4 * member + 3] = Int32(key.count)
            (storage + next).initialize(from: key, count: key.count)
            next += key.count
        }
    }

    deinit {
        storage.deallocate()
    }

    /// Whether every key column of the member whose entry is at `entry` holds NULL: its joined row is absent.
    @inlinable static func isAbsent(_ statement: OpaquePointer, _ layout: UnsafePointer<Int32>, entry: Int) -> Bool {
        var key = Int(layout[entry + 2])
        let end = key + Int(layout[entry + 3])
        while key < end {
            if sqlite3_column_type(statement, layout[key]) != SQLITE_NULL { return false }
            key += 1
        }
        return true
    }

    /// A member's decoding error; when the member is not optional and its row is absent, an error that says so.
    @usableFromInline static func explained<Member: JoinedRowMember>(
        _ error: any Error, member: Member.Type, _ statement: OpaquePointer, _ layout: UnsafePointer<Int32>,
        entry: Int
    ) -> any Error {
        guard !Member.isOptionalMember, var error = error as? SQLiteError, error.kind == .conversionFailed,
            isAbsent(statement, layout, entry: entry)
        else { return error }
        error.message =
            "the \(Member.memberRowType) of this row is absent (its primary key is NULL, as a LEFT JOIN gives when "
            + "no row matches): read it as \(Member.memberRowType)? (\(error.message))"
        return error
    }
}

extension Row {
    /// Decodes member `index` of this joined row through `layout`, a ``JoinedLayout``'s storage.
    @inlinable @inline(__always)
    func member<Member: JoinedRowMember>(_ type: Member.Type, _ index: Int, layout: UnsafePointer<Int32>) throws
        -> Member
    {
        let entry = 4 * index
        let isAbsent = Member.isOptionalMember && JoinedLayout.isAbsent(statement, layout, entry: entry)
        do {
            return try Member.decodeMember(
                from: Row(member: self, columnMap: layout + Int(layout[entry]), columnCount: layout[entry + 1]),
                isAbsent: isAbsent)
        } catch {
            throw JoinedLayout.explained(error, member: type, statement, layout, entry: entry)
        }
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

/// A statement's joined layout, with the two things each row reads from it kept beside it, so that a row reads
/// them without retaining the layout.
@usableFromInline
struct JoinedLayoutSlot {
    /// The layout, which owns ``storage``.
    var layout: JoinedLayout?
    /// The layout's type, or `nil` when there is none.
    @usableFromInline var type: ObjectIdentifier?
    /// The layout's storage, or `nil` when there is none.
    @usableFromInline var storage: UnsafePointer<Int32>?

    @usableFromInline init() {}
}

extension RawStatement {
    /// The layout's storage of joined row type `type` for the row `number` of the current run: checked at each run's
    /// first row (the first step may have re-prepared the statement), reused for the others. The statement keeps
    /// the layout, and replaces it only at a run's start or first row, never while a row is decoded.
    @inlinable @inline(__always)
    func joinedLayout<Joined: JoinedRowProtocol>(for type: Joined.Type, atRow number: Int) throws(SQLiteError)
        -> UnsafePointer<Int32>
    {
        if number != 1, joined.type == ObjectIdentifier(type), let storage = joined.storage { return storage }
        return try currentJoinedLayout(for: type)
    }

    /// The layout of `type` for the statement as it is now, made again if the type or the statement changed.
    @usableFromInline @discardableResult
    func currentJoinedLayout<Joined: JoinedRowProtocol>(for type: Joined.Type) throws(SQLiteError)
        -> UnsafePointer<Int32>
    {
        let reprepares = reprepareCount
        if let layout = joined.layout, layout.type == ObjectIdentifier(type), layout.reprepares == reprepares {
            return UnsafePointer(layout.storage)
        }
        do {
            let layout = try JoinedLayout.make(
                type: ObjectIdentifier(type), members: Joined.memberTypes, raw: self, reprepares: reprepares)
            joined.layout = layout
            joined.type = layout.type
            joined.storage = UnsafePointer(layout.storage)
            return UnsafePointer(layout.storage)
        } catch {
            abandon()
            throw error
        }
    }
}
