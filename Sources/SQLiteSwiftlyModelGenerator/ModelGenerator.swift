import SQLiteSwiftly

/// Generates Swift row types for the tables and views of an existing database: a ``TableModel`` per table, a
/// read-only ``RowDecodable`` per view.
///
/// ```swift
/// let db = try Connection(opening: "shop.sqlite", readOnly: true)
/// let generated = try ModelGenerator(connection: db).generate(tables: ["Order Details"])
/// print(generated.source)
/// ```
///
/// The `sqliteswiftly-models` command is a thin wrapper around this type.
package struct ModelGenerator {
    /// Choices that change the generated code.
    package struct Options: Hashable, Sendable {
        /// Whether type names put the table's last word in the singular (`Customers` → `Customer`); otherwise
        /// they follow the table's name (`Customers`).
        package var singularTypeNames: Bool
        /// Whether the rows are read once to widen to ``SQLiteValue`` the columns whose stored values their
        /// declared type's Swift type cannot read; otherwise the types come from the declared types alone.
        package var checksStoredValues: Bool
        /// The access level of the generated types and members.
        package var access: AccessLevel
        /// Patterns of table and view names to leave out (`*` and `?` wildcards, ASCII case ignored), besides the
        /// library's own `sqliteswiftly_*` tables, which are always left out (see ``TableFilter``).
        package var excludedTables: [String]

        /// Creates options.
        ///
        /// - Parameters:
        ///   - singularTypeNames: Whether type names are in the singular.
        ///   - checksStoredValues: Whether the rows are read to check the types.
        ///   - access: The access level of the generated types and members.
        ///   - excludedTables: Patterns of table and view names to leave out.
        package init(
            singularTypeNames: Bool = true, checksStoredValues: Bool = true, access: AccessLevel = .internal,
            excludedTables: [String] = []
        ) {
            self.singularTypeNames = singularTypeNames
            self.checksStoredValues = checksStoredValues
            self.access = access
            self.excludedTables = excludedTables
        }
    }

    /// The connection whose schema is read.
    package let connection: Connection
    /// The choices that change the generated code.
    package var options: Options

    /// Creates a generator for a connection's `main` database.
    ///
    /// - Parameters:
    ///   - connection: An open connection; read-only is enough.
    ///   - options: The choices that change the generated code.
    package init(connection: Connection, options: Options = Options()) {
        self.connection = connection
        self.options = options
    }

    /// Generates one Swift source file with a type per table and view.
    ///
    /// - Parameter tables: The SQL names of the tables and views to generate, in output order, or `nil` (or empty)
    ///   for every table in name order, then every view in name order, except those ``Options/excludedTables``
    ///   and the library's own `sqliteswiftly_*` tables match (each listed in a comment). An FTS5 index kept in step with a generated
    ///   table by the triggers the library writes becomes that model's `fullTextIndex`; other virtual tables,
    ///   shadow tables and views whose `SELECT` no longer compiles are then skipped, with a comment and a summary
    ///   line.
    /// - Returns: The source and a summary of what was generated.
    /// - Throws: ``SQLiteError`` of kind ``SQLiteError/Kind/misuse`` when a requested table does not exist or is
    ///   a virtual or shadow table; the SQLite error when a requested view cannot be read; any SQLite error while
    ///   reading the schema.
    package func generate(tables: [String]? = nil) throws -> GeneratedModels {
        let reader = SchemaReader(connection: connection)
        var entries = try reader.entries()
        var schemas: [TableSchema] = []
        var skipped: [String] = []
        if let tables, !tables.isEmpty {
            var seen: Set<String> = []
            for name in tables where seen.insert(name.nameKey).inserted {
                schemas.append(try requested(name, in: entries, reader: reader))
            }
        } else {
            let filter = TableFilter(patterns: options.excludedTables)
            entries.removeAll { entry in
                guard let exclusion = filter.exclusion(of: entry.name) else { return false }
                if entry.type != "shadow" {
                    let kind = entry.type == "virtual" ? "virtual table" : entry.type
                    let why =
                        exclusion.isBookkeeping
                        ? "SQLiteSwiftly's own bookkeeping"
                        : "matches --exclude \(SwiftLiteral.string(exclusion.pattern))"
                    skipped.append("Excluded \(kind) \(SwiftLiteral.string(entry.name)): \(why).")
                }
                return true
            }
            for entry in entries where entry.type == "table" { schemas.append(try reader.table(entry)) }
            for entry in entries where entry.type == "view" {
                do {
                    schemas.append(try reader.view(named: entry.name))
                } catch let error as SQLiteError {
                    skipped.append("Skipped view \(SwiftLiteral.string(entry.name)): \(error.message).")
                }
            }
        }
        // Full-text indexes attach to the tables generated, also when only some were asked for.
        let virtualLines = try FullTextIndexes(connection: connection).attach(entries, to: &schemas, reader: reader)
        if tables?.isEmpty ?? true { skipped += virtualLines }
        if options.checksStoredValues {
            let survey = StoredValueSurvey(connection: connection)
            for index in schemas.indices {
                do {
                    try survey.apply(to: &schemas[index])
                } catch let error as SQLiteError {
                    schemas[index].notes.append(
                        SchemaNote(
                            "rows not checked",
                            detail: "The rows could not be read to check the types: \(error.message)"))
                }
            }
        }
        var taken: Set<String> = []
        let named = schemas.map { schema in
            var name = SwiftIdentifier.typeName(for: schema.name, singular: options.singularTypeNames)
            if SwiftIdentifier.reservedTypeNames.contains(name) { name += "Record" }
            return (schema: schema, typeName: SwiftIdentifier.unique(name, in: &taken))
        }
        let types = named.map { schema, typeName in
            GeneratedModels.GeneratedType(
                name: schema.name, typeName: typeName, isView: schema.kind == .view,
                summary: Self.summary(of: schema, typeName: typeName))
        }
        let renderer = ModelRenderer(access: options.access)
        return GeneratedModels(source: renderer.render(named, skipped: skipped), types: types, skipped: skipped)
    }

    /// The schema of a table or view named with `--table`, matching names as SQLite does (ASCII case ignored).
    private func requested(
        _ name: String, in entries: [SchemaReader.Entry], reader: SchemaReader
    ) throws -> TableSchema {
        guard let entry = entries.first(where: { $0.name.nameKey == name.nameKey }) else {
            throw SQLiteError(.misuse, message: "the table \(SwiftLiteral.string(name)) does not exist")
        }
        switch entry.type {
        case "table": return try reader.table(entry)
        case "view":
            do {
                return try reader.view(named: entry.name)
            } catch var error as SQLiteError {
                // The pragma's error names the missing table; say which view needs it.
                error.table = error.table ?? entry.name
                error.message = "the view \(SwiftLiteral.string(entry.name)) cannot be read: \(error.message)"
                throw error
            }
        case "virtual":
            throw SQLiteError(.misuse, message: "the table \(SwiftLiteral.string(name)) is a virtual table")
        default:
            throw SQLiteError(
                .misuse, message: "the table \(SwiftLiteral.string(name)) is a shadow table of a virtual table")
        }
    }

    /// `table "Orders" -> Order: 6 columns; left as comments: CHECK on "Status"`.
    static func summary(of schema: TableSchema, typeName: String) -> String {
        let readOnly = schema.kind == .view ? " (read-only)" : ""
        let count = schema.columns.count
        var line = "\(schema.kind.rawValue) \(SwiftLiteral.string(schema.name)) -> \(typeName)\(readOnly): "
        line += count == 1 ? "1 column" : "\(count) columns"
        if let index = schema.fullTextIndex {
            line += "; full-text index \(SwiftLiteral.string(index.tableName(over: schema.name)))"
        }
        if !schema.notes.isEmpty {
            line += "; left as comments: " + schema.notes.map(\.summary).joined(separator: ", ")
        }
        let widened = schema.columns.filter { $0.widening != nil }.map { SwiftLiteral.string($0.name) }
        if !widened.isEmpty {
            line += "; SQLiteValue because of the stored values: " + widened.joined(separator: ", ")
        }
        return line
    }
}

/// The result of ``ModelGenerator/generate(tables:)``: the Swift source and what it holds.
package struct GeneratedModels: Hashable, Sendable {
    /// One generated type.
    package struct GeneratedType: Hashable, Sendable {
        /// The SQL name of the table or view, exactly.
        package var name: String
        /// The Swift type's name.
        package var typeName: String
        /// Whether the type is a view's read-only ``RowDecodable`` type rather than a table's ``TableModel``.
        package var isView: Bool
        /// `table "Orders" -> Order: 6 columns; left as comments: CHECK on "Status"`.
        package var summary: String
    }

    /// The complete Swift source file.
    package var source: String
    /// The generated types, in output order.
    package var types: [GeneratedType]
    /// One line per table or view that was skipped (virtual tables, views that no longer compile).
    package var skipped: [String]

    /// One line per generated type, then one per skipped table or view.
    package var summary: [String] { types.map(\.summary) + skipped }
    /// How many tables got a ``TableModel`` type.
    package var tableCount: Int { types.filter { !$0.isView }.count }
    /// How many views got a ``RowDecodable`` type.
    package var viewCount: Int { types.filter(\.isView).count }
}
