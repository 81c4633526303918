import SQLiteSwiftly

/// The virtual tables of a schema. An FTS5 index over a generated table, by its `INTEGER` primary key and with the
/// triggers the library writes, becomes that model's `fullTextIndex` (``TableSchema/fullTextIndex``): the model's
/// `createTable(for:)` creates it the same way. Any other virtual table is skipped, with a line saying what it is.
struct FullTextIndexes {
    let connection: Connection

    /// Attaches each index kept in step with a generated table to its schema, removing the notes on its triggers,
    /// which the model now declares; returns one comment line per virtual table.
    func attach(_ entries: [SchemaReader.Entry], to schemas: inout [TableSchema], reader: SchemaReader) throws
        -> [String]
    {
        let shadows = entries.filter { $0.type == "shadow" }.map(\.name)
        var lines: [String] = []
        for entry in entries where entry.type == "virtual" {
            let own = shadows.filter { $0.nameKey.hasPrefix(entry.name.nameKey + "_") }
            let shadowText =
                own.isEmpty ? "" : " and its shadow tables \(own.map(SwiftLiteral.string).joined(separator: ", "))"
            let name = SwiftLiteral.string(entry.name)
            guard let declaration = try connection.fullTextIndexDeclaration(named: entry.name) else {
                let module = try reader.module(ofVirtualTable: entry.name).map { " (\($0))" } ?? ""
                lines.append("Skipped virtual table \(name)\(module)\(shadowText): a model cannot create them.")
                continue
            }
            switch try attach(declaration, to: &schemas) {
            case .attached(let table):
                lines.append(
                    "Full-text index \(name) (fts5)\(shadowText): declared by the model of \(SwiftLiteral.string(table))."
                )
            case .skipped(let reason):
                let columns = declaration.index.columns.map(SwiftLiteral.string).joined(separator: ", ")
                lines.append(
                    "Skipped virtual table \(name) (fts5 on \(columns), \(reason))\(shadowText): a model cannot create "
                        + "it; search it with SQL and a SearchPattern.")
            }
        }
        return lines
    }

    private enum Outcome {
        case attached(table: String)
        case skipped(reason: String)
    }

    private func attach(
        _ declaration: (index: FullTextIndex, content: FullTextIndex.Content?), to schemas: inout [TableSchema]
    ) throws -> Outcome {
        let (index, content) = declaration
        guard let content else { return .skipped(reason: "which keeps its own copy of the text") }
        guard case .table(let table, let rowID) = content else { return .skipped(reason: "contentless") }
        let over = "over \(SwiftLiteral.string(table))"
        guard let position = schemas.firstIndex(where: { $0.kind == .table && $0.name.nameKey == table.nameKey }) else {
            return .skipped(reason: "\(over), which is not generated")
        }
        let keys = schemas[position].columns.filter(\.isPrimaryKey)
        guard let rowID, keys.count == 1, let key = keys.first, key.name.nameKey == rowID.nameKey,
            key.mapping.declaredType == .integer
        else {
            return .skipped(reason: "\(over), not by a single INTEGER primary key")
        }
        guard try connection.fullTextIndexDifferences(index, content: content).isEmpty else {
            return .skipped(reason: "\(over), without the triggers the library writes")
        }
        var declared = index
        if index.name?.nameKey == (schemas[position].name + "_fts").nameKey { declared.name = nil }
        schemas[position].fullTextIndex = declared
        let triggers = Set(
            ["_ai", "_ad", "_au"].map { "trigger \(SwiftLiteral.string((index.name ?? "") + $0))".nameKey })
        schemas[position].notes.removeAll { triggers.contains($0.summary.nameKey) }
        return .attached(table: schemas[position].name)
    }
}

extension ModelRenderer {
    /// `FullTextIndex(columns: [...], ...)` with only the arguments that differ from the defaults, and SQLite's own
    /// tokenizers by their shorthand when their arguments are the defaults.
    func fullTextIndexExpression(_ index: FullTextIndex) -> String {
        var arguments = ["columns: [\(index.columns.map(SwiftLiteral.string).joined(separator: ", "))]"]
        let shorthands: [(FullTextTokenizer, String)] = [
            (.unicode61(), ".unicode61()"), (.porter(), ".porter()"), (.trigram(), ".trigram()"),
            (.ascii(), ".ascii()"),
        ]
        if index.tokenizer != .unicode61() {
            let tokenizer = index.tokenizer
            let written =
                shorthands.first { $0.0 == tokenizer }?.1
                ?? "FullTextTokenizer(\(SwiftLiteral.string(tokenizer.name)), arguments: ["
                + tokenizer.arguments.map(SwiftLiteral.string).joined(separator: ", ") + "])"
            arguments.append("tokenizer: \(written)")
        }
        if !index.prefixLengths.isEmpty {
            arguments.append("prefixLengths: [\(index.prefixLengths.map(String.init).joined(separator: ", "))]")
        }
        if let name = index.name { arguments.append("name: \(SwiftLiteral.string(name))") }
        return "FullTextIndex(\(arguments.joined(separator: ", ")))"
    }
}
