import CSQLiteSwiftly

/// A Swift function that SQL can call: a scalar function, an aggregate or a window function.
///
/// A function is a value: create it once, then add it to a ``Connection`` with ``Connection/add(function:)``,
/// to a ``SharedConnection`` or to every connection of a ``ConnectionPool``. A scalar function's arguments
/// arrive typed, decoded with the same conversions as a ``Row``'s columns, and its result is any
/// ``SQLiteValueConvertible`` value, `nil` included:
///
/// ```swift
/// let score = SQLFunction("score", options: .deterministic) { (stars: Int, reviews: Int) in
///     Double(stars) * log(Double(reviews + 1))
/// }
/// try db.add(function: score)
/// let best = try db.fetchAll(UntypedRow.self, "SELECT name FROM hotels ORDER BY score(stars, reviews) DESC")
/// ```
///
/// The closure runs on whatever thread steps the statement that calls it, possibly several at once when the
/// function is added to several connections, so it is `@Sendable`. Its arguments are lent to it for the call
/// and cannot escape it. A closure that throws, or an argument that does not convert to its declared type, makes
/// the statement fail with ``SQLiteError/Kind/functionFailed``: the error names the function
/// (``SQLiteError/function``) and the statement's SQL, and its message is the thrown error's description.
///
/// Functions are *direct-only* by default (`SQLITE_DIRECTONLY`): SQL written by the program can call them,
/// but views, triggers, `CHECK` constraints, generated columns and indexes cannot, so that a database file
/// written by someone else cannot make the program run them. ``Options/innocuous`` lifts that restriction.
public struct SQLFunction: Sendable {
    /// How SQLite may use a function.
    public struct Options: OptionSet, Hashable, Sendable {
        /// The option bits.
        public let rawValue: Int

        /// Creates options from their bits.
        ///
        /// - Parameter rawValue: The option bits.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// The function always gives the same result for the same arguments and has no side effects.
        ///
        /// SQLite may then evaluate it once for constant arguments, and allows it where a deterministic
        /// expression is required (with ``innocuous``: indexes, generated columns, `CHECK`). The corresponding
        /// C constant is `SQLITE_DETERMINISTIC`.
        public static let deterministic = Options(rawValue: 1)
        /// The function is harmless wherever it runs, so the schema (views, triggers, `CHECK`, generated
        /// columns, indexes) may call it.
        ///
        /// Without this option a function is direct-only (`SQLITE_DIRECTONLY`). Declare it only for functions
        /// without side effects that reveal nothing beyond their arguments. The corresponding C constant is
        /// `SQLITE_INNOCUOUS`.
        public static let innocuous = Options(rawValue: 2)
    }

    /// The name SQL calls the function by (SQLite compares names ignoring ASCII case).
    public let name: String
    /// The number of arguments, or `nil` for a function that takes any number.
    public let argumentCount: Int?
    /// How SQLite may use the function.
    public let options: Options
    @usableFromInline let implementation: Implementation

    /// What the function does, as callbacks over SQLite's call arguments.
    @usableFromInline enum Implementation: Sendable {
        case scalar(ScalarCall)
        case aggregate(AggregateCalls)
    }

    /// A scalar call: sets the result on the context, or throws.
    @usableFromInline typealias ScalarCall =
        @Sendable (OpaquePointer, Int32, UnsafeMutablePointer<OpaquePointer?>?) throws -> Void

    @usableFromInline init(name: String, argumentCount: Int?, options: Options, implementation: Implementation) {
        self.name = name
        self.argumentCount = argumentCount
        self.options = options
        self.implementation = implementation
    }

    /// Creates a scalar function whose arguments are typed by the closure's parameters.
    ///
    /// The function takes exactly as many arguments as the closure. Each argument converts as a column read
    /// does: an `Int` parameter refuses TEXT and NULL, an `Int?` accepts NULL.
    ///
    /// ```swift
    /// let initials = SQLFunction("initials") { (name: String) in
    ///     String(name.split(separator: " ").compactMap(\.first))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name SQL calls the function by.
    ///   - options: How SQLite may use the function; direct-only and not deterministic by default.
    ///   - body: The function, given its arguments. It runs on the thread that steps the calling statement.
    @inlinable
    public init<
        each Argument: SQLiteValueConvertible & SendableMetatype, Result: SQLiteValueConvertible & SendableMetatype
    >(
        _ name: String, options: Options = [], _ body: @escaping @Sendable (repeat each Argument) throws -> Result
    ) {
        var count = 0
        for _ in repeat (each Argument).self { count += 1 }
        self.init(
            name: name, argumentCount: count, options: options,
            implementation: .scalar { context, argumentCount, values in
                let arguments = FunctionArguments(count: argumentCount, values: values)
                var index = -1
                func next<Value: SQLiteValueConvertible>(_ type: Value.Type) throws(SQLiteError) -> Value {
                    index += 1
                    return try arguments.value(at: index, as: type)
                }
                let result = try body(repeat try next((each Argument).self))
                try FunctionResult.set(result, on: context)
            })
    }

    // The same initializer for zero to three arguments, without a parameter pack: Swift 6.3 does not specialize
    // a closure over a pack, which would then look up type metadata and cast its result on every call. Overload
    // resolution prefers these; the pack initializer serves longer argument lists.

    /// Creates a scalar function without arguments; see the initializer with any number of typed arguments.
    ///
    /// - Parameters:
    ///   - name: The name SQL calls the function by.
    ///   - options: How SQLite may use the function.
    ///   - body: The function.
    @inlinable
    public init<Result: SQLiteValueConvertible & SendableMetatype>(
        _ name: String, options: Options = [], _ body: @escaping @Sendable () throws -> Result
    ) {
        self.init(
            name: name, argumentCount: 0, options: options,
            implementation: .scalar { context, _, _ in try FunctionResult.set(try body(), on: context) })
    }

    /// Creates a scalar function of one typed argument; see the initializer with any number of typed arguments.
    ///
    /// - Parameters:
    ///   - name: The name SQL calls the function by.
    ///   - options: How SQLite may use the function.
    ///   - body: The function, given its argument.
    @inlinable
    public init<A: SQLiteValueConvertible & SendableMetatype, Result: SQLiteValueConvertible & SendableMetatype>(
        _ name: String, options: Options = [], _ body: @escaping @Sendable (A) throws -> Result
    ) {
        self.init(
            name: name, argumentCount: 1, options: options,
            implementation: .scalar { context, count, values in
                let arguments = FunctionArguments(count: count, values: values)
                try FunctionResult.set(try body(arguments.value(at: 0)), on: context)
            })
    }

    /// Creates a scalar function of two typed arguments; see the initializer with any number of typed arguments.
    ///
    /// - Parameters:
    ///   - name: The name SQL calls the function by.
    ///   - options: How SQLite may use the function.
    ///   - body: The function, given its arguments.
    @inlinable
    public init<
        A: SQLiteValueConvertible & SendableMetatype, B: SQLiteValueConvertible & SendableMetatype,
        Result: SQLiteValueConvertible & SendableMetatype
    >(_ name: String, options: Options = [], _ body: @escaping @Sendable (A, B) throws -> Result) {
        self.init(
            name: name, argumentCount: 2, options: options,
            implementation: .scalar { context, count, values in
                let arguments = FunctionArguments(count: count, values: values)
                try FunctionResult.set(try body(arguments.value(at: 0), arguments.value(at: 1)), on: context)
            })
    }

    /// Creates a scalar function of three typed arguments; see the initializer with any number of typed
    /// arguments.
    ///
    /// - Parameters:
    ///   - name: The name SQL calls the function by.
    ///   - options: How SQLite may use the function.
    ///   - body: The function, given its arguments.
    @inlinable
    public init<
        A: SQLiteValueConvertible & SendableMetatype, B: SQLiteValueConvertible & SendableMetatype,
        C: SQLiteValueConvertible & SendableMetatype, Result: SQLiteValueConvertible & SendableMetatype
    >(_ name: String, options: Options = [], _ body: @escaping @Sendable (A, B, C) throws -> Result) {
        self.init(
            name: name, argumentCount: 3, options: options,
            implementation: .scalar { context, count, values in
                let arguments = FunctionArguments(count: count, values: values)
                let result = try body(arguments.value(at: 0), arguments.value(at: 1), arguments.value(at: 2))
                try FunctionResult.set(result, on: context)
            })
    }

    /// Creates a scalar function that reads its arguments itself, for any number of arguments or arguments
    /// whose type varies.
    ///
    /// ```swift
    /// let firstText = SQLFunction("first_text") { (arguments: borrowing FunctionArguments) -> String? in
    ///     for index in 0..<arguments.count where try arguments.storageClass(at: index) == .text {
    ///         return try arguments[index]
    ///     }
    ///     return nil
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name SQL calls the function by.
    ///   - argumentCount: The number of arguments, or `nil` (the default) for any number.
    ///   - options: How SQLite may use the function; direct-only and not deterministic by default.
    ///   - body: The function, given a view of its arguments valid for the call.
    @inlinable
    public init<Result: SQLiteValueConvertible & SendableMetatype>(
        _ name: String, argumentCount: Int? = nil, options: Options = [],
        _ body: @escaping @Sendable (borrowing FunctionArguments) throws -> Result
    ) {
        self.init(
            name: name, argumentCount: argumentCount, options: options,
            implementation: .scalar { context, count, values in
                try FunctionResult.set(try body(FunctionArguments(count: count, values: values)), on: context)
            })
    }

    /// The SQLite flags for the options: UTF-8, direct-only unless innocuous.
    var flags: Int32 {
        var flags = SQLITE_UTF8
        if options.contains(.deterministic) { flags |= SQLITE_DETERMINISTIC }
        flags |= options.contains(.innocuous) ? SQLITE_INNOCUOUS : SQLITE_DIRECTONLY
        return flags
    }
}

extension SQLFunction {
    /// Creates an aggregate function: one fresh `Aggregate` per group.
    ///
    /// - Parameters:
    ///   - name: The name SQL calls the aggregate by.
    ///   - argumentCount: The number of arguments, or `nil` for any number.
    ///   - options: How SQLite may use the aggregate; direct-only by default.
    ///   - aggregate: The aggregate type.
    @inlinable
    public init<Aggregate: AggregateFunction & SendableMetatype>(
        _ name: String, argumentCount: Int?, options: Options = [], aggregate: Aggregate.Type
    ) {
        self.init(
            name: name, argumentCount: argumentCount, options: options,
            implementation: .aggregate(
                AggregateCalls(
                    step: { try AggregateStorage<Aggregate>.step($0, $1, $2) },
                    final: { try AggregateStorage<Aggregate>.final($0) }, value: nil, inverse: nil)))
    }

    /// Creates a window function, also usable as a plain aggregate: one fresh `Window` per partition.
    ///
    /// - Parameters:
    ///   - name: The name SQL calls the function by.
    ///   - argumentCount: The number of arguments, or `nil` for any number.
    ///   - options: How SQLite may use the function; direct-only by default.
    ///   - window: The window function type.
    @inlinable
    public init<Window: WindowFunction & SendableMetatype>(
        _ name: String, argumentCount: Int?, options: Options = [], window: Window.Type
    ) {
        self.init(
            name: name, argumentCount: argumentCount, options: options,
            implementation: .aggregate(
                AggregateCalls(
                    step: { try AggregateStorage<Window>.step($0, $1, $2) },
                    final: { try AggregateStorage<Window>.final($0) },
                    value: { try AggregateStorage<Window>.value($0) },
                    inverse: { try AggregateStorage<Window>.inverse($0, $1, $2) })))
    }
}

extension SQLFunction.Options: CustomStringConvertible {
    /// The options by name: `[deterministic, innocuous]`.
    public var description: String {
        listedDescription([(.deterministic, "deterministic"), (.innocuous, "innocuous")])
    }
}
