import CSQLiteSwiftly

/// The functions of SQLite's session extension, found in the loaded SQLite at run time.
///
/// SQLite builds the extension only with `SQLITE_ENABLE_SESSION` and `SQLITE_ENABLE_PREUPDATE_HOOK`, and its
/// header declares the functions only then. Linking them would make the library unusable (a link or load failure)
/// with an SQLite built without them, so `csqlite_load_session_api` looks them up with `dlsym`, once per process,
/// as the column-metadata lookup does; every changeset operation starts with ``available()``, which throws
/// ``SQLiteError/Kind/sessionUnavailable`` when they are missing. See <https://www.sqlite.org/session/intro.html>.
struct SessionFunctions: Sendable {
    /// The function pointers, each the one `csqlite_session_api` names.
    let api: csqlite_session_api

    /// The functions of the SQLite this process loaded, or `nil` when it lacks the extension.
    private static let loaded = load(treatingAsAbsent: nil)

    /// The tests' stand-in for an SQLite without the extension: while set, in the current task, the named function
    /// is treated as missing.
    @TaskLocal static var absentForTesting: String?

    /// The functions of the loaded SQLite, or the error that says the extension is missing.
    ///
    /// - Throws: ``SQLiteError/Kind/sessionUnavailable``.
    static func available() throws(SQLiteError) -> SessionFunctions {
        let functions = absentForTesting.map { load(treatingAsAbsent: $0) } ?? loaded
        guard let functions else { throw unavailable }
        return functions
    }

    /// Looks the functions up; `nil` when one is missing (or is `absent`).
    private static func load(treatingAsAbsent absent: String?) -> SessionFunctions? {
        // csqlite_session_api has non-null function pointers and so no empty value: the loader fills memory.
        let storage = UnsafeMutablePointer<csqlite_session_api>.allocate(capacity: 1)
        defer { storage.deallocate() }
        let found =
            if let absent {
                absent.withCString { csqlite_load_session_api(storage, $0) }
            } else {
                csqlite_load_session_api(storage, nil)
            }
        // The loader returns 1 only once it has set every field.
        return found == 1 ? SessionFunctions(api: storage.pointee) : nil
    }

    /// The error for an SQLite without the session extension.
    static let unavailable = SQLiteError(
        .sessionUnavailable, code: .error,
        message: "the SQLite in use (\(Connection.sqliteVersion)) was built without the session extension "
            + "(SQLITE_ENABLE_SESSION and SQLITE_ENABLE_PREUPDATE_HOOK), which records and applies changesets; "
            + "every other feature works")
}
