/// The singular of an English plural noun, by a few simple rules, for naming a row type after its table:
/// `Customers` → `Customer`, `Order Details` → `OrderDetail`, `categories` → `Category`.
///
/// Only the last word of a name changes (`order_items` → `OrderItem`), and the rules are deliberately few, applied
/// in this order (letters compared ignoring case; the word keeps its capitals):
///
/// 1. Words with the same singular and plural, and words that are usually not counted, stay as they are:
///    ``unchanged`` (`data`, `series`, `news`, `staff`...).
/// 2. Irregular plurals come from a short table, ``irregular`` (`people` → `person`, `children` → `child`,
///    `indices` → `index`, `statuses` → `status`...).
/// 3. `-ies` → `-y` (`categories` → `category`), when at least two letters come before it (`ties` → `tie`).
/// 4. `-sses`, `-xes`, `-ches`, `-shes` lose `-es` (`addresses` → `address`, `boxes` → `box`,
///    `batches` → `batch`).
/// 5. Words ending in `-ss`, `-us` or `-is` are already singular (`address`, `status`, `analysis`).
/// 6. Any other word ending in `-s` loses it (`orders` → `order`, `houses` → `house`, `archives` → `archive`).
/// 7. Anything else stays as it is (`inventory`, `Café Menü`). A last word that is not all letters is left
///    alone too, so `sales_2020` gives `Sales2020`.
///
/// English has more exceptions than any short list: when a name comes out wrong, rename the generated type, or
/// pass `--keep-table-names` to name every type after its table exactly.
enum EnglishSingular {
    /// Words left as they are.
    static let unchanged: Set<String> = [
        "data", "metadata", "series", "species", "news", "information", "equipment", "staff", "sheep", "fish",
        "deer", "media", "feedback", "software", "hardware", "settings", "analytics", "physics", "mathematics",
    ]

    /// Irregular plurals and their singulars.
    static let irregular: [String: String] = [
        "people": "person", "children": "child", "men": "man", "women": "woman", "mice": "mouse", "geese": "goose",
        "feet": "foot", "teeth": "tooth", "indices": "index", "matrices": "matrix", "vertices": "vertex",
        "criteria": "criterion", "phenomena": "phenomenon", "analyses": "analysis", "theses": "thesis",
        "crises": "crisis", "diagnoses": "diagnosis", "statuses": "status", "buses": "bus", "aliases": "alias",
        "bonuses": "bonus", "campuses": "campus", "viruses": "virus", "heroes": "hero", "potatoes": "potato",
        "tomatoes": "tomato", "echoes": "echo", "knives": "knife", "wives": "wife", "lives": "life",
        "leaves": "leaf", "halves": "half", "shelves": "shelf", "wolves": "wolf", "quizzes": "quiz",
        "movies": "movie", "cookies": "cookie",
    ]

    /// The singular of one word.
    ///
    /// - Parameter word: A word, in any case.
    /// - Returns: Its singular, with the word's capitals kept where the letters are kept.
    static func singular(of word: String) -> String {
        let lower = word.lowercased()
        if unchanged.contains(lower) { return word }
        if let singular = irregular[lower] { return matchingCase(singular, of: word) }
        guard lower.count > 2, lower.last == "s", lower.allSatisfy(\.isLetter) else { return word }
        if lower.hasSuffix("ies") && lower.count > 4 { return replacingEnd(of: word, count: 3, with: "y") }
        if ["sses", "xes", "ches", "shes"].contains(where: lower.hasSuffix) {
            return String(word.dropLast(2))
        }
        if ["ss", "us", "is"].contains(where: lower.hasSuffix) { return word }
        return String(word.dropLast())
    }

    /// `replacement` in place of the last `count` characters, in capitals when the word is all capitals.
    private static func replacingEnd(of word: String, count: Int, with replacement: String) -> String {
        let isAllCapitals = word.allSatisfy { !$0.isLowercase }
        return String(word.dropLast(count)) + (isAllCapitals ? replacement.uppercased() : replacement)
    }

    /// `singular` with the capitals of `word`: all capitals, a capital first letter, or as it is.
    private static func matchingCase(_ singular: String, of word: String) -> String {
        if word.allSatisfy({ !$0.isLowercase }) { return singular.uppercased() }
        if word.first?.isUppercase == true, let first = singular.first {
            return first.uppercased() + singular.dropFirst()
        }
        return singular
    }
}
