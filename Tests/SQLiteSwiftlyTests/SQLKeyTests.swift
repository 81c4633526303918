import Foundation
import Testing

@testable import SQLiteSwiftly

/// The statement cache's key: the SQL text with a hash of its UTF-8 bytes, made once.
@Suite struct SQLKeyTests {
    /// Texts of every length up to 40 bytes (small strings hold up to 15), with a multi-byte character in some.
    static let texts: [String] = (0...40).map { (length: Int) -> String in
        var text = ""
        for index in 0..<length {
            let letter = Character(UnicodeScalar(UInt8(97 + index % 26)))
            text.append(index % 7 == 6 ? "é" : letter)
        }
        return text
    }

    @Test("a text gives the same key and hash however its string is stored", arguments: texts)
    func sameTextSameKey(text: String) {
        let key = SQLKey(text)
        let copies = [
            String(decoding: Array(text.utf8), as: UTF8.self),  // native, or small
            String(Substring(text)),
            "" + text + "",
            String(NSString(string: text)),
            String(text.unicodeScalars),
        ]
        for copy in copies {
            #expect(SQLKey(copy) == key)
            #expect(SQLKey(copy).hash == key.hash)
        }
    }

    @Test("texts that differ in one byte, at either end or inside, get different hashes")
    func differentTexts() {
        let base = "SELECT id, name FROM planets WHERE id = ?"
        var variants = [base + " ", " " + base, base.replacingOccurrences(of: "name", with: "nbme")]
        variants.append(String(base.dropLast()) + "!")
        variants.append("T" + base.dropFirst())
        for variant in variants {
            #expect(SQLKey(variant) != SQLKey(base))
            #expect(SQLKey(variant).hash != SQLKey(base).hash)
        }
        #expect(SQLKey("a").hash != SQLKey("b").hash)
        #expect(SQLKey("").hash != SQLKey("\0").hash)
    }
}
