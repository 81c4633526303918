/// The values bound to a statement's parameters: positional (`?`, `?NNN`) or named (`:name`, `@name`, `$name`).
///
/// Write positional arguments as an array literal and named ones as a dictionary literal. Every parameter
/// needs exactly one argument: a missing, extra or misnamed argument is a
/// ``SQLiteError/Kind/parameterMismatch`` error before the statement runs. Values are always bound, never
/// spliced into the SQL text.
///
/// ```swift
/// try db.execute("UPDATE planets SET moons = ? WHERE name = ?", [2, "Mars"])
/// try db.execute("UPDATE planets SET moons = :moons WHERE name = :name", ["moons": 2, "name": "Mars"])
/// ```
///
/// Named arguments are keyed by the parameter's name without its prefix character (`"moons"` for `:moons`);
/// a key that keeps the prefix (`":moons"`) is accepted too. With named arguments every parameter must have a
/// name: SQL that mixes `?` with named parameters takes positional arguments, in parameter order.
///
/// Most queries need no argument list at all: interpolate the values into an ``SQL`` literal instead, and
/// they are bound the same way.
public struct StatementArguments: Hashable, Sendable, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// One argument: a value, or a value that failed to convert.
    public enum Argument: Hashable, Sendable {
        /// A single value.
        case value(SQLiteValue)
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
    public init(_ values: [(any SQLiteValueConvertible)?]) {
        storage = .positional(values.map { $0?.statementArgument ?? .value(.null) })
    }

    /// Creates named arguments; `nil` binds NULL.
    ///
    /// - Parameter values: Values keyed by parameter name, with or without the `:`, `@` or `$` prefix.
    public init(named values: [String: (any SQLiteValueConvertible)?]) {
        storage = .named(values.mapValues { $0?.statementArgument ?? .value(.null) })
    }

    init(positional arguments: [Argument]) {
        storage = .positional(arguments)
    }

    /// Creates positional arguments from an array literal.
    ///
    /// - Parameter elements: One value per parameter, in order.
    public init(arrayLiteral elements: (any SQLiteValueConvertible)?...) {
        self.init(elements)
    }

    /// Creates named arguments from a dictionary literal.
    ///
    /// - Parameter elements: Pairs of parameter name and value.
    public init(dictionaryLiteral elements: (String, (any SQLiteValueConvertible)?)...) {
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

    /// Appends positional arguments; for SQL built from interpolated fragments.
    mutating func append(contentsOf other: StatementArguments) {
        guard case .positional(var values) = storage, case .positional(let more) = other.storage else { return }
        values += more
        storage = .positional(values)
    }
}

extension SQLiteValueConvertible {
    /// The value as a single statement argument: its ``SQLiteValue``, or the error that prevents storing it.
    var statementArgument: StatementArguments.Argument {
        do {
            return .value(try sqliteValue)
        } catch {
            return .invalid(error)
        }
    }
}
