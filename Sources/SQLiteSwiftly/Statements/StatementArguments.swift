/// A value that can be passed as a statement argument: any ``SQLiteValueConvertible`` value, or a ``ValueList``.
///
/// You do not implement this protocol; it lets argument lists mix single values and lists.
public protocol SQLiteArgument {
    /// The argument as the library binds it.
    var statementArgument: StatementArguments.Argument { get }
}

/// The values bound to a statement's parameters: positional (`?`, `?NNN`) or named (`:name`, `@name`, `$name`).
///
/// Write positional arguments as an array literal and named ones as a dictionary literal, keyed by the name
/// without its prefix character. Every parameter needs exactly one argument: a missing, extra or misnamed
/// argument is a ``SQLiteError/Kind/parameterMismatch`` error before the statement runs. Values are always
/// bound, never spliced into the SQL text.
///
/// ```swift
/// try db.execute("UPDATE planets SET moons = ? WHERE name = ?", [2, "Mars"])
/// try db.execute("UPDATE planets SET moons = :moons WHERE name = :name", ["moons": 2, "name": "Mars"])
/// try db.fetchAll(Planet.self, "SELECT * FROM planets WHERE id IN (?)", [ValueList([1, 2, 3])])
/// ```
public struct StatementArguments: Hashable, Sendable, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// One argument: a value, a list to expand into an `IN (?)` placeholder, or a value that failed to convert.
    public enum Argument: Hashable, Sendable {
        /// A single value.
        case value(SQLiteValue)
        /// A list of values that replaces one placeholder with as many placeholders as it has elements.
        case list([SQLiteValue])
        /// A value that could not be converted, such as NaN; binding it throws this error.
        case invalid(SQLiteError)
    }

    enum Storage: Hashable, Sendable {
        case positional([Argument])
        case named([String: Argument])
    }

    var storage: Storage

    /// No arguments, for SQL without parameters.
    public static let none = StatementArguments(positional: [])

    /// Creates positional arguments; `nil` binds NULL.
    ///
    /// - Parameter values: One value per parameter, in order.
    public init(_ values: [(any SQLiteArgument)?]) {
        storage = .positional(values.map { $0?.statementArgument ?? .value(.null) })
    }

    /// Creates named arguments; `nil` binds NULL.
    ///
    /// - Parameter values: Values keyed by parameter name, with or without the `:`, `@` or `$` prefix.
    public init(named values: [String: (any SQLiteArgument)?]) {
        storage = .named(values.mapValues { $0?.statementArgument ?? .value(.null) })
    }

    /// Creates positional arguments from already converted values.
    ///
    /// - Parameter values: One value per parameter, in order.
    public init(values: [SQLiteValue]) {
        storage = .positional(values.map { .value($0) })
    }

    init(positional arguments: [Argument]) {
        storage = .positional(arguments)
    }

    /// Creates positional arguments from an array literal.
    ///
    /// - Parameter elements: One value per parameter, in order.
    public init(arrayLiteral elements: (any SQLiteArgument)?...) {
        self.init(elements)
    }

    /// Creates named arguments from a dictionary literal.
    ///
    /// - Parameter elements: Pairs of parameter name and value.
    public init(dictionaryLiteral elements: (String, (any SQLiteArgument)?)...) {
        var values: [String: Argument] = [:]
        for (name, value) in elements { values[name] = value?.statementArgument ?? .value(.null) }
        storage = .named(values)
    }

    /// Whether there are no arguments.
    public var isEmpty: Bool {
        switch storage {
        case .positional(let values): values.isEmpty
        case .named(let values): values.isEmpty
        }
    }

    /// Whether some argument is a list that needs placeholder expansion.
    var containsList: Bool {
        func isList(_ argument: Argument) -> Bool {
            if case .list = argument { return true }
            return false
        }
        switch storage {
        case .positional(let values): return values.contains(where: isList)
        case .named(let values): return values.values.contains(where: isList)
        }
    }
}

/// A list of values bound to one `IN (?)` placeholder, which the library expands to `IN (?, ?, ?)`.
///
/// ```swift
/// let ids = [1, 4, 9]
/// let planets = try db.fetchAll(Planet.self, "SELECT * FROM planets WHERE id IN (?)", [ValueList(ids)])
/// ```
///
/// An empty list expands to `IN ()`, which SQLite accepts and which matches nothing.
public struct ValueList: SQLiteArgument, Hashable, Sendable {
    /// The argument as the library binds it: a list, or the first value that failed to convert.
    public let statementArgument: StatementArguments.Argument

    /// Creates a list from any sequence of storable values.
    ///
    /// - Parameter values: The values, in order.
    public init<Values: Sequence>(_ values: Values) where Values.Element: SQLiteValueConvertible {
        var converted: [SQLiteValue] = []
        for value in values {
            do {
                converted.append(try value.sqliteValue)
            } catch {
                statementArgument = .invalid(error)
                return
            }
        }
        statementArgument = .list(converted)
    }
}
