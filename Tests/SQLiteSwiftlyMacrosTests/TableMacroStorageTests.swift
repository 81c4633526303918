import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Property types `@Table` can see cannot be stored are reported at the property, with a fix-it that stores
/// collections as JSON; `@TableColumn(storage: .json)` generates the JSON code.
@Suite struct TableMacroStorageTests {
    @Test("an array of strings is one error at the property's type, with a fix-it adding @TableColumn(storage: .json)")
    func arrayWithFixIt() {
        assertTableExpansion(
            """
            @Table
            struct Recipe {
                var id: Int64
                var steps: [String]
            }
            """,
            expandedSource: """
                struct Recipe {
                    var id: Int64
                    var steps: [String]
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "property 'steps' has type '[String]', which @Table cannot store in a column; store it "
                        + "as JSON text with @TableColumn(storage: .json), or use a type that conforms to "
                        + "SQLiteValueConvertible",
                    line: 4, column: 16, fixIts: [FixItSpec(message: "add '@TableColumn(storage: .json)'")])
            ],
            fixedSource: """
                @Table
                struct Recipe {
                    var id: Int64
                    @TableColumn(storage: .json) var steps: [String]
                }
                """)
    }

    @Test("the fix-it adds storage: .json to an existing @TableColumn, with or without arguments")
    func fixItOnExistingAttribute() {
        assertTableExpansion(
            """
            @Table
            struct Recipe {
                @TableColumn("tag_list", unique: true) var tags: Set<String>?
                @TableColumn var ratings: [String: Int]
                @TableColumn() public var history: Array<Double>
            }
            """,
            expandedSource: """
                struct Recipe {
                    var tags: Set<String>?
                    var ratings: [String: Int]
                    public var history: Array<Double>
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "property 'tags' has type 'Set<String>?', which @Table cannot store in a column; store "
                        + "it as JSON text with @TableColumn(storage: .json), or use a type that conforms to "
                        + "SQLiteValueConvertible",
                    line: 3, column: 54, fixIts: [FixItSpec(message: "add 'storage: .json'")]),
                DiagnosticSpec(
                    message: "property 'ratings' has type '[String: Int]', which @Table cannot store in a column; "
                        + "store it as JSON text with @TableColumn(storage: .json), or use a type that conforms to "
                        + "SQLiteValueConvertible",
                    line: 4, column: 31, fixIts: [FixItSpec(message: "add 'storage: .json'")]),
                DiagnosticSpec(
                    message: "property 'history' has type 'Array<Double>', which @Table cannot store in a column; "
                        + "store it as JSON text with @TableColumn(storage: .json), or use a type that conforms to "
                        + "SQLiteValueConvertible",
                    line: 5, column: 40, fixIts: [FixItSpec(message: "add 'storage: .json'")]),
            ],
            fixedSource: """
                @Table
                struct Recipe {
                    @TableColumn("tag_list", unique: true, storage: .json) var tags: Set<String>?
                    @TableColumn(storage: .json) var ratings: [String: Int]
                    @TableColumn(storage: .json) public var history: Array<Double>
                }
                """)
    }

    @Test(
        "tuples, functions and existentials are errors that say what to do, without a fix-it",
        arguments: [
            ("(Int, Int)", "the tuple type '(Int, Int)'", "declare one property per value, or mark it @Transient"),
            ("() -> Void", "the function type '() -> Void'", "mark it @Transient"),
            ("(@Sendable () -> Void)?", "the function type '(@Sendable () -> Void)?'", "mark it @Transient"),
            (
                "any Error", "the type 'any Error'",
                "use a concrete type that conforms to SQLiteValueConvertible, or mark it @Transient"
            ),
            (
                "Int.Type", "the type 'Int.Type'",
                "use a concrete type that conforms to SQLiteValueConvertible, or mark it @Transient"
            ),
        ])
    func otherUnstorableTypes(type: String, what: String, advice: String) {
        assertTableExpansion(
            """
            @Table
            struct Thing {
                var x: \(type)
            }
            """,
            expandedSource: """
                struct Thing {
                    var x: \(type)
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "property 'x' has \(what), which @Table cannot store in a column; \(advice)", line: 3,
                    column: 12)
            ])
    }

    @Test("byte arrays, named types and parenthesized types are left to the compiler")
    func storableOrUnknown() {
        assertTableExpansion(
            """
            @Table
            struct Blob {
                var bytes: [UInt8]
                var more: Array<Swift.UInt8>?
                var tags: Tags
                var wrapped: (Int)
            }
            """,
            expandedSource: """
                struct Blob {
                    var bytes: [UInt8]
                    var more: Array<Swift.UInt8>?
                    var tags: Tags
                    var wrapped: (Int)
                }

                extension Blob: SQLiteSwiftly.TableModel {
                    static let tableName: String = "Blob"

                    static let columns: [SQLiteSwiftly.Column] = [
                        SQLiteSwiftly.Column("bytes", [UInt8].self),
                        SQLiteSwiftly.Column("more", Array<Swift.UInt8>?.self),
                        SQLiteSwiftly.Column("tags", Tags.self),
                        SQLiteSwiftly.Column("wrapped", (Int).self),
                    ]

                    init(row: borrowing SQLiteSwiftly.Row) throws {
                        let column0: [UInt8] = try row[0]
                        let column1: Array<Swift.UInt8>? = try row[1]
                        let column2: Tags = try row[2]
                        let column3: (Int) = try row[3]
                        self.init(bytes: column0, more: column1, tags: column2, wrapped: column3)
                    }

                    func encode(to encoder: inout SQLiteSwiftly.RowEncoder) throws {
                        try encoder.encode(self.bytes)
                        try encoder.encode(self.more)
                        try encoder.encode(self.tags)
                        try encoder.encode(self.wrapped)
                    }
                }
                """)
    }

    @Test("storage: .json reads and writes through JSONColumn, with the other options kept")
    func jsonExpansion() {
        assertTableExpansion(
            """
            @Table
            struct Recipe {
                var id: Int64
                @TableColumn("step_list", storage: .json) var steps: [String]
                @TableColumn(unique: true, storage: ColumnStorage.json) var notes: [String: String]?
                @TableColumn(storage: .value) var name: String
            }
            """,
            expandedSource: """
                struct Recipe {
                    var id: Int64
                    var steps: [String]
                    var notes: [String: String]?
                    var name: String
                }

                extension Recipe: SQLiteSwiftly.TableModel {
                    static let tableName: String = "Recipe"

                    static let columns: [SQLiteSwiftly.Column] = [
                        SQLiteSwiftly.Column("id", Int64.self),
                        SQLiteSwiftly.Column("step_list", SQLiteSwiftlyMacros.JSONColumn.storedType([String].self)),
                        SQLiteSwiftly.Column("notes", SQLiteSwiftlyMacros.JSONColumn.storedType([String: String]?.self), unique: true),
                        SQLiteSwiftly.Column("name", String.self),
                    ]

                    init(row: borrowing SQLiteSwiftly.Row) throws {
                        let column0: Int64 = try row[0]
                        let column1 = try SQLiteSwiftlyMacros.JSONColumn.read([String].self, from: row, at: 1)
                        let column2 = try SQLiteSwiftlyMacros.JSONColumn.read([String: String]?.self, from: row, at: 2)
                        let column3: String = try row[3]
                        self.init(id: column0, steps: column1, notes: column2, name: column3)
                    }

                    func encode(to encoder: inout SQLiteSwiftly.RowEncoder) throws {
                        try encoder.encode(self.id)
                        try encoder.encode(SQLiteSwiftlyMacros.JSONColumn.stored(self.steps))
                        try encoder.encode(SQLiteSwiftlyMacros.JSONColumn.stored(self.notes))
                        try encoder.encode(self.name)
                    }
                }
                """)
    }

    @Test("a storage the macro cannot read is one error, at the argument")
    func invalidStorage() {
        assertTableExpansion(
            """
            @Table
            struct Recipe {
                @TableColumn(storage: chosenStorage) var steps: [String]
            }
            """,
            expandedSource: """
                struct Recipe {
                    var steps: [String]
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "write the storage as '.value' or '.json', so that @Table can read it", line: 3,
                    column: 27)
            ])
    }
}
