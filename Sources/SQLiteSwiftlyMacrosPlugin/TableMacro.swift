import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Table`: generates a complete `TableModel` conformance for a struct in an extension.
///
/// The extension holds `static let tableName`, `static let columns` (one `Column(name, Type.self, ...)` per
/// stored property, in declaration order), `static let indexes` when `@Table(indexes:)` is given,
/// `init(row:)` reading each column by its index, and `encode(to:)` encoding each property in the same order;
/// `@Table(fullTextIndex:)` adds `static let fullTextIndex` and the `FullTextSearchable` conformance.
/// Members the struct already declares itself are not generated. A property declared
/// `@TableColumn(storage: .json)` goes through `SQLiteSwiftlyMacros.JSONColumn`, which stores it as JSON text.
public struct TableMacro: ExtensionMacro {
    /// Generates the `TableModel` extension, or diagnoses why it cannot.
    ///
    /// - Parameters:
    ///   - node: The `@Table` attribute, with the optional table name and indexes.
    ///   - declaration: The declaration it is attached to; only a non-generic struct is accepted.
    ///   - type: The type to extend.
    ///   - protocols: The conformances the type lacks: `TableModel`, or none if it already conforms.
    ///   - context: The expansion context, which receives the diagnostics.
    /// - Returns: One extension, or none after a diagnostic.
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: TableDiagnostic.notAStruct(kindName(of: declaration))))
            return []
        }
        if structDecl.genericParameterClause != nil {
            context.diagnose(Diagnostic(node: node, message: TableDiagnostic.genericStruct))
            return []
        }
        var collector = PropertyCollector()
        collector.collect(structDecl.memberBlock.members)
        guard collector.diagnostics.isEmpty else {
            collector.diagnostics.forEach(context.diagnose)
            return []
        }
        guard !collector.properties.isEmpty else {
            context.diagnose(Diagnostic(node: node, message: TableDiagnostic.noColumns))
            return []
        }
        // Generated reads and writes follow the properties' order; columns declared by hand may be in another, and
        // the values would land in each other's columns.
        let declared = DeclaredMembers(structDecl.memberBlock.members)
        if declared.contains("columns") && !(declared.contains("init(row:)") && declared.contains("encode(to:)")) {
            context.diagnose(Diagnostic(node: node, message: TableDiagnostic.columnsWithoutCoding))
            return []
        }
        let fullTextIndex = node.argumentList.first { $0.label?.text == "fullTextIndex" }?.expression
        if let fullTextIndex,
            let unknown = FullTextIndexColumns.unknownColumn(in: fullTextIndex, of: collector.properties)
        {
            context.diagnose(
                Diagnostic(node: unknown.node, message: TableDiagnostic.unknownIndexedColumn(unknown.name)))
            return []
        }
        let members = generatedMembers(
            properties: collector.properties, attribute: node, structDecl: structDecl)
        // The protocols the type lacks among those the attribute declares: TableModel, and FullTextSearchable for
        // the overloads that take a full-text index.
        let lacking = protocols.map(\.trimmedDescription)
        var adopted: [String] = []
        if lacking.contains(where: { $0.hasSuffix("TableModel") }) { adopted.append("SQLiteSwiftly.TableModel") }
        if fullTextIndex != nil && lacking.contains(where: { $0.hasSuffix("FullTextSearchable") }) {
            adopted.append("SQLiteSwiftly.FullTextSearchable")
        }
        let conformance = adopted.isEmpty ? "" : ": " + adopted.joined(separator: ", ")
        let source: DeclSyntax = """
            extension \(type.trimmed)\(raw: conformance) {
            \(raw: members.joined(separator: "\n\n"))
            }
            """
        guard let extensionDecl = source.as(ExtensionDeclSyntax.self) else { return [] }
        return [extensionDecl]
    }

    private static func generatedMembers(
        properties: [TableProperty], attribute: AttributeSyntax, structDecl: StructDeclSyntax
    ) -> [String] {
        let access = accessPrefix(structDecl.modifiers)
        let declared = DeclaredMembers(structDecl.memberBlock.members)
        var tableName = StringLiteralExprSyntax(content: structDecl.name.text.withoutBackticks).description
        var indexes: String?
        var fullTextIndex: String?
        for argument in attribute.argumentList {
            switch argument.label?.text {
            case nil: tableName = argument.expression.trimmedDescription
            case "indexes": indexes = argument.expression.trimmedDescription
            case "fullTextIndex": fullTextIndex = argument.expression.trimmedDescription
            default: break
            }
        }
        var members: [String] = []
        if !declared.contains("tableName") {
            members.append("\(access)static let tableName: String = \(tableName)")
        }
        if !declared.contains("columns") {
            let columns = properties.map { "    \(columnExpression($0))," }
            members.append(
                "\(access)static let columns: [SQLiteSwiftly.Column] = [\n\(columns.joined(separator: "\n"))\n]")
        }
        if let indexes, !declared.contains("indexes") {
            members.append("\(access)static let indexes: [SQLiteSwiftly.TableIndex] = \(indexes)")
        }
        if let fullTextIndex, !declared.contains("fullTextIndex") {
            members.append("\(access)static let fullTextIndex: SQLiteSwiftly.FullTextIndex = \(fullTextIndex)")
        }
        if !declared.contains("init(row:)") {
            members.append(
                "\(access)init(row: borrowing SQLiteSwiftly.Row) throws {\n\(rowReads(properties, structDecl))\n}")
        }
        if !declared.contains("encode(to:)") {
            let writes = properties.map { property in
                property.isJSON
                    ? "    try encoder.encode(SQLiteSwiftlyMacros.JSONColumn.stored(self.\(property.memberName)))"
                    : "    try encoder.encode(self.\(property.memberName))"
            }
            members.append(
                "\(access)func encode(to encoder: inout SQLiteSwiftly.RowEncoder) throws {\n"
                    + "\(writes.joined(separator: "\n"))\n}")
        }
        return members
    }

    /// The body of the generated `init(row:)`: every column read into a local, then the struct made from them.
    ///
    /// Swift 6.3 copies the whole struct once more (a retain and a release of each string, array and `Data`) at
    /// the end of a throwing initializer that sets properties between its `try`s, and at the end of any
    /// initializer that sets its properties when the struct has a `var` optional property (which starts out
    /// `nil`). Reading every column first and then calling the memberwise initializer avoids both; where the
    /// struct has no memberwise initializer the macro can call, the properties are set after the reads.
    private static func rowReads(_ properties: [TableProperty], _ structDecl: StructDeclSyntax) -> String {
        let reads = properties.enumerated().map { index, property in
            let type = property.type.trimmedDescription
            guard property.isJSON else { return "    let column\(index): \(type) = try row[\(index)]" }
            return
                "    let column\(index) = try SQLiteSwiftlyMacros.JSONColumn.read(\(type).self, from: row, at: \(index))"
        }
        guard hasUsableMemberwiseInitializer(structDecl) else {
            let assignments = properties.indices.map { "    self.\(properties[$0].memberName) = column\($0)" }
            return (reads + assignments).joined(separator: "\n")
        }
        // As an argument label, only `inout` needs its backticks (Swift warns that the other keywords do not).
        let labels = properties.map {
            $0.memberName.withoutBackticks == "inout" ? "`inout`" : $0.memberName.withoutBackticks
        }
        let arguments = labels.indices.map { "\(labels[$0]): column\($0)" }
        return (reads + ["    self.init(\(arguments.joined(separator: ", ")))"]).joined(separator: "\n")
    }

    /// Whether the struct has the memberwise initializer, taking its columns in declaration order (the
    /// properties the macro skips all have a default value): it declares no initializer of its own, and no stored
    /// property is private (which would make the initializer private) or wrapped (whose parameter would take the
    /// wrapper's value).
    private static func hasUsableMemberwiseInitializer(_ structDecl: StructDeclSyntax) -> Bool {
        for member in structDecl.memberBlock.members {
            if member.decl.is(InitializerDeclSyntax.self) { return false }
            guard let variable = member.decl.as(VariableDeclSyntax.self), !variable.isStatic,
                variable.bindings.contains(where: \.isStored)
            else { continue }
            let isPrivate = variable.modifiers.contains {
                $0.name.tokenKind == .keyword(.private) || $0.name.tokenKind == .keyword(.fileprivate)
            }
            let isWrapped = variable.attributes.contains {
                guard case .attribute(let attribute) = $0 else { return true }
                return attribute.simpleName != "TableColumn" && attribute.simpleName != "Transient"
            }
            if isPrivate || isWrapped { return false }
        }
        return true
    }

    /// `SQLiteSwiftly.Column("name", Type.self, options...)`; a JSON property's type is its ``JSONText``.
    private static func columnExpression(_ property: TableProperty) -> String {
        var type = "\(property.type.trimmedDescription).self"
        if property.isJSON { type = "SQLiteSwiftlyMacros.JSONColumn.storedType(\(type))" }
        var arguments = [property.columnName.trimmedDescription, type]
        arguments += property.options.map(\.trimmedDescription)
        return "SQLiteSwiftly.Column(\(arguments.joined(separator: ", ")))"
    }

    /// `public ` or `package ` when the struct has that access, so the conformance is usable where the type is.
    private static func accessPrefix(_ modifiers: DeclModifierListSyntax) -> String {
        for modifier in modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }

    private static func kindName(of declaration: some DeclGroupSyntax) -> String {
        if declaration.is(ClassDeclSyntax.self) { return "a class" }
        if declaration.is(EnumDeclSyntax.self) { return "an enum" }
        if declaration.is(ActorDeclSyntax.self) { return "an actor" }
        if declaration.is(ProtocolDeclSyntax.self) { return "a protocol" }
        if declaration.is(ExtensionDeclSyntax.self) { return "an extension" }
        return "this declaration"
    }
}

/// The `TableModel` members a struct declares itself, which the macro then leaves alone.
private struct DeclaredMembers {
    private var names: Set<String> = []

    init(_ members: MemberBlockItemListSyntax) {
        for member in members {
            if let variable = member.decl.as(VariableDeclSyntax.self), variable.isStatic {
                for binding in variable.bindings {
                    if let pattern = binding.pattern.as(IdentifierPatternSyntax.self) {
                        names.insert(pattern.identifier.text)
                    }
                }
            } else if let initializer = member.decl.as(InitializerDeclSyntax.self) {
                let labels = initializer.signature.parameterClause.parameters.map(\.firstName.text)
                if labels == ["row"] { names.insert("init(row:)") }
            } else if let function = member.decl.as(FunctionDeclSyntax.self), function.name.text == "encode" {
                let labels = function.signature.parameterClause.parameters.map(\.firstName.text)
                if labels == ["to"] { names.insert("encode(to:)") }
            }
        }
    }

    func contains(_ name: String) -> Bool { names.contains(name) }
}
