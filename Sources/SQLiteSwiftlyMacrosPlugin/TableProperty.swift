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
    /// The labeled options of `@TableColumn` (`primaryKey:`, `unique:`...), in the order written, without
    /// `storage:`.
    var options: [LabeledExprSyntax]
    /// Whether the property is stored as JSON text (`@TableColumn(storage: .json)`).
    var isJSON: Bool
}

/// Walks the members of a `@Table` struct, collecting its columns and the errors that prevent an expansion.
struct PropertyCollector {
    private(set) var properties: [TableProperty] = []
    private(set) var diagnostics: [Diagnostic] = []
    private var seenNames: [String: Void] = [:]
    /// The properties declared `primaryKey: true`, and the `autoIncrement: true` arguments, to check that
    /// `AUTOINCREMENT` is on a single key.
    private var keyNames: [String] = []
    private var autoIncrements: [(name: String, node: LabeledExprSyntax)] = []

    mutating func collect(_ members: MemberBlockItemListSyntax) {
        for member in members {
            if member.decl.is(IfConfigDeclSyntax.self) {
                fail(member.decl, .conditionalCompilation)
            } else if let variable = member.decl.as(VariableDeclSyntax.self), !variable.isStatic {
                collect(variable)
            }
        }
        if keyNames.count > 1 {
            for (name, node) in autoIncrements {
                fail(node, .autoIncrementInCompositeKey(name, keys: keyNames))
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
                    add(
                        memberName, plainName: plainName, type: type, attribute: columnAttribute, node: binding,
                        variable: variable)
                }
            } else {
                fail(binding, .missingType(plainName))
            }
        }
    }

    private mutating func add(
        _ memberName: String, plainName: String, type: TypeSyntax, attribute: AttributeSyntax?,
        node: some SyntaxProtocol, variable: VariableDeclSyntax
    ) {
        var columnName = ExprSyntax(StringLiteralExprSyntax(content: plainName))
        var literalName: String? = plainName
        var options: [LabeledExprSyntax] = []
        var written: [LabeledExprSyntax] = []  // the options in the source tree, where diagnostics point
        var isJSON = false
        var isStorageKnown = true
        for argument in attribute?.argumentList ?? [] {
            if argument.label == nil {
                columnName = argument.expression.trimmed
                literalName = Self.literalText(argument.expression)
            } else if argument.label?.text == "storage" {
                switch Self.storageCase(argument.expression) {
                case "json": isJSON = true
                case "value": isJSON = false
                default:
                    fail(argument.expression, .invalidStorage)
                    isStorageKnown = false
                }
            } else {
                options.append(argument.trimmed.with(\.trailingComma, nil))
                written.append(argument)
            }
        }
        let check = ColumnOptionsCheck(name: plainName, type: type, isJSON: isJSON, options: written)
        diagnostics += check.diagnostics()
        if check.isTrue("primaryKey") { keyNames.append(plainName) }
        if check.isTrue("autoIncrement"), check.isTrue("primaryKey"), let node = check.argument("autoIncrement") {
            autoIncrements.append((plainName, node))
        }
        if !isJSON, isStorageKnown, let kind = type.unstorableKind {
            let message = TableDiagnostic.unstorable(plainName, type: type.trimmedDescription, kind: kind)
            let fixIts = kind == .collection ? [Self.jsonStorageFixIt(variable: variable, attribute: attribute)] : []
            diagnostics.append(Diagnostic(node: type, message: message, fixIts: fixIts))
        }
        if let literalName {
            let key = literalName.lowercased()
            if seenNames[key] != nil { fail(node, .duplicateColumn(literalName)) }
            seenNames[key] = ()
        }
        properties.append(
            TableProperty(
                memberName: memberName, columnName: columnName, literalColumnName: literalName, type: type.trimmed,
                options: options, isJSON: isJSON))
    }

    /// `json` or `value` for `.json`, `ColumnStorage.json` or `SQLiteSwiftlyMacros.ColumnStorage.json`; `nil` for
    /// any other expression, whose value the macro cannot know.
    static func storageCase(_ expression: ExprSyntax) -> String? {
        guard let member = expression.as(MemberAccessExprSyntax.self) else { return nil }
        if let base = member.base, !base.trimmedDescription.hasSuffix("ColumnStorage") { return nil }
        let name = member.declName.baseName.text
        return name == "json" || name == "value" ? name : nil
    }

    /// Adds `storage: .json` to the property's `@TableColumn`, or `@TableColumn(storage: .json)` before it.
    static func jsonStorageFixIt(variable: VariableDeclSyntax, attribute: AttributeSyntax?) -> FixIt {
        let storage = LabeledExprSyntax(
            label: .identifier("storage"), colon: .colonToken(trailingTrivia: .space),
            expression: MemberAccessExprSyntax(name: .identifier("json")))
        if let attribute {
            var arguments = Array(attribute.argumentList)
            if let last = arguments.popLast() {
                arguments.append(last.with(\.trailingComma, .commaToken(trailingTrivia: .space)))
            }
            arguments.append(storage)
            // The space after the attribute moves to its new closing parenthesis.
            let changed = attribute.with(\.trailingTrivia, []).with(\.leftParen, .leftParenToken())
                .with(\.arguments, .argumentList(LabeledExprListSyntax(arguments)))
                .with(\.rightParen, .rightParenToken(trailingTrivia: attribute.trailingTrivia))
            return FixIt(
                message: JSONStorageFixIt.adding(toExistingAttribute: true),
                changes: [.replace(oldNode: Syntax(attribute), newNode: Syntax(changed))])
        }
        let added = AttributeSyntax(
            atSign: .atSignToken(leadingTrivia: variable.leadingTrivia),
            attributeName: IdentifierTypeSyntax(name: .identifier("TableColumn")), leftParen: .leftParenToken(),
            arguments: .argumentList([storage]), rightParen: .rightParenToken(trailingTrivia: .space))
        let changed = variable.with(\.leadingTrivia, [])
        let attributes = [AttributeListSyntax.Element.attribute(added)] + Array(changed.attributes)
        return FixIt(
            message: JSONStorageFixIt.adding(toExistingAttribute: false),
            changes: [
                .replace(
                    oldNode: Syntax(variable),
                    newNode: Syntax(changed.with(\.attributes, AttributeListSyntax(attributes))))
            ])
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
