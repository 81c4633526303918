/// The rows a span of work changed, as bytes that can be saved, sent, inverted and applied to another database.
///
/// A changeset is what SQLite's session extension records (see <https://www.sqlite.org/sessionintro.html>): for
/// each changed row of a table with a primary key, the operation and the row's values before and after (for an
/// UPDATE, the key and the changed columns only). Record one with ``Connection/recordingChangeset(of:_:)``,
/// apply it with ``Connection/apply(_:onConflict:)-(Changeset,_)``, undo it by applying ``inverted()``.
///
/// ```swift
/// let (_, changeset) = try db.recordingChangeset {
///     try db.execute("UPDATE notes SET body = 'Buy milk' WHERE id = 1")
/// }
/// try other.apply(changeset)  // the same row, changed the same way, in another database
/// ```
///
/// A changeset holds values, not SQL: it cannot capture schema changes, and rows of tables without a primary key
/// are not recorded. The bytes are SQLite's own format, the same on every platform. Bytes received from elsewhere
/// are checked when they are used: truncated, corrupted or hostile bytes throw
/// ``SQLiteError/Kind/invalidChangeset``, never crash.
///
/// Every operation needs an SQLite built with the session extension, and throws
/// ``SQLiteError/Kind/sessionUnavailable`` otherwise.
public struct Changeset: Hashable, Sendable {
    /// The changeset in SQLite's format.
    public let bytes: [UInt8]

    /// Creates a changeset from its bytes, as ``bytes`` gave them; they are checked when the changeset is used.
    ///
    /// - Parameter bytes: The bytes of a changeset; none for the empty changeset.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether the changeset changes nothing.
    public var isEmpty: Bool { bytes.isEmpty }

    /// The changeset that undoes this one: inserts become deletes, deletes inserts, and updates change the new
    /// values back to the old ones.
    ///
    /// Applied to the database this changeset was applied to (or recorded on), with nothing changed since, the
    /// inverse brings its rows back as they were.
    ///
    /// - Returns: The inverse changeset.
    /// - Throws: ``SQLiteError/Kind/invalidChangeset`` for bytes that are not a changeset (a patchset cannot be
    ///   inverted: it lacks the old values); ``SQLiteError/Kind/sessionUnavailable``.
    public func inverted() throws(SQLiteError) -> Changeset {
        Changeset(bytes: try ChangesetBytes.inverted(bytes))
    }

    /// One changeset that makes the changes of all `changesets`, in order.
    ///
    /// Changes to the same row are merged: an INSERT then an UPDATE becomes an INSERT of the updated row, an
    /// INSERT then a DELETE disappears. Applying the result is the same as applying the changesets one after the
    /// other.
    ///
    /// - Parameter changesets: The changesets, in the order they were made.
    /// - Returns: The combined changeset.
    /// - Throws: ``SQLiteError/Kind/invalidChangeset`` for bytes that are not a changeset;
    ///   ``SQLiteError/Kind/schemaMismatch`` when two give one table different columns;
    ///   ``SQLiteError/Kind/sessionUnavailable``.
    public static func concatenating(_ changesets: [Changeset]) throws(SQLiteError) -> Changeset {
        Changeset(bytes: try ChangesetBytes.concatenated(changesets.map(\.bytes), patchset: false))
    }

    /// The changes, in order: each row's table, operation and values.
    ///
    /// - Returns: One ``RecordedChange`` per changed row.
    /// - Throws: ``SQLiteError/Kind/invalidChangeset`` for bytes that are not a changeset;
    ///   ``SQLiteError/Kind/conversionFailed`` for text that is not valid UTF-8;
    ///   ``SQLiteError/Kind/sessionUnavailable``.
    public func changes() throws(SQLiteError) -> [RecordedChange] {
        try ChangesetBytes.changes(bytes, patchset: false)
    }
}

extension Changeset: CustomStringConvertible {
    /// The changeset's size: `Changeset(120 bytes)`; ``changes()`` lists what it changes.
    public var description: String { "Changeset(\(bytes.count) bytes)" }
}
