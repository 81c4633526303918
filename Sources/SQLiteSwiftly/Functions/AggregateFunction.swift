import CSQLiteSwiftly

/// An aggregate function written in Swift: SQLite creates one value per group, steps it with each row's
/// arguments, and asks it for the result.
///
/// Register it with ``SQLFunction/init(_:argumentCount:options:aggregate:)``. Each group (each call of the
/// aggregate in each run of a statement) gets a fresh value from `init()`, so an aggregate needs no reset:
///
/// ```swift
/// struct Median: AggregateFunction {
///     var values: [Double] = []
///     mutating func step(_ arguments: borrowing FunctionArguments) throws {
///         if let value: Double = try arguments[0] { values.append(value) }
///     }
///     func finalize() -> Double? {
///         let sorted = values.sorted()
///         guard !sorted.isEmpty else { return nil }
///         let middle = sorted.count / 2
///         return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
///     }
/// }
/// try db.add(function: SQLFunction("median", argumentCount: 1, aggregate: Median.self))
/// ```
///
/// The value lives on the thread that steps the statement, for the duration of its group; it is freed after
/// ``finalize()``, also when the group had no row and when the statement fails.
public protocol AggregateFunction {
    /// The type of the aggregate's result.
    associatedtype Result: SQLiteValueConvertible
    /// Creates the value for a new group.
    init()
    /// Adds one row's arguments.
    ///
    /// - Parameter arguments: The row's arguments, lent for the call.
    /// - Throws: Any error, which makes the statement fail with ``SQLiteError/Kind/functionFailed``.
    mutating func step(_ arguments: borrowing FunctionArguments) throws
    /// The result for the group.
    ///
    /// - Returns: The result; `nil` is SQL NULL when `Result` is optional.
    /// - Throws: Any error, which makes the statement fail with ``SQLiteError/Kind/functionFailed``.
    func finalize() throws -> Result
}

/// An aggregate that can also run as a window function (`OVER (...)`), where rows leave the window as well
/// as enter it.
///
/// Register it with ``SQLFunction/init(_:argumentCount:options:window:)``. SQLite calls ``AggregateFunction/step(_:)`` for
/// each row that enters the frame, ``inverse(_:)`` for each row that leaves it, ``value()`` for the current
/// frame's result, and ``AggregateFunction/finalize()`` at the end of each partition.
public protocol WindowFunction: AggregateFunction {
    /// Removes one row's arguments: the oldest row that entered and has not left yet.
    ///
    /// - Parameter arguments: The arguments the row had when it entered.
    /// - Throws: Any error, which makes the statement fail with ``SQLiteError/Kind/functionFailed``.
    mutating func inverse(_ arguments: borrowing FunctionArguments) throws
    /// The result for the current frame.
    ///
    /// - Returns: The result; `nil` is SQL NULL when `Result` is optional.
    /// - Throws: Any error, which makes the statement fail with ``SQLiteError/Kind/functionFailed``.
    func value() throws -> Result
}
