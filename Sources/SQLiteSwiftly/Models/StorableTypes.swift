/// Which property types of a ``CodableTableModel`` are ``SQLiteValueConvertible``, remembered per model and
/// statement.
///
/// A `Codable` property of another type than the container's primitives (a `Date`, `Data`, `UUID`, an enum)
/// arrives as a generic `T`. Asking the runtime whether `T` conforms to ``SQLiteValueConvertible`` costs about
/// 300 instructions; a model has few such types, so the answers are kept in a short list and found by a scan.
struct StorableTypes {
    private var known: [(ObjectIdentifier, (any SQLiteValueConvertible.Type)?)] = []

    /// `type` as a ``SQLiteValueConvertible`` type, or `nil`.
    mutating func storable(_ type: Any.Type) -> (any SQLiteValueConvertible.Type)? {
        let id = ObjectIdentifier(type)
        for (seen, storable) in known where seen == id { return storable }
        let storable = type as? any SQLiteValueConvertible.Type
        known.append((id, storable))
        return storable
    }
}
