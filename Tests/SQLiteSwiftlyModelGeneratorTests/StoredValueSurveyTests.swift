import SQLiteSwiftly
import Testing

@testable import SQLiteSwiftlyModelGenerator

/// The rows can widen a column's type to ``SQLiteValue`` (or make a primary key optional), never narrow it.
@Suite struct StoredValueSurveyTests {
    func generate(_ schema: String, options: ModelGenerator.Options = .init()) throws -> GeneratedModels {
        let db = try Connection.inMemory()
        try db.executeScript(SQL(verbatim: schema))
        return try ModelGenerator(connection: db, options: options).generate()
    }

    @Test("a typed column holding values its Swift type cannot read becomes a SQLiteValue, and says why")
    func widening() throws {
        let generated = try generate(
            """
            CREATE TABLE t (n INTEGER, d DATE, ok TEXT, flag BOOLEAN NOT NULL);
            INSERT INTO t VALUES (1, '2025-01-01', 'a', 0), ('one', 1735689600, 'b', 'yes'), (2, 86400, 'c', 1);
            """)
        let source = generated.source
        #expect(source.contains("    var n: SQLiteValue?\n"))
        #expect(source.contains("1 row holds a value that Int cannot read (not INTEGER), so it is a SQLiteValue."))
        #expect(source.contains("    var d: SQLiteValue?\n"))
        #expect(source.contains("2 rows hold values that String cannot read (not TEXT), so it is a SQLiteValue."))
        #expect(source.contains("    var ok: String?\n"))
        #expect(source.contains("    var flag: SQLiteValue\n"), "NOT NULL stays non-optional")
        #expect(source.contains(#"Column("n", .integer, nullable: true)"#), "the column type stays the same")
        #expect(
            generated.summary == [
                #"table "t" -> T: 4 columns; SQLiteValue because of the stored values: "n", "d", "flag""#
            ])
    }

    @Test("the rows never narrow a type, and --schema-only does not read them")
    func noNarrowingAndSchemaOnly() throws {
        let schema = "CREATE TABLE t (any, n INTEGER); INSERT INTO t VALUES (1, 'x'), (2, 'y');"
        let checked = try generate(schema).source
        #expect(checked.contains("    var any: SQLiteValue?\n"), "integers only, yet the schema allows any value")
        #expect(checked.contains("    var n: SQLiteValue?\n"))
        let schemaOnly = try generate(schema, options: .init(checksStoredValues: false)).source
        #expect(schemaOnly.contains("    var n: Int?\n"))
    }

    @Test("a primary key not declared NOT NULL is optional only when a row holds NULL")
    func nullKeys() throws {
        let withNull = try generate("CREATE TABLE t (k TEXT PRIMARY KEY); INSERT INTO t VALUES ('a'), (NULL);").source
        #expect(withNull.contains("    var k: String?\n"))
        #expect(withNull.contains(#"Column("k", .text, nullable: true, primaryKey: true)"#))
        let without = try generate("CREATE TABLE t (k TEXT PRIMARY KEY); INSERT INTO t VALUES ('a');").source
        #expect(without.contains("    var k: String\n"))
        #expect(without.contains("(NULL allowed by the schema: a NULL key fails to read)"))
    }

    @Test("a table wider than one query's aggregates is checked in several queries")
    func wideTable() throws {
        let count = StoredValueSurvey.aggregatesPerQuery + 20
        let columns = (0..<count).map { "c\($0) INTEGER" }.joined(separator: ", ")
        let values = (0..<count).map { $0 == count - 1 ? "'text'" : "\($0)" }.joined(separator: ", ")
        let source = try generate("CREATE TABLE t (\(columns)); INSERT INTO t VALUES (\(values));").source
        #expect(source.contains("    var c\(count - 1): SQLiteValue?\n"))
        #expect(source.contains("    var c\(count - 2): Int?\n"))
        #expect(source.contains("    var c0: Int?\n"))
    }

    @Test("rows that fail to read leave the declared types, with a note")
    func unreadableRows() throws {
        let generated = try generate(
            """
            CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1);
            CREATE VIEW v AS SELECT a FROM t WHERE json('{') IS NOT NULL;
            """)
        #expect(generated.source.contains("    var a: Int?\n"))
        #expect(generated.source.contains("/// - The rows could not be read to check the types: malformed JSON"))
        #expect(generated.summary.last == #"view "v" -> V (read-only): 1 column; left as comments: rows not checked"#)
    }
}
