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

/// What a property type written in the source shows about why it cannot be stored in a column.
enum UnstorableType: Equatable {
    /// An array (other than of bytes), a dictionary or a set: `Codable` when its elements are, so it can be
    /// stored as JSON.
    case collection
    /// A tuple of several values.
    case tuple
    /// A function or closure.
    case function
    /// An existential (`any P`, `some P`, `P & Q`) or a metatype (`T.Type`).
    case existential
}

extension TypeSyntax {
    /// Why the type, as written, cannot be stored in a column, or `nil` when syntax cannot tell (a named type may
    /// conform to `SQLiteValueConvertible` anywhere). One level of `Optional` is looked through.
    var unstorableKind: UnstorableType? {
        var type = TypeSyntax(self)
        if let optional = type.as(OptionalTypeSyntax.self) {
            type = optional.wrappedType
        } else if isOptional, let wrapped = genericArguments?.first {
            type = wrapped
        }
        return type.unwrappedUnstorableKind
    }

    private var unwrappedUnstorableKind: UnstorableType? {
        if let attributed = self.as(AttributedTypeSyntax.self) { return attributed.baseType.unwrappedUnstorableKind }
        if let array = self.as(ArrayTypeSyntax.self) { return array.element.isByte ? nil : .collection }
        if self.is(DictionaryTypeSyntax.self) { return .collection }
        if let tuple = self.as(TupleTypeSyntax.self) {
            // `(T)` is just `T`; `()` and `(A, B)` are tuples.
            guard tuple.elements.count == 1, let only = tuple.elements.first, only.firstName == nil else {
                return .tuple
            }
            return only.type.unstorableKind
        }
        if self.is(FunctionTypeSyntax.self) { return .function }
        if self.is(SomeOrAnyTypeSyntax.self) || self.is(CompositionTypeSyntax.self) || self.is(MetatypeTypeSyntax.self)
        {
            return .existential
        }
        let name = self.as(IdentifierTypeSyntax.self)?.name.text ?? self.as(MemberTypeSyntax.self)?.name.text
        switch name {
        case "Array", "ContiguousArray", "ArraySlice":
            return genericArguments?.first?.isByte == true ? nil : .collection
        case "Dictionary", "Set":
            return genericArguments == nil ? nil : .collection
        default:
            return nil
        }
    }

    /// The generic arguments written after the type's name, if any.
    private var genericArguments: [TypeSyntax]? {
        let clause =
            self.as(IdentifierTypeSyntax.self)?.genericArgumentClause
            ?? self.as(MemberTypeSyntax.self)?.genericArgumentClause
        return clause?.arguments.compactMap { $0.argument.as(TypeSyntax.self) }
    }

    /// Whether the type is `UInt8` (or `Swift.UInt8`), the element of a byte array.
    private var isByte: Bool {
        let text = trimmedDescription
        return text == "UInt8" || text == "Swift.UInt8"
    }
}
