/// Which tables and views a run of the generator leaves out: those whose name matches one of the patterns given
/// with `--exclude`, and the library's own bookkeeping tables (`sqliteswiftly_*`, such as the migrator's
/// `sqliteswiftly_migrations`). SQLite's own tables (`sqlite_*`) never reach it: ``SchemaReader`` leaves them out.
///
/// A pattern is a table name in which `*` matches any run of characters and `?` matches one; names are compared
/// as SQLite compares them, ignoring ASCII case. A table named with `--table` is generated even if a pattern
/// matches it.
struct TableFilter: Hashable, Sendable {
    /// The patterns of the library's own tables, always excluded.
    static let bookkeepingPatterns = ["sqliteswiftly_*"]

    /// The patterns given with `--exclude`.
    var patterns: [String]

    /// The pattern that excludes `name`, and whether it is one of ``bookkeepingPatterns``; `nil` when the table is
    /// generated.
    func exclusion(of name: String) -> (pattern: String, isBookkeeping: Bool)? {
        let key = Array(name.nameKey)
        if let pattern = Self.bookkeepingPatterns.first(where: { Self.matches(Array($0.nameKey), key) }) {
            return (pattern, true)
        }
        if let pattern = patterns.first(where: { Self.matches(Array($0.nameKey), key) }) {
            return (pattern, false)
        }
        return nil
    }

    /// Whether `name` matches the glob `pattern`: `*` any run of characters, `?` one character.
    static func matches(_ pattern: [Character], _ name: [Character]) -> Bool {
        // The classic two-pointer walk, backtracking to the last `*`: linear in practice, never exponential.
        var (p, n) = (0, 0)
        var star: (pattern: Int, name: Int)?
        while n < name.count {
            if p < pattern.count && (pattern[p] == "?" || pattern[p] == name[n]) {
                p += 1
                n += 1
            } else if p < pattern.count && pattern[p] == "*" {
                star = (p, n)
                p += 1
            } else if let last = star {
                p = last.pattern + 1
                n = last.name + 1
                star = (last.pattern, last.name + 1)
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
