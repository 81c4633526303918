import Foundation
import SQLiteSwiftly
import ShopPublicModels
import Testing

/// The `--access public` models of the shop fixture live in a library target of their own, `ShopPublicModels`, as
/// an app's shared models would: this module creates, writes and reads them through their public members. (The
/// names are qualified: this test target also compiles the `internal` models, whose names come first.)
@Suite struct PublicModelsTests {
    @Test("public models are made with their public initializer, and insert, verify and read from another module")
    func useFromAnotherModule() throws {
        let directory = try TemporaryDirectory()
        let db = try Connection(opening: ShopFixture.database(in: directory))
        try db.verify(ShopPublicModels.Category.self)
        try db.verify(ShopPublicModels.Product.self)
        let insert = try db.makeInsertStatement(for: ShopPublicModels.Category.self)
        let id = try insert.insert(ShopPublicModels.Category(name: "Spices", picture: nil, default: false))
        let read = try #require(try db.fetchOne(ShopPublicModels.Category.self, where: "id = \(id)"))
        #expect(read == ShopPublicModels.Category(id: Int(id), name: "Spices", picture: nil, default: false))
        #expect(ShopPublicModels.Category.tableName == "categories")
        #expect(ShopPublicModels.Product.columns.map(\.name).contains("unit price"))
        #expect(ShopPublicModels.Product.fullTextIndex.columns == ["Name"])
        let totals = try db.fetchAll(
            ShopPublicModels.OrderTotal.self, "SELECT * FROM \(identifier: ShopPublicModels.OrderTotal.viewName)")
        #expect(totals.count == 3)
    }

    @Test("a row-id key left nil is numbered by SQLite, with and without AUTOINCREMENT, and reads back")
    func nilRowIDIsAssigned() throws {
        let directory = try TemporaryDirectory()
        let db = try Connection(opening: ShopFixture.database(in: directory))
        let largestCategory = try #require(try db.fetchValue(Int.self, "SELECT max(id) FROM categories"))
        let category = try db.makeInsertStatement(for: Category.self).insert(
            Category(id: nil, name: "Herbs", picture: nil, default: false))
        #expect(category == Int64(largestCategory + 1))
        let herbs = try #require(try db.fetchOne(Category.self, where: "name = 'Herbs'"))
        #expect(herbs.id == Int(category))

        let largestProduct = try #require(try db.fetchValue(Int.self, "SELECT max(\"ProductID\") FROM \"Products\""))
        let product = try db.makeInsertStatement(for: Product.self).insert(
            Product(
                productID: nil, name: "Basil", categoryID: herbs.id, unitPrice: 2, discontinued: false, weight: nil,
                attributes: nil))
        #expect(product == Int64(largestProduct + 1))
        let basil = try #require(try db.fetchOne(Product.self, where: "\"ProductID\" = \(product)"))
        #expect(basil.productID == Int(product) && basil.categoryID == herbs.id)
        // The full-text index the model declares is kept in step with the new row by the fixture's triggers.
        #expect(
            try db.fetchValue(Int.self, "SELECT rowid FROM \"Products_fts\" WHERE \"Products_fts\" MATCH 'basil'")
                == Int(product))
    }
}
