import SwiftDiagnostics

/// An error the `@Table`, `@TableColumn` and `@Transient` macros report instead of generating wrong code.
struct TableDiagnostic: DiagnosticMessage, Error {
    let message: String
    let id: String

    var diagnosticID: MessageID { MessageID(domain: "SQLiteSwiftlyMacros", id: id) }
    var severity: DiagnosticSeverity { .error }

    static func notAStruct(_ kind: String) -> Self {
        Self(message: "@Table applies only to a struct, not to \(kind)", id: "notAStruct")
    }

    static let genericStruct = Self(
        message: "@Table does not support generic structs; declare the table model as a non-generic struct",
        id: "genericStruct")

    static let columnsWithoutCoding = Self(
        message: "a @Table struct that declares its own `columns` must declare `init(row:)` and `encode(to:)` too: "
            + "the generated ones follow the properties' order, which the columns may not; or let @Table make `columns`",
        id: "columnsWithoutCoding")

    static let noColumns = Self(
        message: "a @Table struct needs at least one stored property that is not @Transient", id: "noColumns")

    static let conditionalCompilation = Self(
        message: "@Table does not support #if blocks among the members; move them into an extension",
        id: "conditionalCompilation")

    static let tuplePattern = Self(
        message: "@Table does not support tuple patterns; declare one property per name", id: "tuplePattern")

    static func missingType(_ name: String) -> Self {
        Self(
            message: "stored property '\(name)' needs an explicit type annotation to be a column "
                + "(or mark it @Transient)",
            id: "missingType")
    }

    static func letWithValue(_ name: String) -> Self {
        Self(
            message: "'let' property '\(name)' has an initial value, so it cannot be read from a row; "
                + "make it 'var' or mark it @Transient",
            id: "letWithValue")
    }

    static func lazyProperty(_ name: String) -> Self {
        Self(message: "lazy property '\(name)' cannot be a column; mark it @Transient", id: "lazyProperty")
    }

    static func implicitlyUnwrapped(_ name: String) -> Self {
        Self(
            message:
                "property '\(name)' has an implicitly unwrapped type; use an Optional ('T?') for a nullable column",
            id: "implicitlyUnwrapped")
    }

    static func transientWithoutDefault(_ name: String) -> Self {
        Self(
            message: "@Transient property '\(name)' needs an initial value (or an Optional 'var' type), "
                + "because init(row:) does not set it",
            id: "transientWithoutDefault")
    }

    static func duplicateColumn(_ name: String) -> Self {
        Self(message: "two properties map to the column \"\(name)\"", id: "duplicateColumn")
    }

    static func unknownIndexedColumn(_ name: String) -> Self {
        Self(
            message: "the full-text index names \"\(name)\", which is not a column of this struct",
            id: "unknownIndexedColumn")
    }

    static let columnOnSeveralBindings = Self(
        message: "@TableColumn must annotate a declaration of exactly one property", id: "columnOnSeveralBindings")

    static func markerMisplaced(_ macro: String) -> Self {
        Self(
            message: "@\(macro) applies only to a stored instance property of a @Table struct",
            id: "markerMisplaced")
    }

    static func unstorable(_ name: String, type: String, kind: UnstorableType) -> Self {
        let what: String
        let advice: String
        switch kind {
        case .collection:
            what = "type '\(type)'"
            advice =
                "store it as JSON text with @TableColumn(storage: .json), or use a type that conforms to "
                + "SQLiteValueConvertible"
        case .tuple:
            what = "the tuple type '\(type)'"
            advice = "declare one property per value, or mark it @Transient"
        case .function:
            what = "the function type '\(type)'"
            advice = "mark it @Transient"
        case .existential:
            what = "the type '\(type)'"
            advice = "use a concrete type that conforms to SQLiteValueConvertible, or mark it @Transient"
        }
        return Self(
            message: "property '\(name)' has \(what), which @Table cannot store in a column; \(advice)",
            id: "unstorableType")
    }

    static let invalidStorage = Self(
        message: "write the storage as '.value' or '.json', so that @Table can read it", id: "invalidStorage")

    static func autoIncrementWithoutKey(_ name: String) -> Self {
        Self(
            message: "autoIncrement applies only to a primary key: add 'primaryKey: true' to '\(name)', "
                + "or remove 'autoIncrement: true'",
            id: "autoIncrementWithoutKey")
    }

    static func autoIncrementNotInteger(_ name: String, type: String) -> Self {
        Self(
            message: "autoIncrement needs an integer primary key, but '\(name)' has type '\(type)'; "
                + "use Int or Int64 (optional, to let SQLite assign it)",
            id: "autoIncrementNotInteger")
    }

    static func autoIncrementInCompositeKey(_ name: String, keys: [String]) -> Self {
        Self(
            message: "autoIncrement needs a single primary key, but '\(name)' is one of "
                + "\(keys.count) (\(keys.map { "'\($0)'" }.joined(separator: ", "))); "
                + "remove 'autoIncrement: true', or keep one primary key",
            id: "autoIncrementInCompositeKey")
    }

    static func emptyCollation(_ name: String) -> Self {
        Self(
            message: "the collation of '\(name)' is empty; name one, such as \"NOCASE\", or remove the argument",
            id: "emptyCollation")
    }

    static func emptyReference(_ name: String, what: String) -> Self {
        Self(
            message: "the foreign key of '\(name)' names an empty \(what); name the referenced \(what)",
            id: "emptyReference")
    }

    static func setNullOnNotNull(_ name: String, action: String) -> Self {
        Self(
            message: "\(action): .setNull cannot apply to '\(name)': its column is NOT NULL because the property "
                + "is not optional, so SQLite would refuse the change; make the property optional, "
                + "or choose another action",
            id: "setNullOnNotNull")
    }

    static func setDefaultWithoutDefault(_ name: String, action: String) -> Self {
        Self(
            message: "\(action): .setDefault needs a default for '\(name)': without one the column would be set "
                + "to NULL, which its NOT NULL refuses; add 'default:', make the property optional, "
                + "or choose another action",
            id: "setDefaultWithoutDefault")
    }

    static func nullDefault(_ name: String) -> Self {
        Self(
            message: "'\(name)' is not optional, so its column is NOT NULL and cannot default to NULL; "
                + "give another default, or make the property optional",
            id: "nullDefault")
    }

    static func defaultKind(_ name: String, type: String, value: String, expected: String) -> Self {
        Self(
            message: "the default \(value) of '\(name)' is not \(expected), which its type '\(type)' "
                + "reads; give \(expected)",
            id: "defaultKind")
    }

    static let columnAndTransient = Self(
        message: "a property cannot be both @TableColumn and @Transient", id: "columnAndTransient")
}

/// The fix-it that stores a property as JSON text.
struct JSONStorageFixIt: FixItMessage {
    let message: String
    var fixItID: MessageID { MessageID(domain: "SQLiteSwiftlyMacros", id: "storeAsJSON") }

    /// Adds `@TableColumn(storage: .json)`, or `storage: .json` to an existing `@TableColumn`.
    static func adding(toExistingAttribute: Bool) -> Self {
        Self(message: toExistingAttribute ? "add 'storage: .json'" : "add '@TableColumn(storage: .json)'")
    }
}
