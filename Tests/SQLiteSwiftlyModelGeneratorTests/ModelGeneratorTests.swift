import Foundation
import SQLiteSwiftly
import Testing

@testable import SQLiteSwiftlyModelGenerator

/// The generator's output for ``AwkwardSchema`` is checked in as `GeneratedModels.swift`, which this target
/// compiles: the tests compare the output to it, then use its types against the real schema.
///
/// To update the fixture after a deliberate change, run the suite with `UPDATE_GENERATED_MODELS=1`.
@Suite struct ModelGeneratorTests {
    /// The checked-in fixture, next to this file.
    static let fixturePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("GeneratedModels.swift").path

    /// A database holding the awkward schema, opened read-only as the command does.
    func awkwardDatabase(in directory: TemporaryDirectory) throws -> Connection {
        try Connection(opening: directory.database(schema: AwkwardSchema.sql), readOnly: true)
    }

    @Test("the output for the awkward schema is the checked-in fixture")
    func matchesFixture() throws {
        let directory = try TemporaryDirectory()
        let source = try ModelGenerator(connection: awkwardDatabase(in: directory)).generate()
        if ProcessInfo.processInfo.environment["UPDATE_GENERATED_MODELS"] == "1" {
            try Data(source.utf8).write(to: URL(fileURLWithPath: Self.fixturePath))
        }
        let fixture = try String(contentsOfFile: Self.fixturePath, encoding: .utf8)
        #expect(source == fixture, "run with UPDATE_GENERATED_MODELS=1 to update GeneratedModels.swift")
    }

    @Test("generated models pass schema verification against the original schema")
    func generatedModelsVerify() throws {
        let directory = try TemporaryDirectory()
        let db = try awkwardDatabase(in: directory)
        try db.verify(Orders.self)
        try db.verify(OrderDetails.self)
        try db.verify(CaféMenü.self)
        try db.verify(_2020Sales.self)
        try db.verify(MixedCaseTable.self)
        try db.verify(StringRecord.self)
    }

    @Test("generated models round-trip data through the original schema")
    func roundTripOriginalSchema() throws {
        let directory = try TemporaryDirectory()
        let db = try Connection(opening: directory.database(schema: AwkwardSchema.sql))
        try roundTripAll(db)
    }

    @Test("generated models create tables that they verify against and round-trip through")
    func roundTripCreatedSchema() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Orders.self)
        try db.createTable(for: OrderDetails.self)
        try db.createTable(for: CaféMenü.self)
        try db.createTable(for: _2020Sales.self)
        try db.createTable(for: MixedCaseTable.self)
        try db.createTable(for: StringRecord.self)
        try db.verify(OrderDetails.self)
        try db.verify(_2020Sales.self)
        let indexes = try db.fetchAll(
            UntypedRow.self, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = '2020 sales'")
        #expect(indexes.map { $0[0] }.contains(.text("sales by path")))
        try roundTripAll(db)
    }

    @Test("a model whose table changed fails verification with the differences")
    func changedSchemaFailsVerification() throws {
        let db = try Connection.inMemory()
        try db.executeScript(#"CREATE TABLE "Order Details" ("order id" TEXT, "unit price" NUMERIC);"#)
        let error = try #require(throws: SQLiteError.self) { try db.verify(OrderDetails.self) }
        #expect(error.kind == .schemaMismatch)
        #expect(error.differences.contains { $0.kind == .missingColumn && $0.column == "product id" })
        #expect(error.differences.contains { $0.kind == .declaredType && $0.column == "order id" })
    }

    @Test("--table picks tables in the given order, matching names without regard to ASCII case")
    func selectedTables() throws {
        let directory = try TemporaryDirectory()
        let generator = try ModelGenerator(connection: awkwardDatabase(in: directory))
        let source = try generator.generate(tables: ["order details", "Orders", "Order Details"])
        let details = try #require(source.range(of: "struct OrderDetails:"))
        let orders = try #require(source.range(of: "struct Orders:"))
        #expect(details.lowerBound < orders.lowerBound)
        #expect(source.components(separatedBy: "struct OrderDetails:").count == 2, "a repeated table appears once")
        #expect(!source.contains("CaféMenü"))
        #expect(source.contains(#"static let tableName = "Order Details""#))
        #expect(!source.contains("import Foundation"), "no Data property, so no Foundation import")
    }

    @Test("an unknown table is an error naming it")
    func unknownTable() throws {
        let directory = try TemporaryDirectory()
        let generator = try ModelGenerator(connection: awkwardDatabase(in: directory))
        let error = try #require(throws: SQLiteError.self) { try generator.generate(tables: ["Orders", "Shippers"]) }
        #expect(error.kind == .misuse)
        #expect(error.message.contains(#""Shippers" does not exist"#))
    }

    @Test("virtual tables and their shadow tables are skipped; asking for one is an error")
    func virtualTables() throws {
        let db = try Connection.inMemory()
        try db.executeScript("CREATE VIRTUAL TABLE docs USING fts5(body); CREATE TABLE notes (body TEXT NOT NULL);")
        let generator = ModelGenerator(connection: db)
        let source = try generator.generate()
        #expect(source.contains(#"// Skipped virtual table "docs"."#))
        #expect(source.contains("struct Notes:"))
        #expect(!source.contains("struct Docs"), "neither the virtual table nor its shadow tables (docs_data...)")
        let error = try #require(throws: SQLiteError.self) { try generator.generate(tables: ["docs"]) }
        #expect(error.message.contains("virtual table"))
    }

    @Test("an empty database gives a file with the header and no model")
    func emptyDatabase() throws {
        let source = try ModelGenerator(connection: Connection.inMemory()).generate()
        #expect(source.hasPrefix(ModelRenderer.header))
        #expect(source.contains("import SQLiteSwiftly"))
        #expect(!source.contains("struct "))
    }

    @Test("tables whose names clash after mapping get distinct types; properties that clash get numbers")
    func clashingNames() throws {
        let db = try Connection.inMemory()
        try db.executeScript(
            #"CREATE TABLE "order items" (a INT); CREATE TABLE "order_items" ("x y" INT, "x_y" INT, "x-y" INT);"#)
        let source = try ModelGenerator(connection: db).generate()
        #expect(source.contains("struct OrderItems:"))
        #expect(source.contains("struct OrderItems2:"))
        #expect(source.contains("var xY: Int?\n"))
        #expect(source.contains("var xY2: Int?\n"))
        #expect(source.contains("var xY3: Int?\n"))
    }

    @Test("quotes, backslashes, line breaks and emoji in names stay exact in the SQL names")
    func nastyNames() throws {
        let db = try Connection.inMemory()
        // The table is 🚀 say "hi"; the columns are a\b, "line" + line break + "break", and class.
        let table = #""🚀 say ""hi""""#
        try db.execute(
            SQL(
                verbatim:
                    "CREATE TABLE \(table) (\"a\\b\" TEXT NOT NULL, \"line\nbreak\" INTEGER, \"class\" REAL DEFAULT (1 + 1))"
            ))
        let source = try ModelGenerator(connection: db).generate()
        #expect(source.contains(#"struct SayHi: Equatable, Sendable {"#))
        #expect(source.contains(#"static let tableName = "🚀 say \"hi\"""#))
        #expect(source.contains(#"Column("a\\b", .text),"#))
        #expect(source.contains(#"Column("line\nbreak", .integer, nullable: true),"#))
        #expect(source.contains("var lineBreak: Int?"))
        #expect(source.contains("var `class`: Double?"))
        #expect(source.contains("default 1 + 1 (an expression: not declared in the model)."))
        #expect(!source.contains("line\nbreak\" INTEGER"), "doc comments stay on one line")
    }

    @Test("the database is only read: generating from a read-only connection works and changes nothing")
    func readOnly() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.database(schema: AwkwardSchema.sql)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let db = try Connection(opening: path, readOnly: true)
        #expect(db.isReadOnly)
        _ = try ModelGenerator(connection: db).generate()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// Inserts values of every generated model and reads them back.
    func roundTripAll(_ db: Connection) throws {
        try roundTrip(
            [
                Orders(id: 1, customerID: "ALFKI", orderDate: "2026-11-22 09:00:00", shipped: true, freight: 12.5),
                Orders(id: 2, customerID: "BONAP", orderDate: nil, shipped: false, freight: nil),
            ], in: db)
        try roundTrip(
            [
                OrderDetails(orderID: 1, productID: 7, unitPrice: 3.25, quantity: 4, default: "gift", class: nil),
                OrderDetails(orderID: 1, productID: 8, unitPrice: 10, quantity: 1, default: nil, class: "bulk"),
            ], in: db)
        try roundTrip(
            [
                CaféMenü(
                    näme: "Crème brûlée", preis: 6.5, _2ndChoice: "Flan", photo: Data([0, 1, 2]), extra: Data(),
                    self: 1, type: "dessert"),
                CaféMenü(
                    näme: "Wasser", preis: 0, _2ndChoice: nil, photo: nil, extra: nil, self: nil, type: nil),
            ], in: db)
        try roundTrip(
            [
                _2020Sales(regionCode: "EU", urlPath: "/eu", amount: 1_000.5),
                _2020Sales(regionCode: "US", urlPath: nil, amount: -1.5),
            ], in: db)
        try roundTrip(
            [
                MixedCaseTable(lowerCamel: 1, snakeCaseName: "a", upper: "B", unitPrice: 1.5, unitPrice2: 2.5),
                MixedCaseTable(lowerCamel: nil, snakeCaseName: nil, upper: nil, unitPrice: nil, unitPrice2: nil),
            ], in: db)
        try roundTrip([StringRecord(value: "a"), StringRecord(value: "ü")], in: db)
    }

    /// Inserts `values` with the model's insert statement and checks that reading the table gives them back.
    func roundTrip<Model: TableModel & Equatable>(_ values: [Model], in db: Connection) throws {
        let insert = try db.makeInsertStatement(for: Model.self)
        try db.transaction {
            for value in values { try insert.insert(value) }
        }
        let read = try db.fetchAll(Model.self)
        #expect(read.count == values.count, "\(Model.self)")
        for value in values {
            #expect(read.contains(value), "\(Model.self): \(value) was not read back")
        }
    }
}
