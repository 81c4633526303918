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
            ("NATIVE CHARACTER(70)", .text, "String"), ("BLOB", .blob, "Data"), ("", .blob, "Data"),
            ("REAL", .real, "Double"), ("DOUBLE PRECISION", .real, "Double"), ("FLOAT", .real, "Double"),
            ("NUMERIC", .numeric, "Double"), ("DECIMAL(10, 2)", .numeric, "Double"), ("BOOLEAN", .numeric, "Bool"),
            ("bool", .numeric, "Bool"), ("DATETIME", .numeric, "String"), ("DATE", .numeric, "String"),
            ("TIMESTAMP", .numeric, "String"), ("MONEY", .numeric, "Double"),
        ])
    func mapping(declared: String, declaredType: DeclaredType, swiftType: String) {
        let mapping = TypeMapping(declaredType: declared)
        #expect(mapping.declaredType == declaredType)
        #expect(mapping.swiftType == swiftType)
    }
}
