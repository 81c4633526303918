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

    /// No positional argument is `empty`, never `positional([])`: an argument list without a payload copies with
    /// no reference counting, and SQL without parameters copies its arguments several times per run.
    @usableFromInline enum Storage: Hashable, Sendable {
        case empty
        case positional([Argument])
        case named([String: Argument])

        static func positional(checkingEmpty arguments: [Argument]) -> Storage {
            arguments.isEmpty ? .empty : .positional(arguments)
        }
    }

    /// The arguments, by kind.
    @usableFromInline var storage: Storage

    /// No arguments, for SQL without parameters.
    @inlinable public static var none: StatementArguments { StatementArguments(storage: .empty) }

    /// Creates positional arguments; `nil` binds NULL.
    ///
    /// - Parameter values: One value per parameter, in order.
    public init(_ values: [(any SQLiteValueConvertible)?]) {
        storage = .positional(checkingEmpty: values.map { $0?.statementArgument ?? .value(.null) })
    }

    /// Creates named arguments; `nil` binds NULL.
    ///
    /// - Parameter values: Values keyed by parameter name, with or without the `:`, `@` or `$` prefix.
    public init(named values: [String: (any SQLiteValueConvertible)?]) {
        storage = .named(values.mapValues { $0?.statementArgument ?? .value(.null) })
    }

    /// Wraps storage as it is; ``none`` uses it to stay inlinable.
    @usableFromInline init(storage: Storage) {
        self.storage = storage
    }

    init(positional arguments: [Argument]) {
        storage = .positional(checkingEmpty: arguments)
    }

    /// Creates positional arguments from an array literal.
    ///
    /// - Parameter elements: One value per parameter, in order.
    public init(arrayLiteral elements: (any SQLiteValueConvertible)?...) {
        self.init(elements)
    }

    /// Creates named arguments from a dictionary literal.
    ///
    /// A name given twice makes the arguments fail to bind with ``SQLiteError/Kind/parameterMismatch``, rather
    /// than keep one of the two values.
    ///
    /// - Parameter elements: Pairs of parameter name and value.
    public init(dictionaryLiteral elements: (String, (any SQLiteValueConvertible)?)...) {
        var values: [String: Argument] = [:]
        for (name, value) in elements {
            guard values[name] == nil else {
                values[name] = .invalid(
                    SQLiteError(.parameterMismatch, message: "the argument \"\(name)\" is given twice"))
                continue
            }
            values[name] = value?.statementArgument ?? .value(.null)
        }
        storage = .named(values)
    }

    /// Whether there are no arguments.
    public var isEmpty: Bool {
        switch storage {
        case .empty: true
        case .positional(let values): values.isEmpty
        case .named(let values): values.isEmpty
        }
    }

    /// Appends positional arguments; for SQL built from interpolated fragments.
    mutating func append(contentsOf other: StatementArguments) {
        switch (storage, other.storage) {
        case (_, .empty): return
        case (.empty, .positional): storage = other.storage
        case (.positional(var values), .positional(let more)):
            values += more
            storage = .positional(values)
        default: return  // SQL carries positional arguments only
        }
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

extension StatementArguments: CustomStringConvertible {
    /// The arguments, positional `[INTEGER 1, TEXT "Mars"]` or named `[id: INTEGER 1]` (sorted by name); `[]` for
    /// none. Unlike an ``SQLiteError``, which never shows bound values, this shows them: it is what you print.
    public var description: String {
        switch storage {
        case .empty: "[]"
        case .positional(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .named(let values):
            "[" + values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
        }
    }
}

extension StatementArguments.Argument: CustomStringConvertible {
    /// The value (`INTEGER 1`), or `invalid (...)` with the error that made it invalid.
    public var description: String {
        switch self {
        case .value(let value): value.description
        case .invalid(let error): "invalid (\(error))"
        }
    }
}
