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
    public func fetchRelated<Parent: TableModel, Child: TableModel>(
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
    public func fetchRelated<Parent: TableModel, Child: TableModel>(
        _ relation: ToOneRelation<Parent, Child>, of parents: [Parent], where condition: SQL? = nil,
        orderBy order: SQL? = nil
    ) throws -> [Child?] {
        var children = [Child?](repeating: nil, count: parents.count)
        try forEachRelated(relation.path, of: parents, where: condition, orderBy: order) { (parent, child: Child) in
            if case .none = children[parent] { children[parent] = child }
        }
        return children
    }

    /// Reads the children of `parents` along `path` and calls `body` with each one and its parent's position.
    func forEachRelated<Parent: TableModel, Child: TableModel>(
        _ path: RelationPath, of parents: [Parent], where condition: SQL?, orderBy order: SQL?,
        _ body: (Int, Child) -> Void
    ) throws {
        let query = try RelatedRowsQuery(
            path.resolve(Parent.self, Child.self), parent: Parent.self, child: Child.self, where: condition,
            orderBy: order, parameterLimit: limit(.parameterNumber))
        guard !parents.isEmpty else { return }
        let chunks = stride(from: 0, to: parents.count, by: query.largestChunk).map {
            parents[$0..<min($0 + query.largestChunk, parents.count)]
        }
        func read() throws {
            for chunk in chunks { try readRelated(query, of: chunk, body) }
        }
        // Chunks read one snapshot: a transaction when none is open.
        if chunks.count > 1 && !isInTransaction {
            try transaction(.deferred) { try read() }
        } else {
            try read()
        }
    }

    /// Runs the query for one chunk of parents.
    private func readRelated<Parent: TableModel, Child: TableModel>(
        _ query: RelatedRowsQuery, of parents: ArraySlice<Parent>, _ body: (Int, Child) -> Void
    ) throws {
        let slots = query.slots(for: parents.count)
        let raw = try cachedStatement(query.sql(slots: slots))
        let position = Int32(query.childColumnCount)
        // A parent's encode(to:) may throw any error: it is kept here and thrown as it was, since the row loop's
        // binding reports only SQLite's errors.
        var encodingFailure: (any Error)?
        do {
            try forEachRow(
                raw, as: Child.self, checkingSchema: true,
                binding: { raw throws(SQLiteError) in
                    do {
                        try query.bind(parents, slots: slots, to: raw)
                    } catch let error as SQLiteError {
                        throw error
                    } catch {
                        encodingFailure = error
                        throw SQLiteError(.misuse, message: "\(Parent.self).encode(to:) failed", sql: raw.sql)
                    }
                }, lift: { $0 }
            ) { row in
                let child = try Child(row: row)
                let offset = Int(sqlite3_column_int64(row.statement, position))
                guard parents.indices.contains(parents.startIndex + offset) else {
                    throw SQLiteError(.misuse, message: "a related row names no parent (\(offset))", sql: raw.sql)
                }
                body(parents.startIndex + offset, child)
            }
        } catch {
            if let encodingFailure { throw encodingFailure }
            throw error
        }
    }
}
