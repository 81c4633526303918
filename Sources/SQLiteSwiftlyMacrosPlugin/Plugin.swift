import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that provides SQLiteSwiftly's macros.
@main
struct SQLiteSwiftlyMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [TableMacro.self, TableColumnMacro.self, TransientMacro.self]
}
