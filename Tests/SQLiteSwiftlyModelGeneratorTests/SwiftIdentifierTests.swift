import Testing

@testable import SQLiteSwiftlyModelGenerator

@Suite struct SwiftIdentifierTests {
    @Test(
        "column names become lowerCamelCase properties",
        arguments: [
            ("unit price", "unitPrice"), ("order_id", "orderID"), ("CustomerID", "customerID"), ("ID", "id"),
            ("URLPath", "urlPath"), ("mixedCase_Table", "mixedCaseTable"), ("UPPER", "upper"),
            ("2nd choice", "_2ndChoice"), ("Näme", "näme"), ("Preis €", "preis"), ("  ", "column"), ("€", "column"),
            ("snake__case", "snakeCase"), ("a-b.c", "aBC"), ("default", "default"),
        ])
    func propertyNames(sqlName: String, expected: String) {
        #expect(SwiftIdentifier.propertyName(for: sqlName) == expected)
    }

    @Test(
        "table names become UpperCamelCase types",
        arguments: [
            ("Order Details", "OrderDetails"), ("orders", "Orders"), ("2020 sales", "_2020Sales"),
            ("Café Menü", "CaféMenü"), ("order_items", "OrderItems"), ("user id map", "UserIDMap"), ("***", "Table"),
        ])
    func typeNames(sqlName: String, expected: String) {
        #expect(SwiftIdentifier.typeName(for: sqlName) == expected)
    }

    @Test(
        "type names put the last word in the singular by simple English rules",
        arguments: [
            ("Customers", "Customer"), ("Order Details", "OrderDetail"), ("categories", "Category"),
            ("order_items", "OrderItem"), ("people", "Person"), ("Children", "Child"), ("addresses", "Address"),
            ("boxes", "Box"), ("batches", "Batch"), ("dishes", "Dish"), ("status", "Status"),
            ("statuses", "Status"), ("analysis", "Analysis"), ("houses", "House"), ("archives", "Archive"),
            ("ties", "Tie"), ("movies", "Movie"), ("series", "Series"), ("news", "News"), ("data", "Data"),
            ("inventory", "Inventory"), ("sales_2020", "Sales2020"), ("Café Menü", "CaféMenü"), ("USERS", "USER"),
            ("COMPANIES", "COMPANY"), ("user IDs", "UserID"), ("2020 sales", "_2020Sale"), ("bus", "Bus"),
            ("us", "Us"), ("s", "S"),
        ])
    func singularTypeNames(sqlName: String, expected: String) {
        #expect(SwiftIdentifier.typeName(for: sqlName, singular: true) == expected)
    }

    @Test("keywords are escaped with backticks, other names are not", arguments: ["default", "class", "self", "Type"])
    func keywordsAreEscaped(keyword: String) {
        #expect(SwiftIdentifier.escaped(keyword) == "`\(keyword)`")
        #expect(SwiftIdentifier.escaped(keyword + "s") == keyword + "s")
    }

    @Test("as argument labels, only inout keeps its backticks", arguments: ["default", "class", "self", "let", "name"])
    func argumentLabels(_ name: String) {
        #expect(SwiftIdentifier.argumentLabel(name) == name)
        #expect(SwiftIdentifier.argumentLabel("inout") == "`inout`")
    }

    @Test("clashing names get the smallest free number suffix")
    func uniqueNames() {
        var taken: Set<String> = []
        #expect(SwiftIdentifier.unique("unitPrice", in: &taken) == "unitPrice")
        #expect(SwiftIdentifier.unique("unitPrice", in: &taken) == "unitPrice2")
        #expect(SwiftIdentifier.unique("unitPrice", in: &taken) == "unitPrice3")
        #expect(taken == ["unitPrice", "unitPrice2", "unitPrice3"])
    }

    @Test("words split at separators, case steps and acronym ends")
    func words() {
        #expect(SwiftIdentifier.words(in: "HTTPServer_port number") == ["HTTP", "Server", "port", "number"])
        #expect(SwiftIdentifier.words(in: "version2Name") == ["version2", "Name"])
        #expect(SwiftIdentifier.words(in: "userIDs") == ["user", "IDs"])
        #expect(SwiftIdentifier.words(in: "IDsList") == ["IDs", "List"])
        #expect(SwiftIdentifier.words(in: "URLsafe") == ["UR", "Lsafe"], "a lowercase run after s is a word")
        #expect(SwiftIdentifier.words(in: "").isEmpty)
    }
}
