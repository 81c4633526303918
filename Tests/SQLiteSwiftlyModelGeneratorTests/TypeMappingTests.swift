import SQLiteSwiftly
import Testing

@testable import SQLiteSwiftlyModelGenerator

@Suite struct TypeMappingTests {
    @Test(
        "declared types map by SQLite's affinity rules",
        arguments: [
            ("INTEGER", DeclaredType.integer, "Int"), ("int", .integer, "Int"), ("BIGINT", .integer, "Int"),
            ("SMALLINT", .integer, "Int"), ("POINT", .integer, "Int"),  // "INT" wins, as in SQLite
            ("TEXT", .text, "String"), ("VARCHAR(20)", .text, "String"), ("CLOB", .text, "String"),
            ("NATIVE CHARACTER(70)", .text, "String"), ("BLOB", .blob, "Data"), ("", .any, "SQLiteValue"),
            // Spaces alone are a declared type to SQLite, with NUMERIC affinity.
            ("  ", .numeric, "SQLiteValue"), ("REAL", .real, "Double"), ("DOUBLE PRECISION", .real, "Double"),
            ("FLOAT", .real, "Double"), ("NUMERIC", .numeric, "Double"), ("DECIMAL(10, 2)", .numeric, "Double"),
            ("BOOLEAN", .numeric, "Bool"), ("bool", .numeric, "Bool"), ("DATETIME", .numeric, "String"),
            ("DATE", .numeric, "String"), ("TIMESTAMP", .numeric, "String"), ("MONEY", .numeric, "Double"),
            ("NUMBER(5)", .numeric, "Double"), ("JSON", .numeric, "SQLiteValue"), ("ANY", .numeric, "SQLiteValue"),
            ("STRING", .numeric, "SQLiteValue"), ("UUID", .numeric, "SQLiteValue"),
        ])
    func mapping(declared: String, declaredType: DeclaredType, swiftType: String) {
        let mapping = TypeMapping(declaredType: declared)
        #expect(mapping.declaredType == declaredType)
        #expect(mapping.swiftType == swiftType)
    }

    @Test(
        "the stored-value check refuses exactly the values each Swift type cannot read",
        arguments: [
            ("INTEGER", ["1", "NULL"], ["1.5", "'a'", "X'00'"]),
            ("BOOLEAN", ["0", "1", "NULL"], ["2", "0.5", "'true'"]),
            ("REAL", ["1", "1.5", "NULL"], ["'a'", "X'00'"]),
            ("TEXT", ["'a'", "NULL"], ["1", "1.5", "X'00'"]),
            ("BLOB", ["X'00'", "'a'", "NULL"], ["1", "1.5"]),
        ])
    func unreadableCondition(declared: String, readable: [String], unreadable: [String]) throws {
        let mapping = TypeMapping(declaredType: declared)
        let condition = try #require(mapping.unreadableCondition(column: "v"))
        let db = try Connection.inMemory()
        for value in readable + unreadable {
            let sql = SQL(verbatim: "SELECT \(condition) FROM (SELECT \(value) AS v)")
            let refused = try db.fetchValue(Int?.self, sql) ?? nil
            #expect((refused == 1) == unreadable.contains(value), "\(declared): \(value)")
        }
        #expect(TypeMapping(declaredType: "").unreadableCondition(column: "v") == nil)
    }
}

@Suite struct QuotedSQLNameTests {
    @Test("a name is quoted byte by byte: a quote joined to a combining mark is doubled too")
    func quoteWithCombiningMark() {
        #expect("unit price".quotedSQLName == "\"unit price\"")
        #expect("a\"b".quotedSQLName == "\"a\"\"b\"")
        #expect("a\"\u{301}b".quotedSQLName.utf8.filter { $0 == UInt8(ascii: "\"") }.count == 4)
    }
}
