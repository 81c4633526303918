import SwiftSyntax

/// Checks the columns a `@Table(fullTextIndex:)` names, when they are written as string literals in
/// `FullTextIndex(columns: [...])`: a name that is no column of the struct is reported at compile time instead of
/// when the table is created. Other expressions are left to that run-time check.
enum FullTextIndexColumns {
    /// The first column name written in the index that no property's column has, with its node.
    static func unknownColumn(in expression: ExprSyntax, of properties: [TableProperty]) -> (
        name: String, node: Syntax
    )? {
        guard let call = expression.as(FunctionCallExprSyntax.self),
            let columns = call.arguments.first(where: { $0.label?.text == "columns" }),
            let array = columns.expression.as(ArrayExprSyntax.self)
        else { return nil }
        let known = properties.map(\.literalColumnName)
        // A column named by an expression cannot be compared: then nothing is.
        guard !known.contains(where: { $0 == nil }) else { return nil }
        let keys = Set(known.compactMap { $0.map(asciiLowercased) })
        for element in array.elements {
            guard let literal = element.expression.as(StringLiteralExprSyntax.self),
                let name = literal.representedLiteralValue
            else { continue }
            if !keys.contains(asciiLowercased(name)) { return (name, Syntax(element.expression)) }
        }
        return nil
    }

    /// SQLite compares column names ignoring ASCII case only.
    private static func asciiLowercased(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
