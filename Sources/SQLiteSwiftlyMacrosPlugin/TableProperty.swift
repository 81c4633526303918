import SwiftDiagnostics
import SwiftSyntax

/// One stored property of a `@Table` struct that becomes a column.
struct TableProperty {
    /// The name as written in the source, backticks included, used to access the property.
    var memberName: String
    /// The expression giving the column name: a string literal, or the name passed to `@TableColumn`.
    var columnName: ExprSyntax
    /// The column name when it is known at expansion time (not an arbitrary expression).
    var literalColumnName: String?
    /// The property's declared type.
    var type: TypeSyntax
    /// The labeled options of `@TableColumn` (`primaryKey:`, `unique:`...), in the order written.
    var options: [LabeledExprSyntax]
}

/// Walks the members of a `@Table` struct, collecting its columns and the errors that prevent an expansion.
struct PropertyCollector {
    private(set) var properties: [TableProperty] = []
    private(set) var diagnostics: [Diagnostic] = []
    private var seenNames: [String: Void] = [:]

    mutating func collect(_ members: MemberBlockItemListSyntax) {
        for member in members {
            if member.decl.is(IfConfigDeclSyntax.self) {
                fail(member.decl, .conditionalCompilation)
            } else if let variable = member.decl.as(VariableDeclSyntax.self), !variable.isStatic {
                collect(variable)
            }
        }
    }

    private mutating func collect(_ variable: VariableDeclSyntax) {
        let isTransient = variable.hasAttribute(named: "Transient")
        let columnAttribute = variable.attribute(named: "TableColumn")
        let bindings = Array(variable.bindings)
        for (index, binding) in bindings.enumerated() where binding.isStored {
            guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
                fail(binding.pattern, .tuplePattern)
                continue
            }
            let memberName = pattern.identifier.text
            let plainName = memberName.withoutBackticks
            // `var a, b: Int` gives `a` the type of `b`.
            let type =
                binding.typeAnnotation?.type
                ?? (binding.initializer == nil
                    ? bindings[(index + 1)...].lazy.compactMap(\.typeAnnotation?.type).first : nil)
            if isTransient {
                let hasDefault = binding.initializer != nil || (!variable.isLet && type?.isOptional == true)
                if !hasDefault { fail(binding, .transientWithoutDefault(plainName)) }
                continue
            }
            if variable.isLazy {
                fail(binding, .lazyProperty(plainName))
            } else if variable.isLet && binding.initializer != nil {
                fail(binding, .letWithValue(plainName))
            } else if let type {
                if type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
                    fail(type, .implicitlyUnwrapped(plainName))
                } else {
                    add(memberName, plainName: plainName, type: type, attribute: columnAttribute, node: binding)
                }
            } else {
                fail(binding, .missingType(plainName))
            }
        }
    }

    private mutating func add(
        _ memberName: String, plainName: String, type: TypeSyntax, attribute: AttributeSyntax?,
        node: some SyntaxProtocol
    ) {
        var columnName = ExprSyntax(StringLiteralExprSyntax(content: plainName))
        var literalName: String? = plainName
        var options: [LabeledExprSyntax] = []
        for argument in attribute?.argumentList ?? [] {
            if argument.label == nil {
                columnName = argument.expression.trimmed
                literalName = Self.literalText(argument.expression)
            } else {
                options.append(argument.trimmed.with(\.trailingComma, nil))
            }
        }
        if let literalName {
            let key = literalName.lowercased()
            if seenNames[key] != nil { fail(node, .duplicateColumn(literalName)) }
            seenNames[key] = ()
        }
        properties.append(
            TableProperty(
                memberName: memberName, columnName: columnName, literalColumnName: literalName, type: type.trimmed,
                options: options))
    }

    /// The text of a string literal without interpolations, or `nil` for any other expression.
    static func literalText(_ expression: ExprSyntax) -> String? {
        guard let literal = expression.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            guard case .stringSegment(let part) = segment else { return nil }
            text += part.content.text
        }
        return text
    }

    private mutating func fail(_ node: some SyntaxProtocol, _ message: TableDiagnostic) {
        diagnostics.append(Diagnostic(node: node, message: message))
    }
}
