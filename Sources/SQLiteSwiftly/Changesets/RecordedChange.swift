import CSQLiteSwiftly

/// One row change of a ``Changeset`` or ``Patchset``: the table, the operation, and the values before and after.
///
/// Read them with ``Changeset/changes()`` or ``Patchset/changes()``; a ``ChangesetConflict`` carries the change
/// that conflicted. Values are listed by column, in the table's declaration order. A column without a value is
/// `nil`: for an UPDATE, a column it did not change (only the primary key and the changed columns are recorded);
/// in a patchset, every old value but the primary key's.
///
/// ```swift
/// for change in try changeset.changes() where change.operation == .update {
///     print(change.table, change.oldValues, change.newValues)
/// }
/// ```
public struct RecordedChange: Hashable, Sendable {
    /// What a change does to its row.
    public enum Operation: String, Hashable, Sendable {
        /// A row was inserted: ``RecordedChange/newValues`` holds it. The corresponding C constant is
        /// `SQLITE_INSERT`.
        case insert = "INSERT"
        /// A row was updated: ``RecordedChange/oldValues`` holds its key and the changed columns' values before,
        /// ``RecordedChange/newValues`` the changed columns' values after. The C constant is `SQLITE_UPDATE`.
        case update = "UPDATE"
        /// A row was deleted: ``RecordedChange/oldValues`` holds it (in a patchset, its key only). The C constant
        /// is `SQLITE_DELETE`.
        case delete = "DELETE"
    }

    /// The table's name, as it was recorded.
    public var table: String
    /// What the change does.
    public var operation: Operation
    /// Whether SQLite marked the change indirect: made by a trigger or a foreign-key action rather than by a
    /// statement of the recorded work.
    public var isIndirect: Bool
    /// Per column, whether it is part of the primary key, which identifies the row.
    public var primaryKeyColumns: [Bool]
    /// The values before the change, per column; empty for an INSERT.
    public var oldValues: [SQLiteValue?]
    /// The values after the change, per column; empty for a DELETE.
    public var newValues: [SQLiteValue?]

    /// Creates a change.
    ///
    /// - Parameters:
    ///   - table: The table's name.
    ///   - operation: What the change does.
    ///   - isIndirect: Whether the change is indirect.
    ///   - primaryKeyColumns: Per column, whether it is part of the primary key.
    ///   - oldValues: The values before, per column (`nil` where not recorded); empty for an INSERT.
    ///   - newValues: The values after, per column (`nil` where not recorded); empty for a DELETE.
    public init(
        table: String, operation: Operation, isIndirect: Bool = false, primaryKeyColumns: [Bool],
        oldValues: [SQLiteValue?], newValues: [SQLiteValue?]
    ) {
        self.table = table
        self.operation = operation
        self.isIndirect = isIndirect
        self.primaryKeyColumns = primaryKeyColumns
        self.oldValues = oldValues
        self.newValues = newValues
    }

    /// The change the iterator is on.
    init(iterator: OpaquePointer, functions: SessionFunctions) throws(SQLiteError) {
        let api = functions.api
        var name: UnsafePointer<CChar>?
        var columns: Int32 = 0
        var code: Int32 = 0
        var indirect: Int32 = 0
        var result = api.changeset_op(iterator, &name, &columns, &code, &indirect)
        guard result == SQLITE_OK, let name else { throw ChangesetBytes.failure(result, while: "reading a change") }
        var keyFlags: UnsafeMutablePointer<UInt8>?
        result = api.changeset_pk(iterator, &keyFlags, nil)
        guard result == SQLITE_OK, let keyFlags else { throw ChangesetBytes.failure(result, while: "reading a key") }
        table = String(cString: name)
        operation = code == SQLITE_INSERT ? .insert : code == SQLITE_UPDATE ? .update : .delete
        isIndirect = indirect != 0
        primaryKeyColumns = (0..<Int(columns)).map { keyFlags[$0] != 0 }
        oldValues = []
        newValues = []
        if operation != .insert {
            oldValues = try Self.values(count: columns, table: table) { index, value in
                api.changeset_old(iterator, index, value)
            }
        }
        if operation != .delete {
            newValues = try Self.values(count: columns, table: table) { index, value in
                api.changeset_new(iterator, index, value)
            }
        }
    }

    /// The values one of the iterator's accessors gives, `nil` where it has none; a value that cannot be read (text
    /// that is not UTF-8) is an error naming the table and the column's position.
    static func values(
        count: Int32, table: String, _ read: (Int32, UnsafeMutablePointer<OpaquePointer?>) -> Int32
    ) throws(SQLiteError) -> [SQLiteValue?] {
        var values: [SQLiteValue?] = []
        values.reserveCapacity(Int(count))
        for index in 0..<count {
            var value: OpaquePointer?
            let code = read(index, &value)
            guard code == SQLITE_OK else { throw ChangesetBytes.failure(code, while: "reading a value") }
            guard let value else {
                values.append(nil)
                continue
            }
            do throws(SQLiteError) {
                values.append(try StoredValue(value).sqliteValue())
            } catch {
                throw error.with(table: table, column: "#\(index + 1)")
            }
        }
        return values
    }
}

extension RecordedChange: CustomStringConvertible {
    /// The operation, the table and the values, `-` for a column without one:
    /// `UPDATE notes old [INTEGER 1, TEXT "a"] new [-, TEXT "b"]`; `(indirect)` for a change a trigger made.
    public var description: String {
        func list(_ values: [SQLiteValue?]) -> String {
            "[" + values.map { $0?.description ?? "-" }.joined(separator: ", ") + "]"
        }
        var text = "\(operation.rawValue) \(table)"
        if !oldValues.isEmpty { text += " old " + list(oldValues) }
        if !newValues.isEmpty { text += " new " + list(newValues) }
        return isIndirect ? text + " (indirect)" : text
    }
}
