import SwiftDiagnostics
import SwiftSyntax

/// Checks the arguments of one `@TableColumn` against each other and against the property's type, where they are
/// literals the macro can read: what `createTable(for:)` would refuse, or what SQLite would accept and then fail
/// on at the first delete or read. An argument that is not a literal (a constant, a call) is left to the runtime
/// checks.
struct ColumnOptionsCheck {
    /// The property, without backticks.
    let name: String
    /// The property's declared type.
    let type: TypeSyntax
    /// Whether the property is stored as JSON text.
    let isJSON: Bool
    /// The labeled arguments, without `storage:`.
    let options: [LabeledExprSyntax]

    /// What the Swift type, as written, stores: integer, real, text, blob, or unknown (`nil`).
    private var storedKind: StoredKind? {
        isJSON ? .text : StoredKind(type.unwrappingOptional)
    }

    /// Whether the property's column is nullable: it is when the type is written as an Optional.
    private var isNullable: Bool { type.isOptional }

    /// The argument with this label.
    func argument(_ label: String) -> LabeledExprSyntax? {
        options.first { $0.label?.text == label }
    }

    /// Whether the argument with this label is the literal `true`.
    func isTrue(_ label: String) -> Bool {
        argument(label)?.expression.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.true)
    }

    /// Whether the argument with this label is left out (it defaults to `false`) or is the literal `false`.
    func isFalse(_ label: String) -> Bool {
        guard let argument = argument(label) else { return true }
        return argument.expression.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.false)
    }

    /// The errors, each at the argument it is about.
    func diagnostics() -> [Diagnostic] {
        var found: [Diagnostic] = []
        if let autoIncrement = argument("autoIncrement"), isTrue("autoIncrement") {
            if isFalse("primaryKey") {
                found.append(Diagnostic(node: autoIncrement, message: TableDiagnostic.autoIncrementWithoutKey(name)))
            } else if let kind = storedKind, kind != .integer {
                found.append(
                    Diagnostic(
                        node: autoIncrement,
                        message: TableDiagnostic.autoIncrementNotInteger(name, type: type.trimmedDescription)))
            }
        }
        if let collation = argument("collation"), PropertyCollector.literalText(collation.expression) == "" {
            found.append(Diagnostic(node: collation, message: TableDiagnostic.emptyCollation(name)))
        }
        if let references = argument("references") {
            found += referenceDiagnostics(references.expression)
        }
        if let value = argument("default") {
            found += defaultDiagnostics(value.expression)
        }
        return found
    }

    /// Empty table or column names, and actions a `NOT NULL` column cannot take.
    private func referenceDiagnostics(_ expression: ExprSyntax) -> [Diagnostic] {
        guard let call = expression.as(FunctionCallExprSyntax.self) else { return [] }
        let called = call.calledExpression.trimmedDescription
        guard called.hasSuffix("ForeignKey") || called == ".init" else { return [] }
        var found: [Diagnostic] = []
        for (position, name) in call.arguments.enumerated() where name.label == nil && position < 2 {
            if PropertyCollector.literalText(name.expression) == "" {
                let what = position == 0 ? "table" : "column"
                found.append(Diagnostic(node: name, message: TableDiagnostic.emptyReference(self.name, what: what)))
            }
        }
        guard !isNullable else { return found }
        // `default: nil` is the parameter's own default: no DEFAULT clause.
        let hasDefault = argument("default").map { !$0.expression.is(NilLiteralExprSyntax.self) } ?? false
        for actionArgument in call.arguments {
            guard let label = actionArgument.label?.text, label == "onDelete" || label == "onUpdate",
                let action = actionArgument.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            else { continue }
            if action == "setNull" {
                let message = TableDiagnostic.setNullOnNotNull(name, action: label)
                found.append(Diagnostic(node: actionArgument, message: message))
            } else if action == "setDefault" && !hasDefault {
                let message = TableDiagnostic.setDefaultWithoutDefault(name, action: label)
                found.append(Diagnostic(node: actionArgument, message: message))
            }
        }
        return found
    }

    /// A `NULL` default for a `NOT NULL` column, and a literal of the wrong kind for a number column.
    private func defaultDiagnostics(_ expression: ExprSyntax) -> [Diagnostic] {
        let literal = DefaultLiteral(expression)
        if literal == .null {
            return isNullable ? [] : [Diagnostic(node: expression, message: TableDiagnostic.nullDefault(name))]
        }
        guard let literal, let kind = storedKind else { return [] }
        let fits: Bool
        switch kind {
        case .integer: fits = literal == .integer || literal == .boolean
        case .real: fits = literal == .integer || literal == .real
        case .text, .blob: fits = true
        }
        guard !fits else { return [] }
        let message = TableDiagnostic.defaultKind(
            name, type: type.trimmedDescription, value: expression.trimmedDescription,
            expected: kind == .integer ? "an integer" : "a number")
        return [Diagnostic(node: expression, message: message)]
    }
}

/// The storage class a standard Swift type's column holds.
private enum StoredKind {
    case integer, real, text, blob

    /// The kind for a type the library stores itself, or `nil` for any other type (it may be the user's own).
    init?(_ type: TypeSyntax) {
        var text = type.trimmedDescription
        if text.hasPrefix("Swift.") { text.removeFirst("Swift.".count) }
        if text.hasPrefix("Foundation.") { text.removeFirst("Foundation.".count) }
        switch text {
        case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Bool":
            self = .integer
        case "Double", "Float": self = .real
        case "String", "Date", "URL", "Decimal": self = .text
        case "Data", "UUID", "[UInt8]": self = .blob
        default: return nil
        }
    }
}

/// The kind of a literal `default:` value: `0`, `-1.5`, `"text"`, `true`, `nil`, or `.null`, `.integer(1)`....
private enum DefaultLiteral {
    case integer, real, text, boolean, blob, null

    /// The kind, or `nil` for an expression that is not a literal (then the runtime decides).
    init?(_ expression: ExprSyntax) {
        if expression.is(IntegerLiteralExprSyntax.self) {
            self = .integer
        } else if expression.is(FloatLiteralExprSyntax.self) {
            self = .real
        } else if expression.is(StringLiteralExprSyntax.self) {
            self = .text
        } else if expression.is(BooleanLiteralExprSyntax.self) {
            self = .boolean
        } else if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            self.init(prefix.expression)
        } else if let member = expression.as(MemberAccessExprSyntax.self), member.base == nil,
            member.declName.baseName.text == "null"
        {
            self = .null
        } else if let call = expression.as(FunctionCallExprSyntax.self),
            let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil
        {
            switch member.declName.baseName.text {
            case "integer": self = .integer
            case "real": self = .real
            case "text": self = .text
            case "blob": self = .blob
            default: return nil
            }
        } else {
            // `nil` means "no default", the parameter's own default: nothing to check.
            return nil
        }
    }
}

extension TypeSyntax {
    /// The type inside one level of `Optional`, or the type itself.
    var unwrappingOptional: TypeSyntax {
        if let optional = self.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        guard isOptional else { return self }
        let clause =
            self.as(IdentifierTypeSyntax.self)?.genericArgumentClause
            ?? self.as(MemberTypeSyntax.self)?.genericArgumentClause
        return clause?.arguments.first?.argument.as(TypeSyntax.self) ?? self
    }
}
