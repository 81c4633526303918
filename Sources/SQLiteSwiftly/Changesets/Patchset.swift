/// A smaller form of ``Changeset`` that keeps only what applying needs: the key of a deleted row, and the key and
/// new values of an updated one.
///
/// A patchset is recorded with ``Connection/recordingPatchset(of:_:)`` and applied with
/// ``Connection/apply(_:onConflict:)-(Patchset,_)``. Without the old values it cannot be inverted, and
/// applying it finds fewer conflicts: an UPDATE or DELETE of a row that exists is applied whatever the row holds
/// now. Use a changeset for undo and for databases that may have changed since; a patchset to bring a copy that
/// nothing else changes up to date.
///
/// Every operation needs an SQLite built with the session extension, and throws
/// ``SQLiteError/Kind/sessionUnavailable`` otherwise.
public struct Patchset: Hashable, Sendable {
    /// The patchset in SQLite's format.
    public let bytes: [UInt8]

    /// Creates a patchset from its bytes, as ``bytes`` gave them; they are checked when the patchset is used.
    ///
    /// - Parameter bytes: The bytes of a patchset; none for the empty patchset.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether the patchset changes nothing.
    public var isEmpty: Bool { bytes.isEmpty }

    /// One patchset that makes the changes of all `patchsets`, in order, with the changes to each row merged.
    ///
    /// - Parameter patchsets: The patchsets, in the order they were made.
    /// - Returns: The combined patchset.
    /// - Throws: ``SQLiteError/Kind/invalidChangeset`` for bytes that are not a patchset;
    ///   ``SQLiteError/Kind/schemaMismatch`` when two give one table different columns;
    ///   ``SQLiteError/Kind/sessionUnavailable``.
    public static func concatenating(_ patchsets: [Patchset]) throws(SQLiteError) -> Patchset {
        Patchset(bytes: try ChangesetBytes.concatenated(patchsets.map(\.bytes), patchset: true))
    }

    /// The changes, in order. A deleted row's old values hold its key only, an updated row's its key and the
    /// changed columns.
    ///
    /// - Returns: One ``RecordedChange`` per changed row.
    /// - Throws: ``SQLiteError/Kind/invalidChangeset`` for bytes that are not a patchset;
    ///   ``SQLiteError/Kind/conversionFailed`` for text that is not valid UTF-8;
    ///   ``SQLiteError/Kind/sessionUnavailable``.
    public func changes() throws(SQLiteError) -> [RecordedChange] {
        try ChangesetBytes.changes(bytes, patchset: true)
    }
}

extension Patchset: CustomStringConvertible {
    /// The patchset's size: `Patchset(96 bytes)`; ``changes()`` lists what it changes.
    public var description: String { "Patchset(\(bytes.count) bytes)" }
}
