import CSQLiteSwiftly

extension Row {
    /// Whether the column at `index` holds NULL (an index out of range counts as NULL).
    func isNull(at index: Int) -> Bool {
        guard index >= 0 && index < Int(columnCount) else { return true }
        return sqlite3_column_type(statement, Int32(truncatingIfNeeded: index)) == SQLITE_NULL
    }
}
