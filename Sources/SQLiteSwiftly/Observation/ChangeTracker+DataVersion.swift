import CSQLiteSwiftly

// How the change tracker notices other connections' and processes' commits: SQLite's data version of each database.

extension ChangeTracker {
    /// Whether databases are attached to the connection (`ATTACH`): the file watcher watches the main database's
    /// files only, so the hub polls for those (`sqlite3_db_name`: 0 is `main`, 1 `temp`, then the attached ones).
    var hasAttachedDatabases: Bool {
        sqlite3_db_name(db, 2) != nil
    }

    /// Whether another connection or process committed since the last check; `nil` when the check failed.
    ///
    /// A read that fails (busy, or interrupted: a check whose task was cancelled) keeps the last version, so that
    /// the next check compares with it; forgetting it would lose the commits made since. With no version to compare
    /// (the first read failed), a successful read answers `true`: one fetch too many, never a commit missed.
    func otherConnectionCommitted() -> Bool? {
        guard let version = readDataVersion() else { return nil }
        defer { dataVersion = version }
        guard let previous = dataVersion else { return true }
        return version != previous
    }

    /// `PRAGMA data_version` of every database but `temp` (`main` and attached ones, by name): each changes when
    /// another connection commits to its file, never for this one's commits; attaching or detaching one changes
    /// the names. See <https://www.sqlite.org/pragma.html#pragma_data_version>.
    func readDataVersion() -> [String: Int64]? {
        var names: [String] = []
        let listed = query("PRAGMA database_list") { statement in
            if let name = sqlite3_column_text(statement, 1) { names.append(String(cString: name)) }
        }
        guard listed else { return nil }
        var versions: [String: Int64] = [:]
        for name in names where name != "temp" {
            let read = query("PRAGMA \(name.quotedSQLIdentifier).data_version") { statement in
                versions[name] = sqlite3_column_int64(statement, 0)
            }
            guard read else { return nil }
        }
        return versions
    }

    /// Runs `sql` on the connection, handing each row to `row`; `false` when it fails.
    func query(_ sql: String, _ row: (OpaquePointer) -> Void) -> Bool {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return false }
        defer { sqlite3_finalize(statement) }
        var code = sqlite3_step(statement)
        while code == SQLITE_ROW {
            row(statement)
            code = sqlite3_step(statement)
        }
        return code == SQLITE_DONE
    }
}
