import SQLiteSwiftly
import Testing

@testable import SQLiteSwiftlyModelGenerator

@Suite struct SwiftLiteralTests {
    @Test(
        "string literals escape what Swift requires and keep the rest",
        arguments: [
            ("plain", #""plain""#), (#"say "hi""#, #""say \"hi\"""#), (#"back\slash"#, #""back\\slash""#),
            ("line\nbreak\ttab", #""line\nbreak\ttab""#), ("nul\u{0}", #""nul\0""#), ("bell\u{7}", #""bell\u{7}""#),
            ("Café €", #""Café €""#), ("\u{200B}", #""\u{200B}""#),
        ])
    func stringLiterals(text: String, expected: String) {
        #expect(SwiftLiteral.string(text) == expected)
    }

    @Test(
        "literal DEFAULT expressions become values",
        arguments: [
            ("0", SQLiteValue.integer(0)), ("-12", .integer(-12)), ("+7", .integer(7)), ("1.5", .real(1.5)),
            ("-1.5e3", .real(-1500)), ("'n/a'", .text("n/a")), ("'it''s'", .text("it's")), ("''", .text("")),
            ("NULL", .null), ("null", .null), ("TRUE", .integer(1)), ("FALSE", .integer(0)),
            ("X'00FF'", .blob([0, 255])), ("x''", .blob([])),
        ])
    func literalDefaults(expression: String, expected: SQLiteValue) {
        #expect(SwiftLiteral.defaultValue(expression) == expected)
    }

    @Test(
        "DEFAULT expressions that are not literals are refused",
        arguments: [
            "CURRENT_TIMESTAMP", "(1 + 1)", "'a' || 'b'", "X'0'", "X'ZZ'", "99999999999999999999", "1e999", "abs(-1)",
            "",
        ])
    func expressionDefaults(expression: String) {
        #expect(SwiftLiteral.defaultValue(expression) == nil)
    }

    @Test("values render as Swift expressions for Column's default")
    func valueLiterals() {
        #expect(SwiftLiteral.value(.integer(-3)) == "-3")
        #expect(SwiftLiteral.value(.real(0.25)) == "0.25")
        #expect(SwiftLiteral.value(.text("a\"b")) == #""a\"b""#)
        #expect(SwiftLiteral.value(.null) == ".null")
        #expect(SwiftLiteral.value(.blob([0, 10, 255])) == ".blob([0x00, 0x0A, 0xFF])")
    }
}
