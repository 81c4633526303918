import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Each unsupported declaration gets an error at the offending place, and no code.
@Suite struct TableMacroDiagnosticsTests {
    @Test(
        "@Table on a type that is not a struct is an error",
        arguments: [("class", "a class"), ("enum", "an enum"), ("actor", "an actor")])
    func notAStruct(keyword: String, kind: String) {
        assertTableExpansion(
            """
            @Table
            \(keyword) Planet {
            }
            """,
            expandedSource: """
                \(keyword) Planet {
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "@Table applies only to a struct, not to \(kind)", line: 1, column: 1)
            ])
    }

    @Test("a generic struct is an error")
    func genericStruct() {
        assertTableExpansion(
            """
            @Table
            struct Box<Value> {
                var id: Int
            }
            """,
            expandedSource: """
                struct Box<Value> {
                    var id: Int
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Table does not support generic structs; declare the table model as a non-generic struct",
                    line: 1, column: 1)
            ])
    }

    @Test("columns declared by hand without init(row:) and encode(to:) are an error: the orders may differ")
    func columnsWithoutCoding() {
        assertTableExpansion(
            """
            @Table
            struct Person {
                static let columns = [Column("id", Int.self, primaryKey: true), Column("last", String.self), Column("first", String.self)]
                var id: Int
                var first: String
                var last: String
            }
            """,
            expandedSource: """
                struct Person {
                    static let columns = [Column("id", Int.self, primaryKey: true), Column("last", String.self), Column("first", String.self)]
                    var id: Int
                    var first: String
                    var last: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "a @Table struct that declares its own `columns` must declare `init(row:)` and "
                        + "`encode(to:)` too: the generated ones follow the properties' order, which the columns may "
                        + "not; or let @Table make `columns`",
                    line: 1, column: 1)
            ])
    }

    @Test("a stored property without a type annotation is an error")
    func missingType() {
        assertTableExpansion(
            """
            @Table
            struct Planet {
                var id: Int
                var name = "Earth"
            }
            """,
            expandedSource: """
                struct Planet {
                    var id: Int
                    var name = "Earth"
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "stored property 'name' needs an explicit type annotation to be a column "
                        + "(or mark it @Transient)",
                    line: 4, column: 9)
            ])
    }

    @Test("a let property with an initial value is an error")
    func letWithValue() {
        assertTableExpansion(
            """
            @Table
            struct Planet {
                var id: Int
                let kind: String = "planet"
            }
            """,
            expandedSource: """
                struct Planet {
                    var id: Int
                    let kind: String = "planet"
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'let' property 'kind' has an initial value, so it cannot be read from a row; "
                        + "make it 'var' or mark it @Transient",
                    line: 4, column: 9)
            ])
    }

    @Test("lazy, implicitly unwrapped and tuple-pattern properties are errors, each reported")
    func severalErrors() {
        assertTableExpansion(
            """
            @Table
            struct Planet {
                lazy var id: Int = 0
                var name: String!
                var (x, y): (Int, Int)
            }
            """,
            expandedSource: """
                struct Planet {
                    lazy var id: Int = 0
                    var name: String!
                    var (x, y): (Int, Int)
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "lazy property 'id' cannot be a column; mark it @Transient", line: 3, column: 14),
                DiagnosticSpec(
                    message: "property 'name' has an implicitly unwrapped type; use an Optional ('T?') for a "
                        + "nullable column",
                    line: 4, column: 15),
                DiagnosticSpec(
                    message: "@Table does not support tuple patterns; declare one property per name", line: 5,
                    column: 9),
            ])
    }

    @Test("a @Transient property without a default value is an error; an Optional var is fine")
    func transientWithoutDefault() {
        assertTableExpansion(
            """
            @Table
            struct Planet {
                var id: Int
                @Transient var cache: [Int]
                @Transient var note: String?
            }
            """,
            expandedSource: """
                struct Planet {
                    var id: Int
                    var cache: [Int]
                    var note: String?
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Transient property 'cache' needs an initial value (or an Optional 'var' type), "
                        + "because init(row:) does not set it",
                    line: 4, column: 20)
            ])
    }

    @Test("two properties mapping to the same column name (ignoring case) is an error")
    func duplicateColumn() {
        assertTableExpansion(
            """
            @Table
            struct Planet {
                var name: String
                @TableColumn("NAME") var title: String
            }
            """,
            expandedSource: """
                struct Planet {
                    var name: String
                    var title: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "two properties map to the column \"NAME\"", line: 4, column: 30)
            ])
    }

    @Test("a struct without columns is an error")
    func noColumns() {
        assertTableExpansion(
            """
            @Table
            struct Empty {
                @Transient var x = 0
                var computed: Int { 1 }
                static var shared = 2
            }
            """,
            expandedSource: """
                struct Empty {
                    var x = 0
                    var computed: Int { 1 }
                    static var shared = 2
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "a @Table struct needs at least one stored property that is not @Transient", line: 1,
                    column: 1)
            ])
    }

    @Test("#if among the members is an error")
    func conditionalCompilation() {
        assertTableExpansion(
            """
            @Table
            struct Planet {
                var id: Int
                #if DEBUG
                var debugName: String
                #endif
            }
            """,
            expandedSource: """
                struct Planet {
                    var id: Int
                    #if DEBUG
                    var debugName: String
                    #endif
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Table does not support #if blocks among the members; move them into an extension",
                    line: 4, column: 5)
            ])
    }

    @Test("@TableColumn and @Transient on a computed or static property are errors")
    func markersMisplaced() {
        assertTableExpansion(
            """
            struct Planet {
                @TableColumn(unique: true) var label: String { "" }
                @Transient static var count = 0
            }
            """,
            expandedSource: """
                struct Planet {
                    var label: String { "" }
                    static var count = 0
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@TableColumn applies only to a stored instance property of a @Table struct", line: 2,
                    column: 5),
                DiagnosticSpec(
                    message: "@Transient applies only to a stored instance property of a @Table struct", line: 3,
                    column: 5),
            ])
    }

    // Several bindings are refused by the macro system itself, before TableColumnMacro runs.
    @Test("@TableColumn with @Transient, or on several bindings, is an error")
    func markerConflicts() {
        assertTableExpansion(
            """
            struct Planet {
                @TableColumn("n") @Transient var name: String = ""
                @TableColumn(unique: true) var a, b: Int
            }
            """,
            expandedSource: """
                struct Planet {
                    var name: String = ""
                    var a, b: Int
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "a property cannot be both @TableColumn and @Transient", line: 2, column: 5),
                DiagnosticSpec(message: "peer macro can only be applied to a single variable", line: 3, column: 5),
            ])
    }
}
