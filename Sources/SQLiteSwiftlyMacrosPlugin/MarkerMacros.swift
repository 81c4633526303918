import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@TableColumn(...)`: per-property column options, read by `@Table`. Generates nothing by itself; it only
/// reports a misplaced use.
public struct TableColumnMacro: PeerMacro {
    /// Checks where the attribute is used; returns no declarations.
    ///
    /// - Parameters:
    ///   - node: The attribute.
    ///   - declaration: The declaration it is attached to.
    ///   - context: The expansion context, which receives the diagnostics.
    /// - Returns: No declarations.
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self), variable.isStoredInstanceProperty else {
            context.diagnose(Diagnostic(node: node, message: TableDiagnostic.markerMisplaced("TableColumn")))
            return []
        }
        if variable.hasAttribute(named: "Transient") {
            context.diagnose(Diagnostic(node: node, message: TableDiagnostic.columnAndTransient))
        } else if variable.bindings.count != 1 {
            context.diagnose(Diagnostic(node: node, message: TableDiagnostic.columnOnSeveralBindings))
        }
        return []
    }
}

/// `@Transient`: excludes a stored property from the table. Generates nothing by itself; it only reports a
/// misplaced use.
public struct TransientMacro: PeerMacro {
    /// Checks where the attribute is used; returns no declarations.
    ///
    /// - Parameters:
    ///   - node: The attribute.
    ///   - declaration: The declaration it is attached to.
    ///   - context: The expansion context, which receives the diagnostics.
    /// - Returns: No declarations.
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self), variable.isStoredInstanceProperty else {
            context.diagnose(Diagnostic(node: node, message: TableDiagnostic.markerMisplaced("Transient")))
            return []
        }
        return []
    }
}
