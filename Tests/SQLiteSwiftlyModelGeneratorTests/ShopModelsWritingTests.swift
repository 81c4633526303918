import Foundation
import SQLiteSwiftly
import Testing

/// Every generated table type writes rows into the fixture database, under its constraints and foreign keys, and
/// into tables it creates itself, and reads them back unchanged.
@Suite struct ShopModelsWritingTests {
    @Test("table types insert new rows into the fixture's tables and read them back")
    func writeIntoFixture() throws {
        let directory = try TemporaryDirectory()
        let db = try Connection(opening: ShopFixture.database(in: directory))
        try writeAll(db)
    }

    @Test("table types create their tables, verify against them and round-trip through them")
    func writeIntoCreatedTables() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Customer.self)
        try db.createTable(for: Category.self)
        try db.createTable(for: Product.self)
        try db.createTable(for: Order.self)
        try db.createTable(for: OrderDetail.self)
        try db.createTable(for: Shipment.self)
        try db.createTable(for: AuditLog.self)
        try db.createTable(for: CaféMenü.self)
        try db.createTable(for: _2020Sale.self)
        try db.createTable(for: MixedCaseTable.self)
        try db.createTable(for: Person.self)
        try db.createTable(for: StringRecord.self)
        try db.verify(OrderDetail.self)
        try db.verify(Product.self)
        let indexes = try db.fetchAll(
            UntypedRow.self, "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'Products'")
        #expect(indexes.map { $0[0] } == [.text("products by category")], "only the plain index is declared")
        try writeAll(db)
    }

    /// Inserts values of every table type and reads them back, parents before children.
    func writeAll(_ db: Connection) throws {
        try roundTrip(
            [
                Customer(
                    customerID: "EVERG", companyName: "Evergreen", email: "a@b.example", joined: "2025-04-01 10:00:00",
                    notes: .real(2.5)),
                Customer(customerID: "FJORD", companyName: "Fjord", email: nil, joined: "2025-04-02", notes: nil),
            ], in: db)
        try roundTrip([Category(id: 10, name: "Spices", picture: Data(), default: false)], in: db)
        try roundTrip(
            [
                Product(
                    productID: 20, name: "Pepper", categoryID: 10, unitPrice: 3.5, discontinued: false, weight: 0.05,
                    attributes: .text("[1, 2]")),
                Product(
                    productID: 21, name: "Salt", categoryID: nil, unitPrice: 1, discontinued: true, weight: nil,
                    attributes: nil),
            ], in: db)
        try roundTrip(
            [
                Order(
                    orderID: 30, customerID: "EVERG", orderDate: "2025-04-03 12:00:00",
                    shippedDate: .text("2025-04-04"),
                    freight: 2.5, status: "shipped"),
                Order(
                    orderID: 31, customerID: "FJORD", orderDate: "2025-04-05", shippedDate: nil, freight: nil,
                    status: "open"),
            ], in: db)
        try roundTrip([OrderDetail(orderID: 30, productID: 20, unitPrice: 3.5, quantity: 3, discount: 0)], in: db)
        try roundTrip(
            [Shipment(id: 40, orderID: 30, productID: 20, tracking: "TRK-040", label: Data([9]), weightGrams: 150)],
            in: db)
        try roundTrip(
            [
                AuditLog(seq: 50, at: "2025-04-06T00:00:00Z", entry: .blob([1, 2])),
                AuditLog(seq: 51, at: "x", entry: nil),
            ],
            in: db)
        try roundTrip(
            [
                CaféMenü(
                    näme: "Tarte", preis: 4, _2ndChoice: nil, photo: Data([1]), self: 2, type: "dessert", class: nil)
            ], in: db)
        try roundTrip([_2020Sale(regionCode: "APAC", urlPath: "/apac", amount: 3)], in: db)
        try roundTrip([MixedCaseTable(lowerCamel: 5, unitPrice: nil, unitPrice2: 0.5)], in: db)
        try roundTrip([Person(name: "Grace", nickname: nil)], in: db)
        try roundTrip([StringRecord(value: "new"), StringRecord(value: nil)], in: db)
    }

    /// Inserts `values` with the model's insert statement and checks that reading the table gives them back.
    func roundTrip<Model: TableModel & Equatable>(_ values: [Model], in db: Connection) throws {
        let insert = try db.makeInsertStatement(for: Model.self)
        try db.transaction {
            for value in values { try insert.insert(value) }
        }
        let read = try db.fetchAll(Model.self)
        for value in values {
            #expect(read.contains(value), "\(Model.self): \(value) was not read back")
        }
    }
}
