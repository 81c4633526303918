/// The errors the change tracker's commit hook and transaction bodies report.
extension ChangeTracker {
    /// The error of an access or a commit refused because the database file was moved.
    static func movedError(while what: String) -> SQLiteError {
        SQLiteError(
            .databaseMoved, code: .ioError,
            message: "the database file was unlinked, renamed or replaced while open; \(what). Open the database "
                + "again at its path")
    }

    /// The error of a `COMMIT` or `END` run inside a transaction body.
    @usableFromInline static func commitInBody(sql: String) -> SQLiteError {
        SQLiteError(
            .misuse,
            message: "COMMIT inside a transaction body would commit part of the body's work: return from the body "
                + "to commit it, or throw to roll it back",
            sql: sql)
    }
}
