import SQLiteSwiftly

/// Generates ``TableModel`` source code for the tables of an existing database.
///
/// ```swift
/// let db = try Connection(opening: "shop.sqlite", readOnly: true)
/// let source = try ModelGenerator(connection: db).generate(tables: ["Order Details"])
/// ```
///
/// The `sqliteswiftly-models` command is a thin wrapper around this type.
package struct ModelGenerator {
    /// The connection whose schema is read.
    package let connection: Connection

    /// Creates a generator for a connection's `main` database.
    ///
    /// - Parameter connection: An open connection; read-only is enough.
    package init(connection: Connection) {
        self.connection = connection
    }

    /// Generates one Swift source file with a model per table.
    ///
    /// - Parameter tables: The SQL names of the tables to generate, in output order, or `nil` (or empty) for
    ///   every ordinary table in name order. Virtual tables are skipped with a comment.
    /// - Returns: The Swift source.
    /// - Throws: ``SQLiteError`` of kind ``SQLiteError/Kind/misuse`` when a requested table does not exist or
    ///   is a virtual table, or any SQLite error while reading the schema.
    package func generate(tables: [String]? = nil) throws -> String {
        let reader = SchemaReader(connection: connection)
        let (available, virtualTables) = try reader.tableNames()
        var skipped: [String] = []
        let names: [String]
        if let tables, !tables.isEmpty {
            // SQLite matches table names ignoring ASCII case; so does --table.
            let resolved = try tables.map { name throws(SQLiteError) -> String in
                if let match = available.first(where: { $0.lowercased() == name.lowercased() }) { return match }
                let isVirtual = virtualTables.contains { $0.lowercased() == name.lowercased() }
                let problem = isVirtual ? "is a virtual table" : "does not exist"
                throw SQLiteError(.misuse, message: "the table \(SwiftLiteral.string(name)) \(problem)")
            }
            var seen: Set<String> = []
            names = resolved.filter { seen.insert($0).inserted }
        } else {
            names = available
            skipped = virtualTables.map { "Skipped virtual table \(SwiftLiteral.string($0))." }
        }
        let schemas = try names.map { name in try reader.table(named: name) }
        return ModelRenderer().render(schemas, skipped: skipped)
    }
}
