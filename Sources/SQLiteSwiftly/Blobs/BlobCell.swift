/// One blob's place: a row's column in a table of the main database, with names compared as SQLite compares
/// identifiers (ASCII letters without case).
struct BlobCell: Equatable {
    let table: String
    let column: String
    let rowID: Int64

    init(table: String, column: String, rowID: Int64) {
        self.table = table.sqlIdentifierKey
        self.column = column.sqlIdentifierKey
        self.rowID = rowID
    }
}
