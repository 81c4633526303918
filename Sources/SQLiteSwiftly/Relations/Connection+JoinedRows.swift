// Joined rows on a connection: a query's rows read as tuples of row types, each member decoded from the columns of
// its own table (see JoinedColumnAssignment for how columns are assigned).

extension Connection {
    /// Runs a query that joins tables and decodes every row into a tuple, one member per table.
    ///
    /// ```swift
    /// let rows = try db.fetchAll((Book, Author).self, """
    ///     SELECT books.*, authors.* FROM books JOIN authors ON authors.id = books.author_id
    ///     """)
    /// ```
    ///
    /// Each result column goes to the member whose table it comes from, as SQLite reports it (through views and
    /// subqueries), so columns of the same name in two tables (`id`, `name`) are never confused, and the order of
    /// the `SELECT` list does not matter. An optional member (`Author?`) is `nil` when its joined row is absent
    /// (its primary key is NULL, as a `LEFT JOIN` gives). In a self-join, the columns of the one table go to its
    /// members in order of appearance. A column computed by an expression is assigned explicitly with an alias
    /// naming the member's table and column (`upper(name) AS "authors.name"`), or found by its own name when only
    /// one member reads that name. Columns no member reads are ignored.
    ///
    /// - Parameters:
    ///   - type: The tuple of row types: ``TableModel``s, other ``RowDecodable`` types, optionals of them.
    ///   - sql: Exactly one SQL statement; interpolated values are bound.
    ///   - arguments: One argument per parameter written in `sql`, when it has no interpolated values.
    /// - Returns: The decoded rows.
    /// - Throws: ``SQLiteError/Kind/modelMismatch`` naming a column a member needs that no result column provides,
    ///   or that too few or too many provide (before any row is read); the errors of ``fetchAll(_:_:_:)``.
    @inlinable public func fetchAll<First: JoinedRowMember, Second: JoinedRowMember, each Other: JoinedRowMember>(
        _ type: (First, Second, repeat each Other).Type, _ sql: SQL, _ arguments: StatementArguments = .none
    ) throws -> [(First, Second, repeat each Other)] {
        let (text, arguments) = try sql.resolved(with: arguments)
        return try readJoinedRows(cachedStatement(text), as: JoinedRow<First, Second, repeat each Other>.self) {
            raw throws(SQLiteError) in try raw.bindIfNeeded(arguments)
        }
    }

    /// Runs a query that joins tables and decodes its first row into a tuple, or returns `nil` when there is none.
    ///
    /// See ``fetchAll(_:_:_:)->[(First,Second,Other)]`` for how columns are assigned to members.
    ///
    /// - Parameters:
    ///   - type: The tuple of row types.
    ///   - sql: Exactly one SQL statement; interpolated values are bound.
    ///   - arguments: One argument per parameter written in `sql`, when it has no interpolated values.
    /// - Returns: The first row, or `nil`.
    /// - Throws: As ``fetchAll(_:_:_:)->[(First,Second,Other)]``.
    @inlinable public func fetchOne<First: JoinedRowMember, Second: JoinedRowMember, each Other: JoinedRowMember>(
        _ type: (First, Second, repeat each Other).Type, _ sql: SQL, _ arguments: StatementArguments = .none
    ) throws -> (First, Second, repeat each Other)? {
        let (text, arguments) = try sql.resolved(with: arguments)
        return try readJoinedRows(
            cachedStatement(text), as: JoinedRow<First, Second, repeat each Other>.self, limit: 1
        ) { raw throws(SQLiteError) in try raw.bindIfNeeded(arguments) }.first
    }

    /// Runs a query that joins tables lazily: the cursor decodes one tuple at a time, in constant memory.
    ///
    /// - Parameters:
    ///   - type: The tuple of row types.
    ///   - sql: Exactly one SQL statement; interpolated values are bound.
    ///   - arguments: One argument per parameter written in `sql`, when it has no interpolated values.
    /// - Returns: A cursor over the rows.
    /// - Throws: ``SQLiteError`` for SQL errors, argument mismatches, and columns that cannot be assigned to the
    ///   members, before any row is read.
    public func fetchCursor<First: JoinedRowMember, Second: JoinedRowMember, each Other: JoinedRowMember>(
        _ type: (First, Second, repeat each Other).Type, _ sql: SQL, _ arguments: StatementArguments = .none
    ) throws(SQLiteError) -> JoinedCursor<First, Second, repeat each Other> {
        let (text, arguments) = try sql.resolved(with: arguments)
        return try JoinedCursor(statement: compile(text), connection: self, arguments: arguments)
    }

    /// Reads every row (or up to `limit`) of `raw` as the members of `type`; the layout is made after the run
    /// began and before it binds, so that columns that cannot be assigned fail before any row is read.
    @inlinable func readJoinedRows<First: JoinedRowMember, Second: JoinedRowMember, each Other: JoinedRowMember>(
        _ raw: RawStatement, as type: JoinedRow<First, Second, repeat each Other>.Type, limit: Int = .max,
        binding bind: (RawStatement) throws(SQLiteError) -> Void
    ) throws -> [(First, Second, repeat each Other)] {
        var rows: [(First, Second, repeat each Other)] = []
        try forEachRow(
            raw, as: type, limit: limit,
            binding: { raw throws(SQLiteError) in
                try raw.currentJoinedLayout(for: type)
                try bind(raw)
            }, lift: { $0 }
        ) { row in rows.append(try type.decode(row)) }
        return rows
    }
}

/// Rows of a running query that joins tables, decoded one tuple at a time in constant memory.
///
/// A ``Cursor`` whose rows are tuples: see ``Connection/fetchCursor(_:_:_:)->JoinedCursor<First,Second,Other>``.
///
/// ```swift
/// let cursor = try db.fetchCursor((Book, Author).self, "SELECT * FROM books JOIN authors ON ...")
/// while let (book, author) = try cursor.next() { ... }
/// ```
///
/// ``next()`` throws on a step or conversion error instead of trapping; after an error, or at the end, it returns
/// `nil`. A cursor is not `Sendable`; it keeps its connection alive.
public final class JoinedCursor<First: JoinedRowMember, Second: JoinedRowMember, each Other: JoinedRowMember> {
    @usableFromInline let cursor: Cursor<JoinedRow<First, Second, repeat each Other>>

    init(statement raw: RawStatement, connection: Connection, arguments: StatementArguments) throws(SQLiteError) {
        // The run begins first, so that the layout is never made under another run of the statement.
        cursor = try Cursor(statement: raw, connection: connection, arguments: arguments)
        do {
            try raw.currentJoinedLayout(for: JoinedRow<First, Second, repeat each Other>.self)
        } catch {
            cursor.close()
            throw error
        }
    }

    /// Steps to the next row and decodes it.
    ///
    /// - Returns: The next row, or `nil` at the end (and after an error or ``close()``).
    /// - Throws: As ``Cursor/next()``.
    @inlinable public func next() throws -> (First, Second, repeat each Other)? {
        try cursor.next()?.members
    }

    /// Stops the cursor and resets its statement, releasing the read lock it held.
    ///
    /// Calling it again, or after the end, does nothing.
    public func close() {
        cursor.close()
    }
}

@available(*, unavailable, message: "A JoinedCursor belongs to its connection's owner")
extension JoinedCursor: Sendable {}
