#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A `Codable` value stored as JSON text: the column type of a ``Table()`` property declared
/// `@TableColumn(storage: .json)`.
///
/// The value is encoded with sorted keys (so equal values give equal text) into a `TEXT` column, and decoded from
/// the column's TEXT or BLOB bytes, as ``SQLiteSwiftly/CodableTableModel`` does for arrays and nested values. A
/// hand-written model can use it too: `Column("tags", JSONText<[String]>.self)`, `try row[2] as JSONText<[String]>`.
///
/// - A value that does not encode as JSON (a `Double.nan` inside it) throws
///   ``SQLiteSwiftly/SQLiteError/Kind/conversionFailed`` when it is written; nothing is written.
/// - Stored text that is not JSON for `Value`, or a stored INTEGER or REAL, throws
///   ``SQLiteSwiftly/SQLiteError/Kind/conversionFailed`` naming the column and row when it is read.
/// - NULL is `nil` for an optional property (see ``JSONColumn``), and an error otherwise; JSON `null` text is
///   decoded by `Value` like any other JSON.
public struct JSONText<Value: Codable>: SQLiteValueConvertible {
    /// The value.
    public var value: Value

    /// Wraps a value.
    ///
    /// - Parameter value: The value to store as JSON.
    public init(_ value: Value) {
        self.value = value
    }

    /// JSON is stored as `TEXT`.
    public static var declaredType: DeclaredType { .text }

    /// Decodes the JSON in a TEXT or BLOB value.
    ///
    /// - Parameter stored: The stored value.
    /// - Throws: ``SQLiteSwiftly/SQLiteError/Kind/conversionFailed`` for NULL, numbers, and text that is not JSON
    ///   for `Value`.
    public init(stored: borrowing StoredValue) throws(SQLiteError) {
        switch stored.storageClass {
        case .text, .blob: self.init(try Self.decode(try stored.bytes()))
        default: throw .conversion("expected JSON text, found \(stored.storageClass)")
        }
    }

    /// Decodes the JSON in a TEXT or BLOB value.
    ///
    /// - Parameter sqliteValue: The stored value.
    /// - Throws: ``SQLiteSwiftly/SQLiteError/Kind/conversionFailed`` for NULL, numbers, and text that is not JSON
    ///   for `Value`.
    public init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        switch sqliteValue {
        case .text(let text): self.init(try Self.decode(Array(text.utf8)))
        case .blob(let bytes): self.init(try Self.decode(bytes))
        default: throw .conversion("expected JSON text, found \(sqliteValue.storageClass)")
        }
    }

    /// The value encoded as JSON text, keys sorted.
    ///
    /// - Throws: ``SQLiteSwiftly/SQLiteError/Kind/conversionFailed`` when the value does not encode as JSON.
    public var sqliteValue: SQLiteValue {
        get throws(SQLiteError) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            do {
                return .text(String(decoding: try encoder.encode(value), as: UTF8.self))
            } catch {
                throw .conversion("\(Value.self) does not encode as JSON: \(error)")
            }
        }
    }

    private static func decode(_ bytes: [UInt8]) throws(SQLiteError) -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(bytes))
        } catch {
            throw .conversion("the stored text is not JSON for \(Value.self): \(error)")
        }
    }
}

extension JSONText: Equatable where Value: Equatable {}
extension JSONText: Hashable where Value: Hashable {}
extension JSONText: Sendable where Value: Sendable {}

/// The code `@Table` generates for a property declared `@TableColumn(storage: .json)`: one overload for a
/// non-optional property, whose column is `NOT NULL`, and one for an optional property, whose `nil` is stored as
/// NULL.
///
/// ```swift
/// SQLiteSwiftly.Column("steps", SQLiteSwiftlyMacros.JSONColumn.storedType([String].self))
/// self.steps = try SQLiteSwiftlyMacros.JSONColumn.read([String].self, from: row, at: 1)
/// try encoder.encode(SQLiteSwiftlyMacros.JSONColumn.stored(self.steps))
/// ```
public enum JSONColumn {
    /// The column type of a non-optional JSON property.
    ///
    /// - Parameter type: The property's type.
    /// - Returns: ``JSONText`` of it, a non-nullable `TEXT` column.
    public static func storedType<Value: Codable>(_ type: Value.Type) -> JSONText<Value>.Type {
        JSONText<Value>.self
    }

    /// The column type of an optional JSON property.
    ///
    /// - Parameter type: The property's type.
    /// - Returns: An optional ``JSONText`` of the wrapped type, a nullable `TEXT` column.
    public static func storedType<Value: Codable>(_ type: Value?.Type) -> JSONText<Value>?.Type {
        JSONText<Value>?.self
    }

    /// Reads a non-optional JSON property.
    ///
    /// - Parameters:
    ///   - type: The property's type.
    ///   - row: The row being decoded.
    ///   - index: The column's index.
    /// - Returns: The decoded value.
    /// - Throws: ``SQLiteSwiftly/SQLiteError/Kind/conversionFailed`` naming the column and row, for NULL or a
    ///   value that is not JSON for `Value`.
    public static func read<Value: Codable>(
        _ type: Value.Type, from row: borrowing Row, at index: Int
    ) throws(SQLiteError) -> Value {
        try row.value(at: index, as: JSONText<Value>.self).value
    }

    /// Reads an optional JSON property: NULL is `nil`.
    ///
    /// - Parameters:
    ///   - type: The property's type.
    ///   - row: The row being decoded.
    ///   - index: The column's index.
    /// - Returns: The decoded value, or `nil` for NULL.
    /// - Throws: ``SQLiteSwiftly/SQLiteError/Kind/conversionFailed`` naming the column and row, for a value that
    ///   is not JSON for `Value`.
    public static func read<Value: Codable>(
        _ type: Value?.Type, from row: borrowing Row, at index: Int
    ) throws(SQLiteError) -> Value? {
        try row.value(at: index, as: JSONText<Value>?.self)?.value
    }

    /// The value to encode for a non-optional JSON property.
    ///
    /// - Parameter value: The property's value.
    /// - Returns: The value wrapped in ``JSONText``.
    public static func stored<Value: Codable>(_ value: Value) -> JSONText<Value> {
        JSONText(value)
    }

    /// The value to encode for an optional JSON property: `nil` is stored as NULL.
    ///
    /// - Parameter value: The property's value.
    /// - Returns: The value wrapped in ``JSONText``, or `nil`.
    public static func stored<Value: Codable>(_ value: Value?) -> JSONText<Value>? {
        guard let value else { return nil }
        return JSONText(value)
    }
}
