import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The exact code `@Table` generates.
@Suite struct TableMacroExpansionTests {
    @Test("a plain struct gets tableName, columns, init(row:) by index and encode(to:) in declaration order")
    func plainStruct() {
        assertTableExpansion(
            """
            @Table
            struct Planet {
                var id: Int64
                var name: String
                var moons: Int?
            }
            """,
            expandedSource: """
                struct Planet {
                    var id: Int64
                    var name: String
                    var moons: Int?
                }

                extension Planet: SQLiteSwiftly.TableModel {
                    static let tableName: String = "Planet"

                    static let columns: [SQLiteSwiftly.Column] = [
                        SQLiteSwiftly.Column("id", Int64.self),
                        SQLiteSwiftly.Column("name", String.self),
                        SQLiteSwiftly.Column("moons", Int?.self),
                    ]

                    init(row: borrowing SQLiteSwiftly.Row) throws {
                        let column0: Int64 = try row[0]
                        let column1: String = try row[1]
                        let column2: Int? = try row[2]
                        self.init(id: column0, name: column1, moons: column2)
                    }

                    func encode(to encoder: inout SQLiteSwiftly.RowEncoder) throws {
                        try encoder.encode(self.id)
                        try encoder.encode(self.name)
                        try encoder.encode(self.moons)
                    }
                }
                """)
    }

    @Test("column options pass through; keywords lose their backticks; transient, computed, static are skipped")
    func optionsAndSkippedProperties() {
        assertTableExpansion(
            """
            @Table("moons")
            struct Moon {
                @TableColumn("moon_id", primaryKey: true, autoIncrement: true) var id: Int64
                @TableColumn(unique: true, default: "?") var name: String
                @TableColumn(references: ForeignKey("planets", "id")) var planet: Int64
                var `default`: Bool
                var hours, minutes: Int
                @Transient var isSelected = false
                var label: String { name }
                static let all: [Moon] = []
                var observed: Double = 0 {
                    didSet { isSelected = true }
                }
            }
            """,
            expandedSource: """
                struct Moon {
                    var id: Int64
                    var name: String
                    var planet: Int64
                    var `default`: Bool
                    var hours, minutes: Int
                    var isSelected = false
                    var label: String { name }
                    static let all: [Moon] = []
                    var observed: Double = 0 {
                        didSet { isSelected = true }
                    }
                }

                extension Moon: SQLiteSwiftly.TableModel {
                    static let tableName: String = "moons"

                    static let columns: [SQLiteSwiftly.Column] = [
                        SQLiteSwiftly.Column("moon_id", Int64.self, primaryKey: true, autoIncrement: true),
                        SQLiteSwiftly.Column("name", String.self, unique: true, default: "?"),
                        SQLiteSwiftly.Column("planet", Int64.self, references: ForeignKey("planets", "id")),
                        SQLiteSwiftly.Column("default", Bool.self),
                        SQLiteSwiftly.Column("hours", Int.self),
                        SQLiteSwiftly.Column("minutes", Int.self),
                        SQLiteSwiftly.Column("observed", Double.self),
                    ]

                    init(row: borrowing SQLiteSwiftly.Row) throws {
                        let column0: Int64 = try row[0]
                        let column1: String = try row[1]
                        let column2: Int64 = try row[2]
                        let column3: Bool = try row[3]
                        let column4: Int = try row[4]
                        let column5: Int = try row[5]
                        let column6: Double = try row[6]
                        self.init(id: column0, name: column1, planet: column2, default: column3, hours: column4, minutes: column5, observed: column6)
                    }

                    func encode(to encoder: inout SQLiteSwiftly.RowEncoder) throws {
                        try encoder.encode(self.id)
                        try encoder.encode(self.name)
                        try encoder.encode(self.planet)
                        try encoder.encode(self.`default`)
                        try encoder.encode(self.hours)
                        try encoder.encode(self.minutes)
                        try encoder.encode(self.observed)
                    }
                }
                """)
    }

    @Test("a public struct gets public members; indexes become static let indexes")
    func publicWithIndexes() {
        assertTableExpansion(
            """
            @Table("stars", indexes: [TableIndex("stars_by_name", on: ["name"])])
            public struct Star {
                public var name: String
            }
            """,
            expandedSource: """
                public struct Star {
                    public var name: String
                }

                extension Star: SQLiteSwiftly.TableModel {
                    public static let tableName: String = "stars"

                    public static let columns: [SQLiteSwiftly.Column] = [
                        SQLiteSwiftly.Column("name", String.self),
                    ]

                    public static let indexes: [SQLiteSwiftly.TableIndex] = [TableIndex("stars_by_name", on: ["name"])]

                    public init(row: borrowing SQLiteSwiftly.Row) throws {
                        let column0: String = try row[0]
                        self.init(name: column0)
                    }

                    public func encode(to encoder: inout SQLiteSwiftly.RowEncoder) throws {
                        try encoder.encode(self.name)
                    }
                }
                """)
    }

    @Test("members the struct declares itself are not generated; package access is kept")
    func declaredMembersKept() {
        assertTableExpansion(
            """
            @Table(indexes: [])
            package struct Probe {
                static let tableName = "probes"
                var id: Int
                init(row: borrowing Row) throws {
                    id = try row[0]
                }
            }
            """,
            expandedSource: """
                package struct Probe {
                    static let tableName = "probes"
                    var id: Int
                    init(row: borrowing Row) throws {
                        id = try row[0]
                    }
                }

                extension Probe: SQLiteSwiftly.TableModel {
                    package static let columns: [SQLiteSwiftly.Column] = [
                        SQLiteSwiftly.Column("id", Int.self),
                    ]

                    package static let indexes: [SQLiteSwiftly.TableIndex] = []

                    package func encode(to encoder: inout SQLiteSwiftly.RowEncoder) throws {
                        try encoder.encode(self.id)
                    }
                }
                """)
    }

    @Test(
        "without a memberwise initializer to call (an init of its own, a private or wrapped property), the read values are assigned",
        arguments: [
            ("init(name: String) { self.name = name }", "var name: String"),
            ("", "private var name: String"),
            ("", "@Trimmed var name: String"),
        ])
    func assignsWithoutMemberwiseInitializer(extra: String, property: String) {
        let extraLine = extra.isEmpty ? "" : "\n    \(extra)"
        let extraExpanded = extra.isEmpty ? "" : "\n    \(extra)"
        assertTableExpansion(
            """
            @Table
            struct Note {
                \(property)\(extraLine)
            }
            """,
            expandedSource: """
                struct Note {
                    \(property)\(extraExpanded)
                }

                extension Note: SQLiteSwiftly.TableModel {
                    static let tableName: String = "Note"

                    static let columns: [SQLiteSwiftly.Column] = [
                        SQLiteSwiftly.Column("name", String.self),
                    ]

                    init(row: borrowing SQLiteSwiftly.Row) throws {
                        let column0: String = try row[0]
                        self.name = column0
                    }

                    func encode(to encoder: inout SQLiteSwiftly.RowEncoder) throws {
                        try encoder.encode(self.name)
                    }
                }
                """)
    }
}
