/// A relation from one parent row to at most one child row, as the models' foreign keys declare it: a book's
/// author, a user's profile.
///
/// Load the children of many parents in one query with
/// ``Connection/fetchRelated(_:of:where:orderBy:)-(ToOneRelation<Parent,Child>,_,_,_)``:
///
/// ```swift
/// extension Book {
///     static let author = ToOneRelation<Book, Author>.belongsTo()  // books.author_id REFERENCES authors (id)
/// }
/// let authors = try db.fetchRelated(Book.author, of: books)  // [Author?], one per book
/// ```
///
/// It is checked against the models' ``Column/references`` at each fetch, as ``ToManyRelation`` is.
public struct ToOneRelation<Parent: TableModel, Child: TableModel>: Hashable, Sendable {
    @usableFromInline let path: RelationPath

    /// The child row that the parent's foreign key references: a book's author.
    ///
    /// - Parameter column: The parent's foreign-key column, when it has several that reference the child's table;
    ///   `nil` when it has exactly one.
    /// - Returns: The relation.
    public static func belongsTo(via column: String? = nil) -> Self {
        Self(path: RelationPath(kind: .parentReferences(column: column)))
    }

    /// The child row whose foreign key references the parent's table: a user's profile. When several children
    /// reference one parent, the first in the query's order is taken.
    ///
    /// - Parameter column: The child's foreign-key column, when it has several that reference the parent's table;
    ///   `nil` when it has exactly one.
    /// - Returns: The relation.
    public static func hasOne(via column: String? = nil) -> Self {
        Self(path: RelationPath(kind: .childReferences(column: column)))
    }
}
