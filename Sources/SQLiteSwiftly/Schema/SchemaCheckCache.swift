/// A connection's record of which models were verified against which schema version.
///
/// `Connection.verifyOnce(_:)` compares the current `PRAGMA schema_version` with the version each model was
/// last verified at. The pragma's compiled statement is kept here rather than in the statement cache, so that
/// it neither counts in ``Connection/cachedStatementCount`` nor is dropped by
/// ``Connection/clearStatementCache()``.
struct SchemaCheckCache {
    /// The compiled `PRAGMA schema_version`, once used.
    var versionStatement: RawStatement?
    /// The schema version at which each model type last passed verification.
    var verified: [ObjectIdentifier: Int64] = [:]
}
