/// How a ``Connection`` reaches its database: the library never silently creates or opens the wrong one.
///
/// SQLite's own `sqlite3_open` creates a database when none exists. That is convenient and hides mistakes: a
/// typo in a path gives an empty database instead of an error. Each mode here states an expectation, and a
/// connection that cannot meet it fails with a typed error and leaves the file system as it was.
public enum OpenMode: Hashable, Sendable {
    /// Create a new database; fail with ``SQLiteError/Kind/databaseAlreadyExists`` if anything exists at the path.
    ///
    /// The file is created atomically with `O_CREAT | O_EXCL`, so two processes racing for the same path
    /// cannot both succeed, and an existing file (even an empty one, or a dangling symbolic link) is never
    /// opened or modified. Leftover `-journal`, `-wal` or `-shm` files beside the path also count as existing.
    case create(path: String)
    /// Open an existing database for reading and writing; fail with ``SQLiteError/Kind/databaseNotFound``
    /// if nothing is at the path, or ``SQLiteError/Kind/notADatabase`` if the file is not an SQLite database.
    ///
    /// An empty (zero-byte) file is an empty SQLite database by SQLite's own rule, and opens.
    case open(path: String)
    /// Open an existing database read-only; fails the same ways as ``open(path:)``.
    case openReadOnly(path: String)
    /// A private, temporary database in memory, gone when the connection is.
    case inMemory

    /// The path named by the mode, or `nil` for ``inMemory``.
    public var path: String? {
        switch self {
        case .create(let path), .open(let path), .openReadOnly(let path): path
        case .inMemory: nil
        }
    }
}
