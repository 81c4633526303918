/// A relation from one parent row to any number of child rows, as the models' foreign keys declare it: an
/// author's books, a note's tags through a link table.
///
/// Declare it once, usually as a static property of the parent model, and load the children of many parents in
/// one query with ``Connection/fetchRelated(_:of:where:orderBy:)-(ToManyRelation<Parent,Child>,_,_,_)``:
///
/// ```swift
/// extension Author {
///     static let books = ToManyRelation<Author, Book>.hasMany()  // books.author_id REFERENCES authors (id)
/// }
/// let authors = try db.fetchAll(Author.self, "SELECT * FROM authors ORDER BY name")
/// let books = try db.fetchRelated(Author.books, of: authors)  // one array per author, in order
/// ```
///
/// A relation is a description: it is checked against the models' ``Column/references`` at each fetch, and a
/// relation they do not support (no foreign key links the tables, or several do and none was chosen with `via:`)
/// fails there with ``SQLiteError/Kind/unsupportedRelation``.
public struct ToManyRelation<Parent: TableModel, Child: TableModel>: Hashable, Sendable {
    @usableFromInline let path: RelationPath

    /// The children whose foreign key references the parent's table: an author's books.
    ///
    /// - Parameter column: The child's foreign-key column, when it has several that reference the parent's table
    ///   (`editor_id` and `author_id`, both referencing `authors`); `nil` when it has exactly one.
    /// - Returns: The relation.
    public static func hasMany(via column: String? = nil) -> Self {
        Self(path: RelationPath(kind: .childReferences(column: column)))
    }

    /// The children that a link table pairs with the parent: a note's tags through `note_tags`, whose foreign keys
    /// reference the notes' and the tags' tables.
    ///
    /// - Parameters:
    ///   - link: The model of the link table.
    ///   - parentColumn: The link's foreign key to the parent's table, when it has several; `nil` when it has one.
    ///   - childColumn: The link's foreign key to the child's table, when it has several; `nil` when it has one.
    ///     When the parent and the child share a table (people who follow people), the link has two keys to it:
    ///     name one of them, and the other is taken for the other side.
    /// - Returns: The relation.
    public static func hasMany<Link: TableModel>(
        through link: Link.Type, from parentColumn: String? = nil, to childColumn: String? = nil
    ) -> Self {
        Self(
            path: RelationPath(
                kind: .link(
                    table: Link.tableName, columns: Link.columns, parentColumn: parentColumn, childColumn: childColumn))
        )
    }
}
