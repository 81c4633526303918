import CSQLiteSwiftly

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Copying whole databases with SQLite's online backup API: <https://www.sqlite.org/backup.html>.

extension Connection {
    /// Creates a new database at `path` as a copy of the template database at `templatePath`.
    ///
    /// The new file obeys the same must-not-exist rule as ``init(creating:options:)``: nothing may exist
    /// at `path`. The template must exist and be a database; it is opened read-only and never changed. The
    /// copy uses SQLite's online backup API, so the template may be in use by other connections. If the copy
    /// fails, the half-created file is removed, and `path` is free again.
    ///
    /// ```swift
    /// let db = try Connection(creating: "/tmp/user.sqlite", fromTemplate: "/app/seed.sqlite")
    /// ```
    ///
    /// - Parameters:
    ///   - path: Where to create the new database.
    ///   - templatePath: The database file to copy.
    ///   - options: The new connection's options; its busy timeout also applies to reading the template.
    /// - Throws: ``SQLiteError`` of kind ``SQLiteError/Kind/databaseNotFound`` or
    ///   ``SQLiteError/Kind/notADatabase`` naming `templatePath` when the template is missing or not a
    ///   database; ``SQLiteError/Kind/databaseAlreadyExists`` naming `path` when `path` is taken; an SQLite
    ///   error naming `path` when the copy fails (for instance busy, when another connection writes the template).
    public convenience init(
        creating path: String, fromTemplate templatePath: String,
        options: ConnectionOptions = .default
    ) throws(SQLiteError) {
        // The template is checked first, so that a missing template never leaves a new file behind.
        let template = try Connection(opening: templatePath, readOnly: true, options: options)
        try self.init(creating: path, options: options)
        try Self.copy(from: template, into: self, destinationPath: path)
    }

    /// Copies this database, as committed, to a new database file at `path`.
    ///
    /// The copy obeys the must-not-exist rule: nothing may exist at `path`. It is made with SQLite's online
    /// backup API in one pass, holding a read lock on this database meanwhile, so it is consistent even while
    /// other connections write. If the copy fails, the half-created file is removed. Works for in-memory
    /// databases too. Changes of a transaction still open on this connection are not part of a consistent
    /// copy: back up outside transactions.
    ///
    /// ```swift
    /// try db.backup(to: "/backups/planets-2026-11-22.sqlite")
    /// ```
    ///
    /// - Parameter path: Where to create the copy.
    /// - Throws: ``SQLiteError`` of kind ``SQLiteError/Kind/databaseAlreadyExists`` naming `path` when `path`
    ///   is taken, or an SQLite error naming `path` when the copy fails (for instance busy, when another
    ///   connection holds an exclusive lock on this database for longer than the busy timeout).
    public func backup(to path: String) throws(SQLiteError) {
        try Self.copy(from: self, toNewFile: path)
    }

    /// Creates `path` and copies `source` into it; the destination connection is closed when this returns.
    private static func copy(from source: Connection, toNewFile path: String) throws(SQLiteError) {
        try source.requireOpen()
        let destination = try Connection(creating: path)
        try copy(from: source, into: destination, destinationPath: path)
    }

    /// Copies every page of `source`'s main database into `destination`, a database this library just
    /// created; on failure removes the destination's files, which belong to nobody else.
    private static func copy(
        from source: Connection, into destination: Connection, destinationPath path: String
    ) throws(SQLiteError) {
        guard let backup = sqlite3_backup_init(destination.handle, "main", source.handle, "main") else {
            // sqlite3_backup_init leaves its error on the destination connection.
            let error = SQLiteError(code: sqlite3_errcode(destination.handle), db: destination.handle)
            removeFiles(at: path)
            throw copyFailure(error, source: source, path: path)
        }
        // -1 copies every page in one step: the source is read-locked once, and the copy is consistent.
        var code = sqlite3_backup_step(backup, -1)
        let finish = sqlite3_backup_finish(backup)
        if code == SQLITE_DONE { code = finish }
        guard code == SQLITE_OK || code == SQLITE_DONE else {
            // backup_step reports busy or locked through its result code; other errors are on the destination.
            let error =
                code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED
                ? SQLiteError(code: code, db: nil)
                : SQLiteError(code: code, db: destination.handle)
            removeFiles(at: path)
            throw copyFailure(error, source: source, path: path)
        }
    }

    /// Removes a destination this library just created, with any journal SQLite left beside it.
    private static func removeFiles(at path: String) {
        for suffix in [""] + DatabaseFile.journalSuffixes { unlink(path + suffix) }
    }

    private static func copyFailure(_ error: SQLiteError, source: Connection, path: String) -> SQLiteError {
        var error = error
        let origin = source.path.map { "'\($0)'" } ?? "an in-memory database"
        error.message = "copying \(origin) to '\(path)' failed: " + error.message
        error.path = path
        return error
    }
}
