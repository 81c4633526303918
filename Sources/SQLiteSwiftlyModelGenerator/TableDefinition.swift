/// The clauses of a `CREATE TABLE` statement that no pragma reports, read from the statement's text.
///
/// SQLite reports columns, keys, indexes and foreign keys through pragmas, but not `CHECK` constraints, column
/// collations, `ON CONFLICT` clauses, deferred foreign keys or the expressions of generated columns: those are
/// found by reading the statement SQLite keeps in `sqlite_schema`. Only the top level of each column or table
/// constraint is read, so a `CHECK` inside a `DEFAULT` expression or a `COLLATE` inside a `CHECK` is not taken for
/// a clause of its own.
struct TableDefinition: Hashable, Sendable {
    /// A clause and the column it belongs to.
    struct Clause: Hashable, Sendable {
        /// The column the clause is written in, or `nil` for a table constraint.
        var column: String?
        /// The clause's text on one line (see each property for what it holds).
        var text: String
    }

    /// A table constraint: `PRIMARY KEY (...)`, `UNIQUE (...)` or `FOREIGN KEY (...) REFERENCES ...`.
    struct Constraint: Hashable, Sendable {
        /// `PRIMARY KEY`, `UNIQUE` or `FOREIGN KEY`.
        var kind: String
        /// The columns in its first parentheses.
        var columns: [String]
        /// The conflict resolution of `ON CONFLICT`, such as `REPLACE`, or `nil`.
        var conflict: String?
        /// Whether a foreign key is `DEFERRABLE INITIALLY DEFERRED` (checked at commit).
        var isDeferred: Bool
    }

    /// `CHECK` constraints, of a column or of the table; the text is the parenthesized expression, as written.
    var checks: [Clause] = []
    /// Column collations; the text is the collation's name (`NOCASE`).
    var collations: [Clause] = []
    /// `ON CONFLICT` clauses of column constraints; the text is the constraint and the clause, such as
    /// `UNIQUE ON CONFLICT IGNORE`.
    var conflictClauses: [Clause] = []
    /// Column foreign keys checked only at commit (`DEFERRABLE INITIALLY DEFERRED`); the text is the
    /// `REFERENCES` clause.
    var deferredForeignKeys: [Clause] = []
    /// The definitions of generated columns, such as `AS ("amount" * 2) VIRTUAL`; the column is never `nil`.
    var generatedColumns: [Clause] = []
    /// The table constraints other than `CHECK`, in the order written.
    var constraints: [Constraint] = []

    /// Reads the clauses of a `CREATE TABLE` statement.
    ///
    /// - Parameter sql: The statement, as stored in `sqlite_schema`. Text that is not a `CREATE TABLE` with a
    ///   column list (`CREATE TABLE ... AS SELECT`) gives no clauses.
    init(sql: String) {
        let tokens = SQLTokenizer.tokens(in: sql)
        guard let open = tokens.firstIndex(where: { $0.isSymbol("(") }),
            !tokens[..<open].contains(where: { $0.isKeyword("AS") })
        else { return }
        let close = SQLTokenizer.matchingParenthesis(in: tokens, from: open)
        guard close > open + 1 else { return }
        for definition in Self.definitions(Array(tokens[(open + 1)..<close])) where !definition.isEmpty {
            read(definition, sql: sql)
        }
    }

    /// The table constraint of kind `kind` on exactly `columns` (compared as SQLite compares names, in any order).
    func constraint(_ kind: String, on columns: [String]) -> Constraint? {
        let keys = Set(columns.map(\.nameKey))
        return constraints.first { $0.kind == kind && Set($0.columns.map(\.nameKey)) == keys }
    }

    /// The column definitions and table constraints: the body split at its top-level commas.
    private static func definitions(_ body: [SQLToken]) -> [[SQLToken]] {
        var result: [[SQLToken]] = [[]]
        var depth = 0
        for token in body {
            if token.isSymbol("(") { depth += 1 }
            if token.isSymbol(")") { depth -= 1 }
            if depth == 0 && token.isSymbol(",") {
                result.append([])
            } else {
                result[result.count - 1].append(token)
            }
        }
        return result
    }

    private static let tableConstraintKeywords = ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"]

    /// Reads the clauses of one column definition or table constraint.
    private mutating func read(_ tokens: [SQLToken], sql: String) {
        guard let first = tokens.first else { return }
        var index = 0
        while index < tokens.count, tokens[index].isKeyword("CONSTRAINT") { index += 2 }
        let isTableConstraint = index > 0 || Self.tableConstraintKeywords.contains { first.isKeyword($0) }
        guard !isTableConstraint else {
            readTableConstraint(Array(tokens[min(index, tokens.count)...]), sql: sql)
            return
        }
        let column = first.identifier
        var references: Int?
        var constraint = ""
        index = 1
        while index < tokens.count {
            let token = tokens[index]
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            if token.isSymbol("(") {
                index = SQLTokenizer.matchingParenthesis(in: tokens, from: index) + 1
                continue
            }
            if token.isKeyword("CHECK"), let next, next.isSymbol("(") {
                let end = SQLTokenizer.matchingParenthesis(in: tokens, from: index + 1)
                checks.append(
                    Clause(column: column, text: SQLTokenizer.text(from: next, through: tokens[end], in: sql)))
                index = end + 1
                continue
            }
            if token.isKeyword("AS"), let next, next.isSymbol("(") {
                var end = SQLTokenizer.matchingParenthesis(in: tokens, from: index + 1)
                if end + 1 < tokens.count, tokens[end + 1].isKeyword("STORED") || tokens[end + 1].isKeyword("VIRTUAL") {
                    end += 1
                }
                let text = SQLTokenizer.text(from: token, through: tokens[end], in: sql)
                generatedColumns.append(Clause(column: column, text: text))
                index = end + 1
                continue
            }
            if token.isKeyword("PRIMARY") {
                constraint = "PRIMARY KEY"
            } else if token.isKeyword("UNIQUE") {
                constraint = "UNIQUE"
            } else if token.isKeyword("NOT"), let next, next.isKeyword("NULL") {
                constraint = "NOT NULL"
            } else if token.isKeyword("COLLATE"), let next {
                collations.append(Clause(column: column, text: next.identifier))
            } else if token.isKeyword("REFERENCES") {
                references = index
            } else if let resolution = Self.conflictResolution(tokens, at: index) {
                let text = "\(constraint) ON CONFLICT \(resolution)".trimmingSpaces
                conflictClauses.append(Clause(column: column, text: text))
            } else if Self.isDeferred(tokens, at: index), let references {
                let text = SQLTokenizer.text(from: tokens[references], through: tokens[index + 2], in: sql)
                deferredForeignKeys.append(Clause(column: column, text: text))
            }
            index += 1
        }
    }

    /// Reads a table constraint, without its `CONSTRAINT name` prefix.
    private mutating func readTableConstraint(_ tokens: [SQLToken], sql: String) {
        guard let first = tokens.first else { return }
        if first.isKeyword("CHECK"), tokens.count > 1, tokens[1].isSymbol("(") {
            let end = SQLTokenizer.matchingParenthesis(in: tokens, from: 1)
            checks.append(Clause(column: nil, text: SQLTokenizer.text(from: tokens[1], through: tokens[end], in: sql)))
            return
        }
        let kind =
            first.isKeyword("PRIMARY") ? "PRIMARY KEY" : first.isKeyword("UNIQUE") ? "UNIQUE" : "FOREIGN KEY"
        var result = Constraint(kind: kind, columns: [], conflict: nil, isDeferred: false)
        if let open = tokens.firstIndex(where: { $0.isSymbol("(") }) {
            let close = SQLTokenizer.matchingParenthesis(in: tokens, from: open)
            var depth = 0
            var expectsName = true
            for token in tokens[(open + 1)..<close] {
                if token.isSymbol("(") { depth += 1 }
                if token.isSymbol(")") { depth -= 1 }
                if depth == 0 && token.isSymbol(",") {
                    expectsName = true
                } else if expectsName && depth == 0 {
                    result.columns.append(token.identifier)
                    expectsName = false
                }
            }
        }
        for index in tokens.indices {
            if let resolution = Self.conflictResolution(tokens, at: index) { result.conflict = resolution }
            if Self.isDeferred(tokens, at: index) { result.isDeferred = true }
        }
        constraints.append(result)
    }

    /// The resolution of an `ON CONFLICT` clause starting at `index`, such as `REPLACE`.
    private static func conflictResolution(_ tokens: [SQLToken], at index: Int) -> String? {
        guard index + 2 < tokens.count, tokens[index].isKeyword("ON"), tokens[index + 1].isKeyword("CONFLICT") else {
            return nil
        }
        return tokens[index + 2].text.uppercased()
    }

    /// Whether `DEFERRABLE INITIALLY DEFERRED`, not preceded by `NOT`, starts at `index`.
    private static func isDeferred(_ tokens: [SQLToken], at index: Int) -> Bool {
        index + 2 < tokens.count && tokens[index].isKeyword("DEFERRABLE") && tokens[index + 1].isKeyword("INITIALLY")
            && tokens[index + 2].isKeyword("DEFERRED") && (index == 0 || !tokens[index - 1].isKeyword("NOT"))
    }
}
