/// A member of a joined row: a ``RowDecodable`` type, or an optional one that is `nil` when its row is absent.
///
/// A query that joins tables reads into a tuple of members, one per table, each decoded from the columns that
/// come from its table:
///
/// ```swift
/// let rows = try db.fetchAll((Book, Author?).self, """
///     SELECT books.*, authors.* FROM books LEFT JOIN authors ON authors.id = books.author_id
///     """)
/// ```
///
/// Every ``RowDecodable`` type is a member, and so is an optional of one: it is `nil` when the joined row is
/// absent (a `LEFT JOIN` found none), which the library tells by its primary key being NULL (for a model without a
/// primary key, or another row type, by all of its columns being NULL). You never implement the requirements
/// yourself: the defaults decode a ``RowDecodable`` with ``RowDecodable/init(row:)``.
public protocol JoinedRowMember {
    /// The row type that reads this member's columns: the member itself, or the type an optional wraps.
    static var memberRowType: any RowDecodable.Type { get }

    /// Whether the member is `nil` when its joined row is absent.
    static var isOptionalMember: Bool { get }

    /// Decodes the member from its columns.
    ///
    /// - Parameters:
    ///   - row: The member's columns, read by index in the order of ``memberRowType``'s
    ///     ``RowDecodable/expectedColumnNames``.
    ///   - isAbsent: Whether the joined row is absent (computed only for optional members; `false` otherwise).
    /// - Returns: The member.
    /// - Throws: What the row type's ``RowDecodable/init(row:)`` throws.
    static func decodeMember(from row: borrowing Row, isAbsent: Bool) throws -> Self
}

extension RowDecodable {
    /// The type itself.
    public static var memberRowType: any RowDecodable.Type { Self.self }

    /// `false`: a row type is never `nil`.
    public static var isOptionalMember: Bool { false }

    /// Decodes the row with ``RowDecodable/init(row:)``.
    ///
    /// - Parameters:
    ///   - row: The member's columns.
    ///   - isAbsent: Ignored: a row type is decoded even from NULLs, and reports the NULL it cannot read.
    /// - Returns: The decoded row.
    /// - Throws: What ``RowDecodable/init(row:)`` throws.
    @inlinable @inline(__always)
    public static func decodeMember(from row: borrowing Row, isAbsent: Bool) throws -> Self {
        try Self(row: row)
    }
}

extension Optional: JoinedRowMember where Wrapped: RowDecodable {
    /// The wrapped row type.
    public static var memberRowType: any RowDecodable.Type { Wrapped.self }

    /// `true`: the member is `nil` when its row is absent.
    public static var isOptionalMember: Bool { true }

    /// `nil` when the joined row is absent, the decoded row otherwise.
    ///
    /// - Parameters:
    ///   - row: The member's columns.
    ///   - isAbsent: Whether the joined row is absent.
    /// - Returns: The decoded row, or `nil`.
    /// - Throws: What the wrapped type's ``RowDecodable/init(row:)`` throws.
    @inlinable @inline(__always)
    public static func decodeMember(from row: borrowing Row, isAbsent: Bool) throws -> Self {
        isAbsent ? nil : try Wrapped(row: row)
    }
}
