import CSQLiteSwiftly
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A named order of texts, used by SQL through `COLLATE name`: in `ORDER BY`, comparisons, indexes and
/// `UNIQUE` constraints.
///
/// A collation compares either UTF-8 bytes, without creating any `String` (the fastest form), or `String`s:
///
/// ```swift
/// let byLength = Collation("by_length") { first, second in
///     first.count == second.count ? .orderedSame : first.count < second.count ? .orderedAscending : .orderedDescending
/// }
/// try db.add(collation: byLength)
/// ```
///
/// The comparison must be a consistent total order: the same answer for the same texts every time, equal
/// texts equal both ways, and transitive. It runs on whatever thread steps the statement, so it is
/// `@Sendable`; it cannot fail.
///
/// Two Unicode collations are ready to add, and do not depend on the process's locale:
/// ``unicodeCaseInsensitive`` and ``unicodeCaseAndAccentInsensitive``.
public struct Collation: Sendable {
    /// The name SQL uses after `COLLATE` (SQLite compares names ignoring ASCII case).
    public let name: String
    let comparison: Comparison

    enum Comparison: Sendable {
        case utf8(@Sendable (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> ComparisonResult)
        case strings(@Sendable (String, String) -> ComparisonResult)
    }

    /// Creates a collation that compares `String`s.
    ///
    /// Text that is not valid UTF-8 reaches the closure with each invalid byte replaced by U+FFFD.
    ///
    /// - Parameters:
    ///   - name: The name SQL uses after `COLLATE`.
    ///   - compare: The comparison: `.orderedAscending` when the first text sorts first.
    public init(_ name: String, _ compare: @escaping @Sendable (String, String) -> ComparisonResult) {
        self.name = name
        comparison = .strings(compare)
    }

    /// Creates a collation that compares the texts' UTF-8 bytes, without creating `String`s.
    ///
    /// ```swift
    /// let bytewise = Collation.utf8("bytewise") { first, second in
    ///     first.lexicographicallyPrecedes(second) ? .orderedAscending
    ///         : first.elementsEqual(second) ? .orderedSame : .orderedDescending
    /// }
    /// ```
    ///
    /// The buffers are valid only during the call; SQLite does not check that the bytes are valid UTF-8.
    ///
    /// - Parameters:
    ///   - name: The name SQL uses after `COLLATE`.
    ///   - compare: The comparison: `.orderedAscending` when the first text sorts first.
    /// - Returns: The collation.
    public static func utf8(
        _ name: String,
        _ compare: @escaping @Sendable (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> ComparisonResult
    ) -> Collation {
        Collation(name: name, comparison: .utf8(compare))
    }

    init(name: String, comparison: Comparison) {
        self.name = name
        self.comparison = comparison
    }

    /// `UNICODE_NOCASE`: Unicode case-insensitive order, the same in every locale.
    ///
    /// Texts are compared after Unicode's default case folding (each character's uppercase mapping,
    /// lowercased), so `'Émile' = 'émile'`, `'straße' = 'STRASSE'` and `'ΣΊΣΥΦΟΣ' = 'σίσυφος'`. Canonically
    /// equivalent texts are equal (a precomposed `é` and `e` followed by a combining acute accent). Accents
    /// count: `'Émile' <> 'Emile'`. Turkish dotted and dotless i follow Unicode's default, not Turkish, rules:
    /// `I` and `i` are equal, dotless `ı` is its own letter, and dotted `İ` equals `i` followed by a combining
    /// dot above (U+0307). The order is that of the folded texts' Unicode scalars (NFC), not a language's
    /// alphabetical order: ASCII-only texts sort as with SQLite's `NOCASE`, and an accented letter sorts
    /// after `z`.
    public static let unicodeCaseInsensitive = Collation.utf8("UNICODE_NOCASE") {
        UnicodeFolding.compare($0, $1, accents: false)
    }

    /// `UNICODE_NOCASE_NOACCENT`: Unicode case- and accent-insensitive order, the same in every locale.
    ///
    /// As ``unicodeCaseInsensitive``, and accents are ignored too: letters are compared by their base letter,
    /// without the combining diacritical marks (U+0300–U+036F and the other combining diacritical blocks) of
    /// their canonical decomposition. So `'Émile' = 'emile'`, `'Crème Brûlée' = 'creme brulee'`, `'İ' = 'i'`
    /// and `ı` stays distinct from `i`. Marks of other kinds (Indic vowel signs, Hebrew points) and letters
    /// that Unicode does not decompose (`ø`, `ł`, `æ`) are kept. An accented letter sorts with its base letter.
    public static let unicodeCaseAndAccentInsensitive = Collation.utf8("UNICODE_NOCASE_NOACCENT") {
        UnicodeFolding.compare($0, $1, accents: true)
    }
}

/// A collation added to one connection, held by SQLite like a ``FunctionBox``. Each form is a non-optional
/// field of its own, so that a comparison borrows it: neither copied out of an enum nor retained.
final class CollationBox {
    let utf8: @Sendable (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> ComparisonResult
    let strings: @Sendable (String, String) -> ComparisonResult
    /// The connection's interrupt handle and handle, for ``compareWhileInterrupted(_:_:asStrings:)``.
    let interrupts: InterruptHandle
    let database: OpaquePointer

    init(_ comparison: Collation.Comparison, interrupts: InterruptHandle, database: OpaquePointer) {
        switch comparison {
        case .utf8(let compare): (utf8, strings) = (compare, { _, _ in .orderedSame })
        case .strings(let compare): (utf8, strings) = ({ _, _ in .orderedSame }, compare)
        }
        self.interrupts = interrupts
        self.database = database
    }

    /// Compares two values while the connection's interrupt is raised: "equal" at once, without calling the
    /// collation, for a read; the collation's answer for a write.
    ///
    /// SQLite's sorter compares without looking at interrupts, so a sort of millions of rows would run its
    /// comparisons to the end. An interrupted statement's result is never delivered: SQLite's flag is raised again
    /// here, and `RawStatement.step()` fails a step that returns a row while the flag is raised. That holds for
    /// reads only: a comparison that places a row in an index must be exact, so while the connection holds a write
    /// transaction the collation is always called (each call is short; the statement stops at SQLite's next check).
    /// Out of line, so that the comparison callbacks' usual path stays a plain call of the collation.
    @inline(never) func compareWhileInterrupted(
        _ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>, asStrings: Bool
    ) -> Int32 {
        guard sqlite3_txn_state(database, nil) == SQLITE_TXN_WRITE else {
            sqlite3_interrupt(database)
            return 0
        }
        let result =
            asStrings
            ? strings(String(decoding: first, as: UTF8.self), String(decoding: second, as: UTF8.self))
            : utf8(first, second)
        return Int32(truncatingIfNeeded: result.rawValue)
    }
}

private typealias CompareCallback =
    @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32

@inline(__always) private func buffer(_ bytes: UnsafeRawPointer?, _ count: Int32) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: bytes?.assumingMemoryBound(to: UInt8.self), count: bytes == nil ? 0 : Int(max(count, 0)))
}

private let compareUTF8: CompareCallback = { box, firstCount, first, secondCount, second in
    guard let box else { return 0 }
    return Unmanaged<CollationBox>.fromOpaque(box)._withUnsafeGuaranteedRef { box in
        let (left, right) = (buffer(first, firstCount), buffer(second, secondCount))
        if box.interrupts.isRaised { return box.compareWhileInterrupted(left, right, asStrings: false) }
        return Int32(truncatingIfNeeded: box.utf8(left, right).rawValue)
    }
}

private let compareStrings: CompareCallback = { box, firstCount, first, secondCount, second in
    guard let box else { return 0 }
    return Unmanaged<CollationBox>.fromOpaque(box)._withUnsafeGuaranteedRef { box in
        if box.interrupts.isRaised {
            return box.compareWhileInterrupted(
                buffer(first, firstCount), buffer(second, secondCount), asStrings: true)
        }
        let left = String(decoding: buffer(first, firstCount), as: UTF8.self)
        let right = String(decoding: buffer(second, secondCount), as: UTF8.self)
        return Int32(truncatingIfNeeded: box.strings(left, right).rawValue)
    }
}

extension Connection {
    /// Adds a collation, or replaces the collation of the same name.
    ///
    /// - Parameter collation: The collation.
    /// - Throws: ``SQLiteError/Kind/misuse`` for an empty name or one with a NUL character; an SQLite error with
    ///   code ``ResultCode/busy`` when a collation is replaced while a statement runs.
    public func add(collation: Collation) throws(SQLiteError) {
        try requireOpen()
        try checkCollationName(collation.name)
        let callback: CompareCallback
        switch collation.comparison {
        case .utf8: callback = compareUTF8
        case .strings: callback = compareStrings
        }
        let box = Unmanaged.passRetained(
            CollationBox(collation.comparison, interrupts: interruptHandle, database: handle))
        let code = sqlite3_create_collation_v2(
            handle, collation.name, SQLITE_UTF8, box.toOpaque(), callback, releaseBox)
        guard code == SQLITE_OK else {
            box.release()  // unlike for functions, SQLite does not call the destructor when this fails
            throw registrationError(code, name: collation.name)
        }
    }

    /// Removes the collation with this name, if there is one.
    ///
    /// - Parameter name: The collation's name.
    /// - Throws: ``SQLiteError/Kind/misuse`` for an invalid name; an SQLite error with code
    ///   ``ResultCode/busy`` while a statement runs.
    public func removeCollation(named name: String) throws(SQLiteError) {
        try requireOpen()
        try checkCollationName(name)
        let code = sqlite3_create_collation_v2(handle, name, SQLITE_UTF8, nil, nil, nil)
        guard code == SQLITE_OK else { throw registrationError(code, name: name) }
    }

    private func checkCollationName(_ name: String) throws(SQLiteError) {
        if !name.isEmpty && !name.contains("\0") { return }
        var error = SQLiteError(.misuse, message: "a collation name must be non-empty and have no NUL character")
        error.function = name
        throw error
    }

    /// The collation a table's column declares (`BINARY` when it declares none), or `nil` when there is no such
    /// column. `PRAGMA table_xinfo` does not report collations; `sqlite3_table_column_metadata` does.
    func declaredCollation(table: String, column: String) -> String? {
        var collation: UnsafePointer<CChar>?
        let code = sqlite3_table_column_metadata(handle, "main", table, column, nil, &collation, nil, nil, nil)
        guard code == SQLITE_OK, let collation else { return nil }
        return String(cString: collation)
    }
}

extension SharedConnection {
    /// Adds a collation to the owned connection; see ``Connection/add(collation:)``.
    ///
    /// - Parameter collation: The collation.
    /// - Throws: As ``Connection/add(collation:)``; `CancellationError`.
    public func add(collation: Collation) async throws {
        try await withConnection { connection in try connection.add(collation: collation) }
    }

    /// Removes a collation from the owned connection; see ``Connection/removeCollation(named:)``.
    ///
    /// - Parameter name: The collation's name.
    /// - Throws: As ``Connection/removeCollation(named:)``; `CancellationError`.
    public func removeCollation(named name: String) async throws {
        try await withConnection { connection in try connection.removeCollation(named: name) }
    }
}

extension ConnectionPool {
    /// Adds a collation to every connection of the pool, the writer and each reader.
    ///
    /// - Parameter collation: The collation.
    /// - Throws: As ``Connection/add(collation:)``; `CancellationError`.
    public func add(collation: Collation) async throws {
        for connection in connections { try await connection.add(collation: collation) }
    }

    /// Removes a collation from every connection of the pool.
    ///
    /// - Parameter name: The collation's name.
    /// - Throws: As ``Connection/removeCollation(named:)``; `CancellationError`.
    public func removeCollation(named name: String) async throws {
        for connection in connections { try await connection.removeCollation(named: name) }
    }
}
