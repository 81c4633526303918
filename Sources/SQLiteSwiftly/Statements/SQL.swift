/// SQL text and the values it uses, written with string interpolation: every interpolated value becomes a
/// bound parameter, never text in the SQL.
///
/// Every method that takes SQL takes an `SQL`, so a string literal works as before and its interpolations are
/// bound:
///
/// ```swift
/// let name = "Mars"
/// let mars = try db.fetchOne(Planet.self, "SELECT * FROM planets WHERE name = \(name)")
/// // runs SELECT * FROM planets WHERE name = ?, with "Mars" bound to the parameter
/// let near = try db.fetchAll(Planet.self, "SELECT * FROM planets WHERE id IN (\(list: [1, 3, 4]))")
/// try db.execute("UPDATE \(identifier: table) SET moons = \(2) WHERE name = \(name)")
/// ```
///
/// - `\(value)` binds any ``SQLiteValueConvertible`` value (`nil` optionals bind NULL). A value of another type
///   does not compile: it is never spliced as text.
/// - `\(list: values)` binds each element of a sequence, separated by commas: `IN (\(list: ids))`. An empty
///   sequence gives `IN ()`, which matches nothing.
/// - `\(identifier: name)` writes a table or column name quoted (`"my ""table"""`), for names that vary.
/// - `\(fragment)` splices another `SQL`, with its values, to build queries from parts.
///
/// Text that is already SQL, such as a script read from a file, becomes an `SQL` with ``init(verbatim:)``;
/// a `String` variable is not accepted as SQL by itself, so text with values pasted in cannot slip through.
public struct SQL: Hashable, Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The SQL text, with a `?` for each interpolated value.
    public private(set) var text: String
    /// The interpolated values, in the order of their `?` placeholders.
    public private(set) var arguments: StatementArguments

    /// Creates SQL from a literal without interpolations.
    ///
    /// - Parameter value: The SQL text.
    public init(stringLiteral value: String) {
        text = value
        arguments = .none
    }

    /// Creates SQL from a literal with interpolations.
    ///
    /// - Parameter stringInterpolation: The literal's parts.
    public init(stringInterpolation: Interpolation) {
        text = stringInterpolation.text
        arguments = StatementArguments(positional: stringInterpolation.arguments)
    }

    /// Uses text that is already SQL, as it is.
    ///
    /// For SQL built at run time or read from a file. Nothing in `text` is bound: pass values as arguments, or
    /// build the SQL with interpolation instead.
    ///
    /// - Parameter text: The SQL text.
    public init(verbatim text: String) {
        self.text = text
        arguments = .none
    }

    /// The SQL text, with `?` in place of the values (which are never shown: they may be private data).
    public var description: String { text }

    /// Joins two fragments: the text one after the other, the values in the same order.
    ///
    /// - Parameters:
    ///   - lhs: The first fragment.
    ///   - rhs: The second fragment.
    /// - Returns: The fragments together.
    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        var joined = lhs
        joined.text += rhs.text
        joined.arguments.append(contentsOf: rhs.arguments)
        return joined
    }

    /// The text and the arguments to bind: the interpolated values, or `explicit` when there are none.
    ///
    /// - Throws: ``SQLiteError/Kind/parameterMismatch`` when both are given: the order of their parameters
    ///   would be a guess.
    @usableFromInline func resolved(with explicit: StatementArguments) throws(SQLiteError) -> (
        String, StatementArguments
    ) {
        if arguments.isEmpty { return (text, explicit) }
        guard explicit.isEmpty else {
            throw SQLiteError(
                .parameterMismatch,
                message: "the SQL has interpolated values and an argument list too; give the values one way",
                sql: text)
        }
        return (text, arguments)
    }

    /// The parts of an `SQL` literal, as Swift collects them.
    public struct Interpolation: StringInterpolationProtocol {
        var text: String
        var arguments: [StatementArguments.Argument] = []

        /// Prepares for a literal of about `literalCapacity` characters and `interpolationCount` values.
        ///
        /// - Parameters:
        ///   - literalCapacity: The length of the literal's text parts.
        ///   - interpolationCount: The number of interpolations.
        public init(literalCapacity: Int, interpolationCount: Int) {
            text = ""
            text.reserveCapacity(literalCapacity + 2 * interpolationCount)
            arguments.reserveCapacity(interpolationCount)
        }

        /// Appends SQL text.
        ///
        /// - Parameter literal: Text of the literal.
        public mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// Appends a `?` placeholder and binds `value` to it.
        ///
        /// - Parameter value: The value; `nil` binds NULL.
        public mutating func appendInterpolation<Value: SQLiteValueConvertible>(_ value: Value) {
            text += "?"
            arguments.append(value.statementArgument)
        }

        /// Appends a `?` placeholder and binds `value` to it, or NULL for `nil`.
        ///
        /// - Parameter value: The value, or `nil`.
        public mutating func appendInterpolation<Wrapped: SQLiteValueConvertible>(_ value: Wrapped?) {
            text += "?"
            arguments.append(value.statementArgument)
        }

        /// Appends one placeholder per element, separated by commas, and binds the elements to them.
        ///
        /// - Parameter values: The values, in order; an empty sequence appends nothing.
        public mutating func appendInterpolation<Values: Sequence>(list values: Values)
        where Values.Element: SQLiteValueConvertible {
            var first = true
            for value in values {
                text += first ? "?" : ", ?"
                first = false
                arguments.append(value.statementArgument)
            }
        }

        /// Appends a quoted identifier: `my "table"` becomes `"my ""table"""`.
        ///
        /// - Parameter identifier: A table, column or index name.
        public mutating func appendInterpolation(identifier: String) {
            text += identifier.quotedSQLIdentifier
        }

        /// Appends another fragment, with its values.
        ///
        /// - Parameter fragment: The SQL to splice.
        public mutating func appendInterpolation(_ fragment: SQL) {
            text += fragment.text
            if case .positional(let values) = fragment.arguments.storage { arguments += values }
        }
    }
}
