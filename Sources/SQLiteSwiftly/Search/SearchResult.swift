/// One row of a search: the model, its rank, and the extract and highlights asked for.
///
/// ``Connection/search(_:matching:where:orderBy:weights:highlight:snippet:limit:offset:)`` returns them.
public struct SearchResult<Model: FullTextSearchable>: RowDecodable {
    /// The row, as the model.
    public var model: Model
    /// The row's rank: FTS5's `bm25`, negative, lower for better matches. Results are sorted by it unless the
    /// search says otherwise.
    public var rank: Double
    /// The extract around the matched words, when the search asked for one (``SearchSnippet``).
    public var snippet: String?
    /// The text of each indexed column with its matched words marked, by column name, when the search asked for
    /// them (``SearchHighlight``); a NULL column has none.
    public var highlights: [String: String]

    /// The model's columns, then the rank, the snippet and one highlight per indexed column.
    public static var expectedColumnNames: [String]? {
        (Model.expectedColumnNames ?? Model.columns.map(\.name)) + ["search: rank", "search: snippet"]
            + Model.fullTextIndex.columns.indices.map { "search: highlight \($0 + 1)" }
    }

    /// Reads a result row of a search.
    ///
    /// - Parameter row: The current row.
    /// - Throws: What the model's initializer throws; a conversion error for the rank or the texts.
    public init(row: borrowing Row) throws {
        try self.init(row: row, layout: Layout())
    }

    /// Where the columns after the model's are, worked out once per search rather than once per row.
    struct Layout {
        /// The rank's column: the first after the model's.
        let rank = Model.expectedColumnNames?.count ?? Model.columns.count
        /// The indexed columns, whose highlights follow the rank and the snippet.
        let indexed = Model.fullTextIndex.columns
    }

    init(row: borrowing Row, layout: Layout) throws {
        model = try Model(row: row)
        rank = try row[layout.rank]
        snippet = try row[layout.rank + 1]
        highlights = [:]
        for (offset, column) in layout.indexed.enumerated() {
            if let text: String = try row[layout.rank + 2 + offset] { highlights[column] = text }
        }
    }
}

extension SearchResult: Sendable where Model: Sendable {}
extension SearchResult: Equatable where Model: Equatable {}
