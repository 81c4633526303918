import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@TableColumn` takes what `Column` takes, and arguments the macro can see are wrong are errors at compile time.
@Suite struct TableColumnArgumentTests {
    @Test("collation and a foreign key with its actions pass through to the column, in Column's order")
    func collationAndForeignKey() {
        assertTableExpansion(
            """
            @Table("books")
            struct Book {
                @TableColumn(primaryKey: true, autoIncrement: true) var id: Int64?
                @TableColumn(unique: true, collation: "NOCASE") var title: String
                @TableColumn("author_id", references: ForeignKey("authors", "id", onDelete: .cascade, onUpdate: .restrict), collation: "BINARY") var authorID: Int64
                @TableColumn(default: "", collation: Collation.unicodeCaseInsensitive.name, storage: .json) var tags: [String]
            }
            """,
            expandedSource: """
                struct Book {
                    var id: Int64?
                    var title: String
                    var authorID: Int64
                    var tags: [String]
                }

                extension Book: SQLiteSwiftly.TableModel {
                    static let tableName: String = "books"

                    static let columns: [SQLiteSwiftly.Column] = [
                        SQLiteSwiftly.Column("id", Int64?.self, primaryKey: true, autoIncrement: true),
                        SQLiteSwiftly.Column("title", String.self, unique: true, collation: "NOCASE"),
                        SQLiteSwiftly.Column("author_id", Int64.self, references: ForeignKey("authors", "id", onDelete: .cascade, onUpdate: .restrict), collation: "BINARY"),
                        SQLiteSwiftly.Column("tags", SQLiteSwiftlyMacros.JSONColumn.storedType([String].self), default: "", collation: Collation.unicodeCaseInsensitive.name),
                    ]

                    init(row: borrowing SQLiteSwiftly.Row) throws {
                        let column0: Int64? = try row[0]
                        let column1: String = try row[1]
                        let column2: Int64 = try row[2]
                        let column3 = try SQLiteSwiftlyMacros.JSONColumn.read([String].self, from: row, at: 3)
                        self.init(id: column0, title: column1, authorID: column2, tags: column3)
                    }

                    func encode(to encoder: inout SQLiteSwiftly.RowEncoder) throws {
                        try encoder.encode(self.id)
                        try encoder.encode(self.title)
                        try encoder.encode(self.authorID)
                        try encoder.encode(SQLiteSwiftlyMacros.JSONColumn.stored(self.tags))
                    }
                }
                """)
    }

    @Test("autoIncrement without primaryKey, on a type that is not an integer, or in a composite key is an error")
    func autoIncrement() {
        assertTableExpansion(
            """
            @Table
            struct Item {
                @TableColumn(autoIncrement: true) var id: Int
                @TableColumn(primaryKey: true, autoIncrement: true) var code: String
                @TableColumn(primaryKey: true, autoIncrement: true) var number: Int?
                @TableColumn(primaryKey: isKey, autoIncrement: true) var other: Int
            }
            """,
            expandedSource: """
                struct Item {
                    var id: Int
                    var code: String
                    var number: Int?
                    var other: Int
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "autoIncrement applies only to a primary key: add 'primaryKey: true' to 'id', "
                        + "or remove 'autoIncrement: true'",
                    line: 3, column: 18),
                DiagnosticSpec(
                    message: "autoIncrement needs an integer primary key, but 'code' has type 'String'; "
                        + "use Int or Int64 (optional, to let SQLite assign it)",
                    line: 4, column: 36),
                DiagnosticSpec(
                    message: "autoIncrement needs a single primary key, but 'code' is one of 2 ('code', 'number'); "
                        + "remove 'autoIncrement: true', or keep one primary key",
                    line: 4, column: 36),
                DiagnosticSpec(
                    message: "autoIncrement needs a single primary key, but 'number' is one of 2 ('code', 'number'); "
                        + "remove 'autoIncrement: true', or keep one primary key",
                    line: 5, column: 36),
            ])
    }

    @Test("an empty collation, referenced table or referenced column is an error")
    func emptyNames() {
        assertTableExpansion(
            """
            @Table
            struct Item {
                @TableColumn(primaryKey: true, collation: "") var id: Int
                @TableColumn(references: ForeignKey("", "id")) var owner: Int?
                @TableColumn(references: .init("owners", "")) var keeper: Int?
            }
            """,
            expandedSource: """
                struct Item {
                    var id: Int
                    var owner: Int?
                    var keeper: Int?
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "the collation of 'id' is empty; name one, such as \"NOCASE\", or remove the argument",
                    line: 3, column: 36),
                DiagnosticSpec(
                    message: "the foreign key of 'owner' names an empty table; name the referenced table",
                    line: 4, column: 41),
                DiagnosticSpec(
                    message: "the foreign key of 'keeper' names an empty column; name the referenced column",
                    line: 5, column: 46),
            ])
    }

    @Test("SET NULL on a non-optional property, or SET DEFAULT without a default, is an error")
    func actionsOnNotNullColumns() {
        assertTableExpansion(
            """
            @Table
            struct Item {
                @TableColumn(references: ForeignKey("owners", "id", onDelete: .setNull)) var owner: Int
                @TableColumn(references: ForeignKey("owners", "id", onUpdate: .setDefault)) var keeper: Int
                @TableColumn(default: 0, references: ForeignKey("owners", "id", onDelete: .setDefault)) var maker: Int
                @TableColumn(references: ForeignKey("owners", "id", onDelete: .setNull)) var seller: Int?
                @TableColumn(default: nil, references: ForeignKey("owners", "id", onDelete: .setDefault)) var buyer: Int
            }
            """,
            expandedSource: """
                struct Item {
                    var owner: Int
                    var keeper: Int
                    var maker: Int
                    var seller: Int?
                    var buyer: Int
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "onDelete: .setNull cannot apply to 'owner': its column is NOT NULL because the "
                        + "property is not optional, so SQLite would refuse the change; make the property optional, "
                        + "or choose another action",
                    line: 3, column: 57),
                DiagnosticSpec(
                    message: "onUpdate: .setDefault needs a default for 'keeper': without one the column would be "
                        + "set to NULL, which its NOT NULL refuses; add 'default:', make the property optional, "
                        + "or choose another action",
                    line: 4, column: 57),
                DiagnosticSpec(
                    message: "onDelete: .setDefault needs a default for 'buyer': without one the column would be "
                        + "set to NULL, which its NOT NULL refuses; add 'default:', make the property optional, "
                        + "or choose another action",
                    line: 7, column: 71),
            ])
    }

    @Test("a NULL default for a non-optional property, and a default of the wrong kind for a number, are errors")
    func defaults() {
        assertTableExpansion(
            """
            @Table
            struct Item {
                @TableColumn(default: .null) var name: String
                @TableColumn(default: "none") var count: Int
                @TableColumn(default: 1.5) var level: Int8
                @TableColumn(default: .text("x")) var ratio: Double
                @TableColumn(default: -1) var offset: Double
                @TableColumn(default: true) var isOn: Bool
                @TableColumn(default: .null) var note: String?
                @TableColumn(default: 7) var label: String
                @TableColumn(default: "0") var custom: Meters
            }
            """,
            expandedSource: """
                struct Item {
                    var name: String
                    var count: Int
                    var level: Int8
                    var ratio: Double
                    var offset: Double
                    var isOn: Bool
                    var note: String?
                    var label: String
                    var custom: Meters
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'name' is not optional, so its column is NOT NULL and cannot default to NULL; "
                        + "give another default, or make the property optional",
                    line: 3, column: 27),
                DiagnosticSpec(
                    message: "the default \"none\" of 'count' is not an integer, which its type 'Int' reads; "
                        + "give an integer",
                    line: 4, column: 27),
                DiagnosticSpec(
                    message: "the default 1.5 of 'level' is not an integer, which its type 'Int8' reads; "
                        + "give an integer",
                    line: 5, column: 27),
                DiagnosticSpec(
                    message: "the default .text(\"x\") of 'ratio' is not a number, which its type 'Double' reads; "
                        + "give a number",
                    line: 6, column: 27),
            ])
    }
}
