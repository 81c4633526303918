// Searching a model's full-text index: ranked rows of the model, with snippets and highlights.

extension Connection {
    /// Returns the model's rows that match a pattern, best first: ranked by FTS5's `bm25`, with the extract and
    /// highlights asked for, a page at a time.
    ///
    /// ```swift
    /// let pattern = try SearchPattern(typed, mode: .prefixes)
    /// let page = try db.search(
    ///     Note.self, matching: pattern, where: "archived = 0", orderBy: "pinned DESC, rank",
    ///     weights: ["title": 5], snippet: SearchSnippet(open: "[", close: "]"), limit: 20)
    /// ```
    ///
    /// `condition` and `order` are SQL about the model's table, whose columns they name directly; `rank` is the
    /// rank (lower is better), so the order can mix it with the model's columns. Their interpolated values are
    /// bound, as are the pattern, the weights and the markers. Sorted by `rank` alone, FTS5 sorts the matches
    /// itself and makes snippets and highlights only for the rows returned.
    ///
    /// - Parameters:
    ///   - type: The searchable model.
    ///   - pattern: What to search for; `nil` (a pattern made from text without a word) finds nothing.
    ///   - condition: SQL that follows `WHERE`, about the model's table, or `nil`.
    ///   - order: SQL that follows `ORDER BY`; `rank` by default.
    ///   - weights: The weight of each indexed column in the rank, by column name; 1 for a column not named. A
    ///     match in a column of weight 10 counts as much as ten in a column of weight 1.
    ///   - highlight: Markers around the matched words in each indexed column's whole text, or `nil`.
    ///   - snippet: How to make an extract around the matched words, or `nil`.
    ///   - limit: The most rows to return, or `nil` for all.
    ///   - offset: The number of rows to skip first, for the pages after the first.
    /// - Returns: The matching rows with their ranks, extracts and highlights.
    /// - Throws: ``SQLiteError``: ``SQLiteError/Kind/invalidSearchPattern`` for a raw pattern FTS5 cannot read;
    ///   ``SQLiteError/Kind/misuse`` for a weight or snippet column that is not indexed, a weight that is not
    ///   finite, a snippet of more than 64 words, a negative limit or offset; ``SQLiteError/Kind/schemaMismatch``
    ///   when the model, or its index, does not match the database; ``SQLiteError/Kind/tokenizerFailed`` when a
    ///   Swift tokenizer throws; SQLite's errors; what the model's initializer throws.
    public func search<Model: FullTextSearchable>(
        _ type: Model.Type, matching pattern: SearchPattern?, where condition: SQL? = nil, orderBy order: SQL = "rank",
        weights: [String: Double] = [:], highlight: SearchHighlight? = nil, snippet: SearchSnippet? = nil,
        limit: Int? = nil, offset: Int = 0
    ) throws -> [SearchResult<Model>] {
        guard let pattern else { return [] }
        let index = try ResolvedFullTextIndex.of(type)
        let query = try SearchQuery(
            index: index, table: Model.tableName, columns: Model.columns.map(\.name), pattern: pattern,
            condition: condition, order: order, weights: weights, highlight: highlight, snippet: snippet,
            limit: limit, offset: offset
        ).sql
        let raw: RawStatement
        do {
            raw = try cachedStatement(query.text)
        } catch {
            try verifyOnce(type)  // a dropped or changed index is a schema mismatch, named as such
            throw error
        }
        if raw.schemaVerifiedAt != raw.reprepareCount && !raw.isMidway {
            try verifyOnce(type)
            raw.schemaVerifiedAt = raw.reprepareCount
        }
        do {
            var results: [SearchResult<Model>] = []
            let layout = SearchResult<Model>.Layout()
            try forEachRow(
                raw, as: SearchResult<Model>.self,
                binding: { raw throws(SQLiteError) in try raw.bindIfNeeded(query.arguments) }, lift: { $0 }
            ) { row in
                results.append(try SearchResult(row: row, layout: layout))
            }
            return results
        } catch let error as SQLiteError where pattern.isRaw && error.kind == .sqlite && error.code == .error {
            // The statement compiled: a plain SQLITE_ERROR while it runs is FTS5 refusing the query.
            var invalid = error
            invalid.kind = .invalidSearchPattern
            throw invalid
        }
    }
}

/// The SQL of a search: the index in a subquery, joined to the model's table by row id, so that a condition or an
/// order names the model's columns without ambiguity and the rank as `rank`.
struct SearchQuery {
    let sql: SQL

    init(
        index: ResolvedFullTextIndex, table: String, columns: [String], pattern: SearchPattern, condition: SQL?,
        order: SQL, weights: [String: Double], highlight: SearchHighlight?, snippet: SearchSnippet?, limit: Int?,
        offset: Int
    ) throws(SQLiteError) {
        let fts = index.name.quotedSQLIdentifier
        let source = table.quotedSQLIdentifier
        var inner: SQL = "SELECT rowid AS \"search: rowid\", rank AS \"rank\""
        var outer = SQL(verbatim: columns.map { "\(source).\($0.quotedSQLIdentifier)" }.joined(separator: ", "))
        outer = outer + ", \"search\".\"rank\" AS \"search: rank\""
        if let snippet {
            let column = try Self.position(of: snippet.column, in: index) ?? -1
            guard (1...64).contains(snippet.wordCount) else {
                throw Self.misuse("a snippet holds 1 to 64 words, not \(snippet.wordCount)", index)
            }
            inner =
                inner + ", snippet(\(SQL(verbatim: fts)), \(column), \(snippet.open), \(snippet.close), "
                + "\(snippet.ellipsis), \(snippet.wordCount)) AS \"snippet\""
            outer = outer + ", \"search\".\"snippet\" AS \"search: snippet\""
        } else {
            outer = outer + ", NULL AS \"search: snippet\""
        }
        for number in index.columns.indices {
            let alias = "\"search: highlight \(number + 1)\""
            if let highlight {
                inner =
                    inner + SQL(verbatim: ", highlight(\(fts), \(number), ")
                    + "\(highlight.open), \(highlight.close)) AS \(SQL(verbatim: alias))"
                outer = outer + SQL(verbatim: ", \"search\".\(alias) AS \(alias)")
            } else {
                outer = outer + SQL(verbatim: ", NULL AS \(alias)")
            }
        }
        inner = inner + SQL(verbatim: " FROM \(fts) WHERE \(fts) MATCH ") + "\(pattern)"
        if let ranking = try Self.ranking(weights, index) { inner = inner + " AND rank MATCH \(ranking)" }
        let key = "\(source).\(index.rowIDExpression)"
        var sql =
            "SELECT " + outer + " FROM (" + inner + ") AS \"search\" JOIN "
            + SQL(verbatim: "\(source) ON \(key) = \"search\".\"search: rowid\"")
        if let condition { sql = sql + " WHERE (" + condition + ")" }
        sql = sql + " ORDER BY " + order
        guard (limit ?? 0) >= 0, offset >= 0 else {
            throw Self.misuse("a search's limit and offset cannot be negative", index)
        }
        if limit != nil || offset > 0 { sql = sql + " LIMIT \(limit ?? -1) OFFSET \(offset)" }
        self.sql = sql
    }

    /// The position of an indexed column, or `nil` for no column.
    private static func position(of column: String?, in index: ResolvedFullTextIndex) throws(SQLiteError) -> Int? {
        guard let column else { return nil }
        guard let position = index.columns.firstIndex(where: { $0.sqlIdentifierKey == column.sqlIdentifierKey }) else {
            throw misuse("\"\(column)\" is not a column of the full-text index \"\(index.name)\"", index)
        }
        return position
    }

    /// The rank function with the columns' weights (`bm25(10.0, 1.0)`), or `nil` when every weight is 1.
    private static func ranking(_ weights: [String: Double], _ index: ResolvedFullTextIndex) throws(SQLiteError)
        -> String?
    {
        guard !weights.isEmpty else { return nil }
        var values = Array(repeating: 1.0, count: index.columns.count)
        for (column, weight) in weights {
            guard weight.isFinite else { throw misuse("the weight of \"\(column)\" is not a finite number", index) }
            values[try position(of: column, in: index) ?? 0] = weight
        }
        return "bm25(" + values.map { "\($0)" }.joined(separator: ", ") + ")"
    }

    private static func misuse(_ message: String, _ index: ResolvedFullTextIndex) -> SQLiteError {
        var error = SQLiteError(.misuse, message: message)
        error.table = index.name
        return error
    }
}
