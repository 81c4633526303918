import CSQLiteSwiftly

// Loading the related rows of many parents in one query per relation (see RelatedRowsQuery for the SQL).

extension Connection {
    /// Loads the children of many parents in one query, grouped by parent: one array per parent, in the parents'
    /// order.
    ///
    /// ```swift
    /// let authors = try db.fetchAll(Author.self, "SELECT * FROM authors ORDER BY name")
    /// let books = try db.fetchRelated(Author.books, of: authors, orderBy: "year")
    /// for (author, books) in zip(authors, books) { print(author.name, books.map(\.title)) }
    /// ```
    ///
    /// The parents' keys are bound as values, and the children are read by one `SELECT` that joins them to the
    /// child's table (and the link table of a many-to-many relation), never one query per parent. Past the
    /// connection's parameter limit (``ConnectionLimit/parameterNumber``), or more than 1,024 parents, the
    /// parents are read in chunks of 1,024, inside one read transaction when none is open, so that every chunk
    /// reads the same snapshot. To read the parents and their children in one snapshot, read both in one
    /// transaction (``transaction(_:_:)`` with ``TransactionKind/deferred``, or a ``SharedConnection/read(_:)``).
    ///
    /// - Parameters:
    ///   - relation: The relation, declared from the models' foreign keys.
    ///   - parents: The parents; their keys are read from their ``TableModel/encode(to:)``.
    ///   - condition: SQL that follows `WHERE`, filtering the children (it may name the child's table and the
    ///     link table); interpolated values are bound.
    ///   - order: SQL that follows `ORDER BY`, ordering each parent's children; interpolated values are bound.
    ///     Without it, each parent's children come in the order SQLite reads them.
    /// - Returns: One array of children per parent, in the order of `parents`.
    /// - Throws: ``SQLiteError/Kind/unsupportedRelation`` when the models' foreign keys do not support the relation
    ///   (checked even when `parents` is empty); the errors of the query, the children's decoding and the parents'
    ///   ``TableModel/encode(to:)``.
    @inlinable public func fetchRelated<Parent: TableModel, Child: TableModel>(
        _ relation: ToManyRelation<Parent, Child>, of parents: [Parent], where condition: SQL? = nil,
        orderBy order: SQL? = nil
    ) throws -> [[Child]] {
        var children = [[Child]](repeating: [], count: parents.count)
        try forEachRelated(relation.path, of: parents, where: condition, orderBy: order) { (parent, child: Child) in
            children[parent].append(child)
        }
        return children
    }

    /// Loads the child of many parents in one query: one optional child per parent, in the parents' order.
    ///
    /// ```swift
    /// let authors = try db.fetchRelated(Book.author, of: books)  // [Author?]
    /// ```
    ///
    /// Read as ``fetchRelated(_:of:where:orderBy:)-(ToManyRelation<Parent,Child>,_,_,_)`` reads; a parent whose
    /// key is NULL, or that no child matches, gets `nil`. When several children match one parent (a `hasOne`
    /// relation whose foreign key is not unique), the first in the query's order is taken.
    ///
    /// - Parameters:
    ///   - relation: The relation, declared from the models' foreign keys.
    ///   - parents: The parents.
    ///   - condition: SQL that follows `WHERE`, filtering the children; interpolated values are bound.
    ///   - order: SQL that follows `ORDER BY`, deciding which child comes first; interpolated values are bound.
    /// - Returns: One child or `nil` per parent, in the order of `parents`.
    /// - Throws: As ``fetchRelated(_:of:where:orderBy:)-(ToManyRelation<Parent,Child>,_,_,_)``.
    @inlinable public func fetchRelated<Parent: TableModel, Child: TableModel>(
        _ relation: ToOneRelation<Parent, Child>, of parents: [Parent], where condition: SQL? = nil,
        orderBy order: SQL? = nil
    ) throws -> [Child?] {
        var children = [Child?](repeating: nil, count: parents.count)
        try forEachRelated(relation.path, of: parents, where: condition, orderBy: order) { (parent, child: Child) in
            if case .none = children[parent] { children[parent] = child }
        }
        return children
    }

    /// Reads the children of `parents` along `path` and calls `body` with each one and its parent's position (a
    /// child that several parents share, with each of them).
    @inlinable func forEachRelated<Parent: TableModel, Child: TableModel>(
        _ path: RelationPath, of parents: [Parent], where condition: SQL?, orderBy order: SQL?,
        _ body: (Int, Child) -> Void
    ) throws {
        let query = try RelatedRowsQuery(
            path, parent: Parent.self, child: Child.self, where: condition, orderBy: order,
            parameterLimit: limit(.parameterNumber))
        guard !parents.isEmpty else { return }
        let raw = try cachedStatement(query.jsonSQL)
        let positions = ParentPositions(try query.keys(of: parents, through: raw))
        if let json = RelatedRowsQuery.json(positions.distinctKeys) {
            try readRelated(raw, query, positions, body) { raw throws(SQLiteError) in
                try query.bind(json: json, to: raw)
            }
            return
        }
        // Keys JSON cannot hold (blobs): one parameter each, in chunks, which read one snapshot.
        let keys = positions.distinctKeys
        // At least 1: the JSON statement, with one parameter for the keys, compiled under the same limit.
        let chunk = max(query.largestChunk, 1)
        func read() throws {
            var start = 0
            while start < keys.count {
                let end = min(start + chunk, keys.count)
                let slots = query.slots(for: end - start)
                try readRelated(try cachedStatement(query.listSQL(slots: slots)), query, positions, body) {
                    raw throws(SQLiteError) in try query.bind(keys: keys[start..<end], slots: slots, to: raw)
                }
                start = end
            }
        }
        if keys.count > chunk && !isInTransaction {
            try transaction(.deferred) { try read() }
        } else {
            try read()
        }
    }

    /// Runs one related-rows statement and hands each row to the parents whose key it has.
    @inlinable func readRelated<Child: TableModel>(
        _ raw: RawStatement, _ query: RelatedRowsQuery, _ positions: ParentPositions, _ body: (Int, Child) -> Void,
        binding bind: (RawStatement) throws(SQLiteError) -> Void
    ) throws {
        try forEachRow(raw, as: Child.self, checkingSchema: true, binding: bind, lift: { $0 }) { row in
            let child = try Child(row: row)
            let key = try query.key(of: row.statement)
            let found = positions.forEach(matching: key) { position in body(position, child) }
            if !found { throw RelatedRowsQuery.noParent(key, raw) }
        }
    }
}
