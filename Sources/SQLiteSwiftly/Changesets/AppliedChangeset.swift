/// What ``Connection/apply(_:onConflict:)-(Changeset,_)`` did: how many changes it applied, and which it skipped and why.
///
/// ```swift
/// let result = try target.apply(changeset) { _ in .skip }
/// print(result.appliedCount, result.skipped.map(\.kind))
/// ```
public struct AppliedChangeset: Hashable, Sendable {
    /// The number of changes applied, including those applied over a conflicting row (``replacedCount``).
    public var appliedCount: Int
    /// The number of changes applied over a conflicting row because the conflict handler said
    /// ``ChangesetConflict/Resolution/replace``.
    public var replacedCount: Int
    /// The conflicts the handler resolved with ``ChangesetConflict/Resolution/skip``, in the order they were met:
    /// each one's change was left out. (A skipped ``ChangesetConflict/Kind/foreignKey`` conflict leaves no change
    /// out, and is not listed.)
    public var skipped: [ChangesetConflict]

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - appliedCount: The number of changes applied.
    ///   - replacedCount: How many of them replaced a conflicting row.
    ///   - skipped: The conflicts whose change was left out.
    public init(appliedCount: Int, replacedCount: Int, skipped: [ChangesetConflict]) {
        self.appliedCount = appliedCount
        self.replacedCount = replacedCount
        self.skipped = skipped
    }
}
