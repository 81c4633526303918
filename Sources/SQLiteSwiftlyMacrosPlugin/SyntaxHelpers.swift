import SwiftSyntax

extension VariableDeclSyntax {
    /// Whether the declaration is `static` or `class`.
    var isStatic: Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }

    /// Whether the declaration is `lazy`.
    var isLazy: Bool { modifiers.contains { $0.name.tokenKind == .keyword(.lazy) } }

    /// Whether the declaration uses `let`.
    var isLet: Bool { bindingSpecifier.tokenKind == .keyword(.let) }

    /// Whether every binding is a stored instance property (the only place the marker macros make sense).
    var isStoredInstanceProperty: Bool { !isStatic && bindings.allSatisfy(\.isStored) }

    /// The first attribute whose last name component is `name` (`@TableColumn` or `@Module.TableColumn`).
    func attribute(named name: String) -> AttributeSyntax? {
        for element in attributes {
            if case .attribute(let attribute) = element, attribute.simpleName == name { return attribute }
        }
        return nil
    }

    /// Whether an attribute named `name` is present.
    func hasAttribute(named name: String) -> Bool { attribute(named: name) != nil }
}

extension PatternBindingSyntax {
    /// Whether the binding stores a value: no accessors, or only `willSet`/`didSet` observers.
    var isStored: Bool {
        guard let accessorBlock else { return true }
        switch accessorBlock.accessors {
        case .getter:
            return false
        case .accessors(let accessors):
            return accessors.allSatisfy {
                $0.accessorSpecifier.tokenKind == .keyword(.willSet)
                    || $0.accessorSpecifier.tokenKind == .keyword(.didSet)
            }
        }
    }
}

extension AttributeSyntax {
    /// The attribute's name without a module qualifier.
    var simpleName: String? {
        if let identifier = attributeName.as(IdentifierTypeSyntax.self) { return identifier.name.text }
        if let member = attributeName.as(MemberTypeSyntax.self) { return member.name.text }
        return nil
    }

    /// The attribute's arguments, or an empty list.
    var argumentList: LabeledExprListSyntax {
        if case .argumentList(let list) = arguments { return list }
        return []
    }
}

extension TypeSyntax {
    /// Whether the type is written as an Optional (`T?` or `Optional<T>`), which gives a `var` an implicit `nil`.
    var isOptional: Bool {
        if self.is(OptionalTypeSyntax.self) { return true }
        if let identifier = self.as(IdentifierTypeSyntax.self) {
            return identifier.name.text == "Optional" && identifier.genericArgumentClause != nil
        }
        if let member = self.as(MemberTypeSyntax.self) {
            return member.name.text == "Optional" && member.baseType.trimmedDescription == "Swift"
        }
        return false
    }
}

extension String {
    /// The identifier without the backticks that let a keyword be used as a name.
    var withoutBackticks: String {
        guard count >= 2, hasPrefix("`"), hasSuffix("`") else { return self }
        return String(dropFirst().dropLast())
    }
}
