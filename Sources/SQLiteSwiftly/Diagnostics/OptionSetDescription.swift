// How the library's option sets print: the names of their members, as an array literal.

extension OptionSet where RawValue: FixedWidthInteger, Element == Self {
    /// The set as the names of its members, `[insert, delete]`, in the order of `names`; bits that no name covers
    /// (a set made from raw bits) are shown in hexadecimal, so that nothing in the set is hidden.
    func listedDescription(_ names: [(option: Self, name: String)]) -> String {
        var rest = rawValue
        var parts: [String] = []
        for (option, name) in names where contains(option) {
            parts.append(name)
            rest &= ~option.rawValue
        }
        if rest != 0 { parts.append("0x" + String(rest, radix: 16)) }
        return "[" + parts.joined(separator: ", ") + "]"
    }
}
