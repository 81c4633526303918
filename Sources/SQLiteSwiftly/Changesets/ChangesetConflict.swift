/// A change that cannot be applied as it is, handed to the conflict handler of
/// ``Connection/apply(_:onConflict:)-(Changeset,_)``, which decides what to do with it.
///
/// SQLite finds a conflict when the target database does not hold what the change expects: see
/// <https://www.sqlite.org/session/sqlite3changeset_apply.html>. The handler answers with a ``Resolution``:
///
/// ```swift
/// try target.apply(changeset) { conflict in
///     switch conflict.kind {
///     case .data, .conflict: .replace  // the incoming row wins
///     default: .skip                   // a row already deleted, a broken constraint: leave it
///     }
/// }
/// ```
public struct ChangesetConflict: Hashable, Sendable {
    /// Why a change conflicts. Kinds are values, not enum cases, so that new ones are not a breaking change.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// SQLite's code for the kind.
        public let rawValue: Int32

        /// Creates a kind from SQLite's code.
        ///
        /// - Parameter rawValue: An `SQLITE_CHANGESET_*` conflict code.
        public init(rawValue: Int32) {
            self.rawValue = rawValue
        }

        /// The row to update or delete exists, but holds other values than the change's old values: someone
        /// changed it since. ``ChangesetConflict/currentValues`` holds it. The corresponding C constant is
        /// `SQLITE_CHANGESET_DATA`.
        public static let data = Kind(rawValue: 1)
        /// The row to update or delete does not exist. The corresponding C constant is `SQLITE_CHANGESET_NOTFOUND`.
        public static let notFound = Kind(rawValue: 2)
        /// The row to insert exists already (same primary key). ``ChangesetConflict/currentValues`` holds it. The
        /// corresponding C constant is `SQLITE_CHANGESET_CONFLICT`.
        public static let conflict = Kind(rawValue: 3)
        /// The change breaks a constraint other than the primary key (`UNIQUE`, `NOT NULL`, `CHECK`). The
        /// corresponding C constant is `SQLITE_CHANGESET_CONSTRAINT`.
        public static let constraint = Kind(rawValue: 4)
        /// Once every change was made, foreign keys are broken: ``ChangesetConflict/foreignKeyViolations`` says how
        /// many; there is no one change to show. The corresponding C constant is `SQLITE_CHANGESET_FOREIGN_KEY`.
        public static let foreignKey = Kind(rawValue: 5)

        /// The kind's name, such as `data` or `not found`.
        public var description: String {
            switch self {
            case .data: "data"
            case .notFound: "not found"
            case .conflict: "conflict"
            case .constraint: "constraint"
            case .foreignKey: "foreign key"
            default: "kind \(rawValue)"
            }
        }
    }

    /// What the conflict handler decides.
    public enum Resolution: Hashable, Sendable {
        /// Leave this change out and go on with the next one. For a ``Kind/foreignKey`` conflict: keep the
        /// changes anyway, broken keys included; refused (``SQLiteError/Kind/changesetConflict``, nothing applied)
        /// on a connection that enforces foreign keys, as every connection does by default. The corresponding C
        /// constant is `SQLITE_CHANGESET_OMIT`.
        case skip
        /// Apply the change anyway: write the row over the one in the database. Only for ``Kind/data`` and
        /// ``Kind/conflict``; for other kinds the application fails with ``SQLiteError/Kind/misuse``. The
        /// corresponding C constant is `SQLITE_CHANGESET_REPLACE`.
        case replace
        /// Stop: nothing of the changeset is applied, and ``Connection/apply(_:onConflict:)-(Changeset,_)`` throws
        /// ``SQLiteError/Kind/changesetConflict``. The corresponding C constant is `SQLITE_CHANGESET_ABORT`.
        case abort
    }

    /// Why the change conflicts.
    public var kind: Kind
    /// The change that conflicts; `nil` for ``Kind/foreignKey``, which concerns the changeset as a whole.
    public var change: RecordedChange?
    /// The row in the database that the change conflicts with, per column: for ``Kind/data`` and
    /// ``Kind/conflict``; `nil` otherwise.
    public var currentValues: [SQLiteValue]?
    /// The number of broken foreign keys, for ``Kind/foreignKey``; 0 otherwise.
    public var foreignKeyViolations: Int

    /// Creates a conflict.
    ///
    /// - Parameters:
    ///   - kind: Why the change conflicts.
    ///   - change: The change, or `nil` for a foreign-key conflict.
    ///   - currentValues: The conflicting row in the database, if any.
    ///   - foreignKeyViolations: The number of broken foreign keys.
    public init(
        kind: Kind, change: RecordedChange?, currentValues: [SQLiteValue]? = nil, foreignKeyViolations: Int = 0
    ) {
        self.kind = kind
        self.change = change
        self.currentValues = currentValues
        self.foreignKeyViolations = foreignKeyViolations
    }

    /// A sentence saying what conflicts, for errors: the kind, the operation and the table, never values.
    var summary: String {
        guard let change else {
            return "\(foreignKeyViolations) foreign key(s) would be broken once every change is made"
        }
        let what = "\(change.operation.rawValue) of a row of table \"\(change.table)\""
        switch kind {
        case .data: return what + ": the row holds other values than the changeset expects (changed since)"
        case .notFound: return what + ": the row does not exist (deleted since, or never there)"
        case .conflict: return what + ": a row with the same primary key exists"
        case .constraint: return what + ": it breaks a constraint (UNIQUE, NOT NULL, CHECK)"
        default: return what + ": conflict \(kind)"
        }
    }
}
