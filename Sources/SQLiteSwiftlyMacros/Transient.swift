/// Leaves a stored property of a ``Table()`` struct out of the table.
///
/// ```swift
/// @Table
/// struct Note {
///     var id: Int64
///     var text: String
///     @Transient var isSelected = false
/// }
/// ```
///
/// The property needs an initial value (or an Optional `var` type), since the generated `init(row:)` does not
/// set it. The attribute generates nothing itself: ``Table()`` reads it.
@attached(peer)
public macro Transient() = #externalMacro(module: "SQLiteSwiftlyMacrosPlugin", type: "TransientMacro")
