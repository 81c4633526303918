/// Rows of a running query, decoded one at a time in constant memory.
///
/// ```swift
/// let cursor = try db.fetchCursor(Planet.self, "SELECT * FROM planets ORDER BY au")
/// while let planet = try cursor.next() {
///     if planet.au > 5 { break }   // stopping early is fine: the cursor resets its statement
/// }
/// ```
///
/// ``next()`` throws on a step or conversion error instead of trapping. After an error, or at the end,
/// `next()` returns `nil`. A cursor is not `Sendable`; it keeps its connection alive.
public final class Cursor<Decoded: RowDecodable> {
    // The state is read and written on every `next()`; a cursor belongs to one owner and is never accessed
    // overlappingly, so the dynamic exclusivity checks of a class's stored `var` are turned off, as in
    // RawStatement.
    @usableFromInline let raw: RawStatement
    @usableFromInline let connection: Connection
    @usableFromInline let generation: Int
    @usableFromInline @exclusivity(unchecked) var number = 0
    @usableFromInline @exclusivity(unchecked) var isFinished = false

    init(statement raw: RawStatement, connection: Connection, arguments: StatementArguments) throws(SQLiteError) {
        try raw.begin()
        try raw.mapColumns(for: Decoded.self)  // a mismatch fails here, before any row is read
        try raw.bindIfNeeded(arguments)
        self.raw = raw
        self.connection = connection
        generation = raw.generation
    }

    deinit {
        close()
    }

    /// Steps to the next row and decodes it.
    ///
    /// - Returns: The next row, or `nil` at the end (and after an error or ``close()``).
    /// - Throws: ``SQLiteError`` for step errors (busy, interrupted, corrupt) and conversion failures, or
    ///   ``SQLiteError/Kind/misuse`` when the cursor's statement was run again while the cursor was open, or
    ///   when it is called from the decoding of one of its own rows.
    @inlinable public func next() throws -> Decoded? {
        guard !isFinished else { return nil }
        guard raw.generation == generation else {
            isFinished = true
            throw restarted()
        }
        // Called from the decoding of one of this cursor's rows: stepping would move the row under it.
        if raw.isCallingOut { throw raw.reentered() }
        do {
            guard try raw.step() else {
                isFinished = true
                return nil
            }
            number += 1
            // The first step re-prepares a statement whose schema changed: map the columns again if so.
            if number == 1 { try raw.remapIfReprepared(for: Decoded.self, reprepares: raw.reprepareCount) }
            raw.isCallingOut = true
            let decoded = try Decoded(row: Row(raw: raw, number: number))
            raw.isCallingOut = false
            return decoded
        } catch {
            raw.isCallingOut = false
            close()
            throw error
        }
    }

    /// Calls `body` with each remaining row.
    ///
    /// - Parameter body: The code to run for each row; throwing stops the iteration.
    /// - Throws: Errors from ``next()`` or from `body`.
    @inlinable public func forEach(_ body: (Decoded) throws -> Void) throws {
        while let row = try next() { try body(row) }
    }

    @usableFromInline func restarted() -> SQLiteError {
        SQLiteError(
            .misuse, message: "the statement was run again while this cursor was open; the cursor ended", sql: raw.sql)
    }

    /// Stops the cursor and resets its statement, releasing the read lock it held.
    ///
    /// Calling it again, or after the end, does nothing.
    public func close() {
        guard !isFinished else { return }
        isFinished = true
        if raw.generation == generation { raw.abandon() }
    }
}

@available(*, unavailable, message: "A Cursor belongs to its connection's owner")
extension Cursor: Sendable {}
