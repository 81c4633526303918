import Foundation
import SQLiteSwiftly
import Testing

@testable import SQLiteSwiftlyModelGenerator

/// The generator's output for the shop fixture is checked in as `ShopModels.swift`, which this target compiles:
/// these tests compare the output with it, then read the fixture's rows with every generated type and write new
/// rows with every table type.
///
/// To update the file after a deliberate change, run the suite with `UPDATE_GENERATED_MODELS=1`.
@Suite struct ShopModelsTests {
    /// The fixture database, opened read-only as the command opens it.
    func shopDatabase(in directory: TemporaryDirectory) throws -> Connection {
        try Connection(opening: ShopFixture.database(in: directory), readOnly: true)
    }

    @Test("the output for the shop fixture is the checked-in ShopModels.swift")
    func matchesCheckedInFile() throws {
        let directory = try TemporaryDirectory()
        let source = try ModelGenerator(connection: shopDatabase(in: directory)).generate().source
        if ProcessInfo.processInfo.environment["UPDATE_GENERATED_MODELS"] == "1" {
            try Data(source.utf8).write(to: URL(fileURLWithPath: ShopFixture.generatedPath))
        }
        let checkedIn = try String(contentsOfFile: ShopFixture.generatedPath, encoding: .utf8)
        #expect(source == checkedIn, "run with UPDATE_GENERATED_MODELS=1 to update ShopModels.swift")
    }

    @Test("the --access public output for the shop fixture is the checked-in ShopPublicModels.swift")
    func matchesCheckedInPublicFile() throws {
        let directory = try TemporaryDirectory()
        let options = ModelGenerator.Options(access: .public)
        let source = try ModelGenerator(connection: shopDatabase(in: directory), options: options).generate().source
        if ProcessInfo.processInfo.environment["UPDATE_GENERATED_MODELS"] == "1" {
            try Data(source.utf8).write(to: URL(fileURLWithPath: ShopFixture.publicGeneratedPath))
        }
        let checkedIn = try String(contentsOfFile: ShopFixture.publicGeneratedPath, encoding: .utf8)
        #expect(source == checkedIn, "run with UPDATE_GENERATED_MODELS=1 to update ShopPublicModels.swift")
    }

    /// Reads every row of each generated type and returns the count, keyed by type name.
    static let readers: [String: @Sendable (Connection) throws -> Int] = [
        "_2020Sale": { try $0.fetchAll(_2020Sale.self).count },
        "AuditLog": { try $0.fetchAll(AuditLog.self).count },
        "CaféMenü": { try $0.fetchAll(CaféMenü.self).count },
        "Category": { try $0.fetchAll(Category.self).count },
        "Customer": { try $0.fetchAll(Customer.self).count },
        "MixedCaseTable": { try $0.fetchAll(MixedCaseTable.self).count },
        "OrderDetail": { try $0.fetchAll(OrderDetail.self).count },
        "Order": { try $0.fetchAll(Order.self).count },
        "Person": { try $0.fetchAll(Person.self).count },
        "Product": { try $0.fetchAll(Product.self).count },
        "Shipment": { try $0.fetchAll(Shipment.self).count },
        "StringRecord": { try $0.fetchAll(StringRecord.self).count },
        "CustomerList": {
            try $0.fetchAll(CustomerList.self, "SELECT * FROM \(identifier: CustomerList.viewName)").count
        },
        "OrderTotal": { try $0.fetchAll(OrderTotal.self, "SELECT * FROM \(identifier: OrderTotal.viewName)").count },
    ]

    @Test("every generated type reads every row of its table or view")
    func everyTypeReadsItsRows() throws {
        let directory = try TemporaryDirectory()
        let db = try shopDatabase(in: directory)
        let generated = try ModelGenerator(connection: db).generate()
        #expect(Set(Self.readers.keys) == Set(generated.types.map(\.typeName)), "one reader per generated type")
        for type in generated.types {
            let read = try #require(Self.readers[type.typeName])
            let count = try #require(try db.fetchValue(Int.self, "SELECT count(*) FROM \(identifier: type.name)"))
            #expect(count > 0, "the fixture has rows in \(type.name)")
            #expect(try read(db) == count, "\(type.typeName) reads all of \(type.name)")
        }
    }

    @Test("table types pass schema verification against the fixture")
    func tableTypesVerify() throws {
        let directory = try TemporaryDirectory()
        let db = try shopDatabase(in: directory)
        try db.verify(_2020Sale.self)
        try db.verify(AuditLog.self)
        try db.verify(CaféMenü.self)
        try db.verify(Category.self)
        try db.verify(Customer.self)
        try db.verify(MixedCaseTable.self)
        try db.verify(OrderDetail.self)
        try db.verify(Order.self)
        try db.verify(Person.self)
        try db.verify(Product.self)
        try db.verify(Shipment.self)
        try db.verify(StringRecord.self)
    }

    @Test("columns without a fixed storage class read whatever is stored, as it is")
    func mixedStorageReads() throws {
        let directory = try TemporaryDirectory()
        let db = try shopDatabase(in: directory)
        let notes = try db.fetchAll(Customer.self, where: "1 ORDER BY \"CustomerID\"").map(\.notes)
        #expect(notes == [.text("prefers mornings"), .integer(42), .blob([0xC0, 0xFF, 0xEE]), nil])
        let entries = try db.fetchAll(AuditLog.self, where: "1 ORDER BY seq").map(\.entry)
        #expect(entries == [.text("order 10 created"), .integer(10), .real(1.5), nil])
        let attributes = try db.fetchAll(Product.self, where: "1 ORDER BY \"ProductID\"").map(\.attributes)
        #expect(attributes == [.text(#"{"origin": "Japan"}"#), .text(#"{"roast": "dark"}"#), nil, .integer(7)])
        let shipped = try db.fetchAll(Order.self, where: "1 ORDER BY \"OrderID\"").map(\.shippedDate)
        #expect(shipped == [.text("2025-03-03"), nil, .integer(1_741_219_200)], "widened by the stored integer")
    }

    @Test("typed columns read with their Swift types, names mapped and NULL keys optional")
    func typedReads() throws {
        let directory = try TemporaryDirectory()
        let db = try shopDatabase(in: directory)
        let details = try db.fetchAll(OrderDetail.self, where: "\"OrderID\" = 10 ORDER BY \"ProductID\"")
        #expect(
            details == [
                OrderDetail(orderID: 10, productID: 1, unitPrice: 4.5, quantity: 2, discount: 0),
                OrderDetail(orderID: 10, productID: 3, unitPrice: 2.25, quantity: 10, discount: 0.1),
            ])
        let espresso = try #require(try db.fetchOne(Product.self, where: "\"ProductID\" = 2"))
        #expect(espresso.unitPrice == 12, "'12' was stored as INTEGER by NUMERIC affinity")
        #expect(espresso.discontinued == false)
        let tea = try #require(try db.fetchOne(Category.self, where: "name = 'Tea'"))
        #expect(tea.picture == Data([0x89, 0x50, 0x4E, 0x47]) && tea.default)
        let people = try db.fetchAll(Person.self).sorted { ($0.name ?? "") < ($1.name ?? "") }
        #expect(people == [Person(name: nil, nickname: "nobody"), Person(name: "Ada", nickname: "countess")])
        let menu = try #require(try db.fetchOne(CaféMenü.self, where: "\"Näme\" = 'Wasser'"))
        #expect(
            menu
                == CaféMenü(
                    näme: "Wasser", preis: 0, _2ndChoice: "it's \"fine\"", photo: Data([0, 255]),
                    self: nil, type: nil, class: "n/a"))
    }

    @Test("view types read their views with SELECT *, columns matched by name")
    func viewReads() throws {
        let directory = try TemporaryDirectory()
        let db = try shopDatabase(in: directory)
        let totals = try db.fetchAll(OrderTotal.self, "SELECT * FROM \(identifier: OrderTotal.viewName) ORDER BY 1")
        #expect(totals.map(\.orderID) == [10, 11, 12])
        #expect(totals.map(\.companyName) == ["Alpine Goods", "baker & sons", "Coral Reef Supplies"])
        #expect(totals.map(\.lines) == [.integer(2), .integer(1), .integer(2)])
        #expect(totals[1].total == .real(12))
        let reordered = try db.fetchAll(
            CustomerList.self, "SELECT \"Initial\", \"Email\", \"Company Name\", \"CustomerID\" FROM \"customer list\"")
        #expect(
            reordered.contains(
                CustomerList(
                    customerID: "BAKER", companyName: "baker & sons", email: nil,
                    initial: .text("B"))))
    }
}
