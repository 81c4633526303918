import SQLiteSwiftlyMacrosPlugin
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The macros under test, as the compiler sees them: `@Table` adds the `TableModel` conformance, and
/// `FullTextSearchable` when it is given a full-text index.
let tableMacroSpecs: [String: MacroSpec] = [
    "Table": MacroSpec(type: TableMacro.self, conformances: ["TableModel", "FullTextSearchable"]),
    "TableColumn": MacroSpec(type: TableColumnMacro.self),
    "Transient": MacroSpec(type: TransientMacro.self),
]

/// Expands `source` with the SQLiteSwiftly macros and records a Swift Testing issue for every difference from
/// `expanded` and `diagnostics`, and, when `fixedSource` is given, from the source with every fix-it applied.
func assertTableExpansion(
    _ source: String, expandedSource expanded: String, diagnostics: [DiagnosticSpec] = [],
    fixedSource: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    assertMacroExpansion(
        source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: tableMacroSpecs,
        fixedSource: fixedSource,
        failureHandler: { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        })
}
