extension Connection {
    /// Verifies a model against the live schema once per statement (placeholder until schema verification).
    @usableFromInline func verifyOnce<Model: TableModel>(_ type: Model.Type) throws(SQLiteError) {}
}
