/// A table model whose text columns are searched through a full-text index (an SQLite FTS5 table).
///
/// ```swift
/// extension Note: FullTextSearchable {
///     static let fullTextIndex = FullTextIndex(columns: ["title", "body"], tokenizer: .porter())
/// }
/// ```
///
/// ``Connection/createTable(for:ifNotExists:)`` then creates the model's table, the index (named
/// `<table>_fts` unless ``FullTextIndex/name`` says otherwise) and the triggers that keep it in step with the
/// table on every insert, update and delete, in one transaction; ``Connection/search(_:matching:where:orderBy:weights:highlight:snippet:limit:offset:)``
/// returns the model's rows that match a ``SearchPattern``, ranked; ``Connection/verify(_:)`` compares the index
/// and its triggers with the database too.
///
/// The index is an *external-content* index: it stores only the index, and reads the text from the model's table
/// when a result needs it (snippets, highlights). Its row ids are the model's: the model needs a single `INTEGER`
/// primary key, the alias of SQLite's row id, which `VACUUM` never renumbers.
///
/// Being searchable is a protocol of its own rather than an optional requirement of ``TableModel``, so that
/// searching a model that declares no index does not compile.
public protocol FullTextSearchable: TableModel {
    /// The model's full-text index: which columns are searched, and how their text is split into words.
    static var fullTextIndex: FullTextIndex { get }
}

/// A full-text index: the text columns an SQLite FTS5 table indexes, with its tokenizer and prefix indexes.
///
/// A ``FullTextSearchable`` model declares one; ``Connection/createFullTextIndex(_:content:ifNotExists:)`` creates one over
/// any table, such as a table of a database the library did not create, or without content (a contentless
/// index, whose text lives elsewhere).
///
/// ```swift
/// FullTextIndex(columns: ["title", "body"], tokenizer: .unicode61(), prefixLengths: [2, 3])
/// ```
public struct FullTextIndex: Hashable, Sendable {
    /// Where an index reads the text of its rows.
    public enum Content: Hashable, Sendable {
        /// An external-content index over a table: triggers keep it in step with the table, and results read
        /// the text from the table. `rowID` names the table's `INTEGER PRIMARY KEY`, or `nil` for the implicit
        /// `rowid` (which `VACUUM` may renumber in a table without such a key, which would break the index).
        case table(String, rowID: String?)
        /// A contentless index: it keeps only the index. The caller inserts each row's text with its row id and
        /// must give the same text again to remove it (see ``Connection/createFullTextIndex(_:content:ifNotExists:)``);
        /// results have row ids and ranks but no text, so no snippets or highlights.
        case none
    }

    /// The index's table name, or `nil` for the default: the content table's name followed by `_fts`.
    public var name: String?
    /// The indexed columns, in order; names of the content table's columns.
    public var columns: [String]
    /// How text is split into the words that are indexed and searched.
    public var tokenizer: FullTextTokenizer
    /// The lengths of the prefix indexes (1 to 999 characters), which make prefix searches of those lengths
    /// (`"sea"*`, as ``SearchPattern/Mode/prefixes`` writes) faster at the cost of a larger index.
    public var prefixLengths: [Int]

    /// Creates an index declaration.
    ///
    /// - Parameters:
    ///   - columns: The indexed columns, in order.
    ///   - tokenizer: How text is split into words; ``FullTextTokenizer/unicode61(removingDiacritics:tokenCharacters:separators:)``
    ///     (every script, case folded, accents removed) by default.
    ///   - prefixLengths: The lengths of the prefix indexes, none by default.
    ///   - name: The index's table name, or `nil` for `<content table>_fts`.
    public init(
        columns: [String], tokenizer: FullTextTokenizer = .unicode61(), prefixLengths: [Int] = [], name: String? = nil
    ) {
        self.columns = columns
        self.tokenizer = tokenizer
        self.prefixLengths = prefixLengths
        self.name = name
    }

    /// The index's table name over a content table (`<table>_fts` unless ``name`` is set).
    ///
    /// - Parameter table: The content table.
    /// - Returns: ``name``, or the default name.
    public func tableName(over table: String) -> String {
        name ?? table + "_fts"
    }
}

/// An index with everything that creating, checking and searching it needs: its name and where its text is.
struct ResolvedFullTextIndex: Hashable {
    var name: String
    var declaration: FullTextIndex
    var content: FullTextIndex.Content

    var columns: [String] { declaration.columns }

    /// The content table, or `nil` for a contentless index.
    var contentTable: String? {
        if case .table(let table, _) = content { return table }
        return nil
    }

    /// The content table's row-id column as SQL: the declared key, or `rowid`.
    var rowIDExpression: String {
        if case .table(_, let rowID?) = content { return rowID.quotedSQLIdentifier }
        return "rowid"
    }

    /// A model's index: over the model's table, whose single `INTEGER` primary key is the row id.
    static func of<Model: FullTextSearchable>(_ type: Model.Type) throws(SQLiteError) -> ResolvedFullTextIndex {
        let keys = Model.columns.filter(\.isPrimaryKey)
        guard keys.count == 1, let key = keys.first, key.type == .integer else {
            var error = SQLiteError(
                .misuse,
                message: "\(Model.self) declares a full-text index but no single INTEGER primary key: the index keeps "
                    + "the table's row ids, and only an INTEGER PRIMARY KEY keeps them from being renumbered by VACUUM")
            error.table = Model.tableName
            throw error
        }
        let index = ResolvedFullTextIndex(
            name: Model.fullTextIndex.tableName(over: Model.tableName), declaration: Model.fullTextIndex,
            content: .table(Model.tableName, rowID: key.name))
        try index.check(against: Model.columns.map(\.name))
        return index
    }

    /// An index over any table, or a contentless one, which must be named.
    static func standalone(_ index: FullTextIndex, content: FullTextIndex.Content) throws(SQLiteError)
        -> ResolvedFullTextIndex
    {
        let name: String
        switch content {
        case .table(let table, _): name = index.tableName(over: table)
        case .none:
            guard let given = index.name else {
                throw SQLiteError(.misuse, message: "a contentless full-text index needs a name")
            }
            name = given
        }
        let resolved = ResolvedFullTextIndex(name: name, declaration: index, content: content)
        try resolved.check(against: nil)
        return resolved
    }

    /// Refuses what FTS5 would refuse with a vaguer message, or what would make the generated SQL wrong.
    func check(against tableColumns: [String]?) throws(SQLiteError) {
        var problem: String?
        let reserved: Set<String> = ["rank", "rowid", name.sqlIdentifierKey]
        let keys = columns.map(\.sqlIdentifierKey)
        if name.isEmpty || name.contains("\0") {
            problem = "the full-text index has an empty name or a NUL character in its name"
        } else if columns.isEmpty {
            problem = "the full-text index \"\(name)\" declares no column"
        } else if let column = columns.first(where: { $0.isEmpty || $0.contains("\0") }) {
            problem = "the full-text index \"\(name)\" declares the column \"\(column)\", an empty name or one with NUL"
        } else if let column = columns.first(where: { reserved.contains($0.sqlIdentifierKey) }) {
            problem = "the full-text index \"\(name)\" cannot have a column named \"\(column)\": FTS5 reserves it"
        } else if Set(keys).count != keys.count {
            problem = "the full-text index \"\(name)\" declares a column twice"
        } else if let tableColumns,
            let column = columns.first(where: { !tableColumns.map(\.sqlIdentifierKey).contains($0.sqlIdentifierKey) })
        {
            problem = "the full-text index \"\(name)\" indexes \"\(column)\", which is not a column of its table"
        } else if let length = declaration.prefixLengths.first(where: { !(1...999).contains($0) }) {
            problem = "the full-text index \"\(name)\" declares a prefix length of \(length), not 1 to 999"
        } else if case .table(let table, let rowID) = content, table.isEmpty || rowID?.isEmpty == true {
            problem = "the full-text index \"\(name)\" has an empty content table or row-id column name"
        } else {
            problem = declaration.tokenizer.problem
        }
        guard let problem else { return }
        var error = SQLiteError(.misuse, message: problem)
        error.table = contentTable ?? name
        throw error
    }
}
