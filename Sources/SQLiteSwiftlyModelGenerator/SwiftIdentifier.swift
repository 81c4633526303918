/// Turns SQL names into valid Swift identifiers: `"Order Details"` becomes `OrderDetails`, `"unit price"` becomes
/// `unitPrice`, `default` becomes `` `default` `` and `2nd place` becomes `_2ndPlace`.
///
/// The mapping splits a name into words at every character that cannot appear in a Swift identifier (spaces,
/// punctuation, `_`) and at lowercase-to-uppercase steps, then joins the words in camel case. Letters and digits
/// outside ASCII are kept as they are (Swift accepts them). The SQL name itself is never changed: generated code
/// keeps it, exactly, in ``TableModel/tableName`` and ``Column/name``.
enum SwiftIdentifier {
    /// Words that must be written in backticks to be used as a property name.
    static let keywords: Set<String> = [
        "Any", "Protocol", "Self", "Type", "as", "associatedtype", "await", "break", "case", "catch", "class",
        "continue", "default", "defer", "deinit", "do", "else", "enum", "extension", "fallthrough", "false",
        "fileprivate", "for", "func", "guard", "if", "import", "in", "init", "inout", "internal", "is", "let",
        "nil", "open", "operator", "precedencegroup", "private", "protocol", "public", "repeat", "rethrows",
        "return", "self", "static", "struct", "subscript", "super", "switch", "throw", "throws", "true", "try",
        "typealias", "var", "where", "while",
    ]

    /// Type names a generated struct must not take, because the generated code or the standard library uses them.
    static let reservedTypeNames: Set<String> = [
        "Any", "Array", "Bool", "Character", "Column", "Connection", "Cursor", "Data", "Date", "Decimal",
        "DeclaredType", "Dictionary", "Double", "Equatable", "Error", "Float", "ForeignKey", "Foundation", "Int",
        "Int64", "Never", "Optional", "Protocol", "Result", "Row", "RowDecodable", "RowEncoder", "SQL",
        "SQLiteError", "SQLiteSwiftly", "SQLiteValue", "Self", "Sendable", "Set", "Statement", "String", "Swift",
        "TableIndex", "TableModel", "Type", "UInt8", "URL", "UUID", "Void",
    ]

    /// Short words written in capitals when they are not the first word, as Swift's API guidelines do.
    static let acronyms: Set<String> = ["id", "url", "uuid"]

    /// The `UpperCamelCase` type name for a table, before reserved-name and uniqueness checks.
    ///
    /// - Parameters:
    ///   - sqlName: The table's SQL name.
    ///   - singular: Whether to put the last word in the singular (``EnglishSingular``): `Order Details` gives
    ///     `OrderDetail`.
    /// - Returns: A valid Swift identifier (never a keyword), `Table` when the name has no usable character.
    static func typeName(for sqlName: String, singular: Bool = false) -> String {
        var parts = words(in: sqlName)
        guard let last = parts.last else { return "Table" }
        if singular { parts[parts.count - 1] = EnglishSingular.singular(of: last) }
        var name = parts.map(capitalized).joined()
        if name.first?.isNumber == true { name = "_" + name }
        return name
    }

    /// The `lowerCamelCase` property name for a column, before uniqueness checks; escape it with ``escaped(_:)``.
    ///
    /// - Parameter sqlName: The column's SQL name.
    /// - Returns: A valid Swift identifier, possibly a keyword; `column` when the name has no usable character.
    static func propertyName(for sqlName: String) -> String {
        let parts = words(in: sqlName)
        guard let first = parts.first else { return "column" }
        var name = lowercasedWord(first) + parts.dropFirst().map(capitalized).joined()
        if name.first?.isNumber == true { name = "_" + name }
        return name
    }

    /// The identifier in backticks when it is a keyword, as it is otherwise.
    ///
    /// - Parameter identifier: A valid identifier.
    /// - Returns: The identifier ready to be written in a declaration or after `self.`.
    static func escaped(_ identifier: String) -> String {
        keywords.contains(identifier) ? "`\(identifier)`" : identifier
    }

    /// An identifier written as an argument label in a call: only `inout` needs backticks there (Swift warns that
    /// the other keywords do not).
    ///
    /// - Parameter identifier: A valid identifier.
    /// - Returns: The identifier ready to be written before the colon of an argument.
    static func argumentLabel(_ identifier: String) -> String {
        identifier == "inout" ? "`inout`" : identifier
    }

    /// Appends `2`, `3`, ... to `name` until `taken` does not contain it, and records the result in `taken`.
    ///
    /// - Parameters:
    ///   - name: The preferred name.
    ///   - taken: The names already used; the returned name is added.
    /// - Returns: `name`, or `name` with the smallest number suffix that is free.
    static func unique(_ name: String, in taken: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while taken.contains(candidate) {
            candidate = "\(name)\(number)"
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }

    /// Splits a name into words: at characters that cannot be part of an identifier, at underscores, and where a
    /// lowercase letter or digit is followed by an uppercase one (`orderID` → `order`, `ID`), or an uppercase run
    /// is followed by a capitalized word (`URLPath` → `URL`, `Path`, but `userIDs` → `user`, `IDs`).
    static func words(in name: String) -> [String] {
        var result: [String] = []
        var current: [Character] = []
        func flush() {
            if !current.isEmpty { result.append(String(current)) }
            current = []
        }
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            guard isIdentifierCharacter(character) else {
                flush()
                continue
            }
            if let previous = current.last {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let lowerToUpper = (previous.isLowercase || previous.isNumber) && character.isUppercase
                // `IDs` is one word: a plural acronym, not `I` followed by `Ds`.
                let afterNext = index + 2 < characters.count ? characters[index + 2] : nil
                let isPluralAcronym = next == "s" && afterNext?.isLowercase != true
                let acronymEnd =
                    previous.isUppercase && character.isUppercase && next?.isLowercase == true && !isPluralAcronym
                if lowerToUpper || acronymEnd { flush() }
            }
            current.append(character)
        }
        flush()
        return result
    }

    /// Whether a character may appear inside a generated identifier (letters and digits; `_` separates words).
    static func isIdentifierCharacter(_ character: Character) -> Bool {
        guard character.isLetter || character.isNumber else { return false }
        // Swift identifiers accept most letters and digits, but not combining marks at the start or symbols;
        // anything unusual (a character made of several scalars that are not all letters or digits) is a separator.
        return character.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                || scalar.properties.generalCategory == .nonspacingMark
        }
    }

    /// A word with its first character uppercased, or an acronym in capitals.
    static func capitalized(_ word: String) -> String {
        if acronyms.contains(word.lowercased()) { return word.uppercased() }
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    /// The first word of a property: lowercased when it is all capitals (`ID` → `id`), otherwise with its first
    /// character lowercased (`Price` → `price`).
    static func lowercasedWord(_ word: String) -> String {
        if word.allSatisfy({ !$0.isLowercase }) { return word.lowercased() }
        guard let first = word.first else { return word }
        return first.lowercased() + word.dropFirst()
    }
}
