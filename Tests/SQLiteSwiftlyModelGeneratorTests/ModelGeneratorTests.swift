import Foundation
import SQLiteSwiftly
import Testing

@testable import SQLiteSwiftlyModelGenerator

/// What the generator chooses: which tables, in which order, with which names, and what it refuses.
@Suite struct ModelGeneratorTests {
    @Test("the summary has one line per type, naming what was left as comments, then the skipped tables")
    func summary() throws {
        let directory = try TemporaryDirectory()
        let db = try Connection(opening: ShopFixture.database(in: directory), readOnly: true)
        let generated = try ModelGenerator(connection: db).generate()
        #expect(generated.tableCount == 12 && generated.viewCount == 2)
        #expect(
            generated.summary.contains(
                #"table "Order Details" -> OrderDetail: 5 columns; left as comments: WITHOUT ROWID, CHECK on "Quantity""#
            ))
        #expect(generated.summary.contains(#"view "Order Totals" -> OrderTotal (read-only): 4 columns"#))
        #expect(generated.summary.contains { $0.hasPrefix(#"table "Orders" -> Order: 6 columns; left as comments: "#) })
        #expect(
            generated.summary.contains { $0.hasSuffix(#"SQLiteValue because of the stored values: "ShippedDate""#) })
        let skipped = generated.summary.suffix(2)
        #expect(
            skipped.first?.hasPrefix(#"Skipped virtual table "product search" (fts5 on "Name", "description", "#)
                == true)
        #expect(skipped.last?.hasPrefix(#"Full-text index "Products_fts" (fts5) and its shadow tables"#) == true)
        #expect(generated.source.contains("// Skipped virtual table \"product search\" (fts5 on"))
        #expect(
            generated.summary.contains {
                $0.hasPrefix(#"table "Products" -> Product: 7 columns; full-text index "Products_fts";"#)
            })
    }

    @Test("tables come first, then views, each in name order ignoring case")
    func order() throws {
        let db = try Connection.inMemory()
        try db.executeScript(
            "CREATE TABLE b (x); CREATE VIEW a AS SELECT 1 AS one; CREATE TABLE C (x); CREATE TABLE a2 (x);")
        let generated = try ModelGenerator(connection: db).generate()
        #expect(generated.types.map(\.name) == ["a2", "b", "C", "a"])
    }

    @Test("--table picks tables and views in the given order, matching names without regard to ASCII case")
    func selectedTables() throws {
        let directory = try TemporaryDirectory()
        let generator = try ModelGenerator(connection: Connection(opening: ShopFixture.database(in: directory)))
        let generated = try generator.generate(tables: ["order details", "ORDER TOTALS", "Orders", "Order Details"])
        #expect(
            generated.types.map(\.typeName) == ["OrderDetail", "OrderTotal", "Order"], "a repeated table appears once")
        #expect(generated.source.contains(#"static let tableName = "Order Details""#))
        #expect(!generated.source.contains("import Foundation"), "no Data property, so no Foundation import")
        #expect(!generated.source.contains("Skipped"), "only what was asked for")
    }

    @Test("type names are singular by default; the option keeps the tables' names")
    func singularNames() throws {
        let db = try Connection.inMemory()
        try db.executeScript(
            """
            CREATE TABLE "Customers" (id INTEGER PRIMARY KEY); CREATE TABLE "Order Details" (id INTEGER PRIMARY KEY);
            CREATE TABLE categories (id INTEGER PRIMARY KEY); CREATE TABLE people (id INTEGER PRIMARY KEY);
            CREATE TABLE rows (id INTEGER PRIMARY KEY); CREATE TABLE "data" (id INTEGER PRIMARY KEY);
            """)
        let singular = try ModelGenerator(connection: db).generate().types.map(\.typeName)
        #expect(singular == ["Category", "Customer", "DataRecord", "OrderDetail", "Person", "RowRecord"])
        let kept = try ModelGenerator(connection: db, options: .init(singularTypeNames: false)).generate()
        #expect(
            kept.types.map(\.typeName) == ["Categories", "Customers", "DataRecord", "OrderDetails", "People", "Rows"])
    }

    @Test("an unknown table, a virtual table and a shadow table are errors naming them")
    func refusedTables() throws {
        let db = try Connection.inMemory()
        try db.executeScript("CREATE VIRTUAL TABLE docs USING fts5(body); CREATE TABLE notes (body TEXT NOT NULL);")
        let generator = ModelGenerator(connection: db)
        let unknown = try #require(throws: SQLiteError.self) { try generator.generate(tables: ["notes", "Shippers"]) }
        #expect(unknown.kind == .misuse)
        #expect(unknown.message == #"the table "Shippers" does not exist"#)
        let virtual = try #require(throws: SQLiteError.self) { try generator.generate(tables: ["docs"]) }
        #expect(virtual.message == #"the table "docs" is a virtual table"#)
        let shadow = try #require(throws: SQLiteError.self) { try generator.generate(tables: ["docs_data"]) }
        #expect(shadow.message == #"the table "docs_data" is a shadow table of a virtual table"#)
        let all = try generator.generate()
        #expect(all.types.map(\.name) == ["notes"], "neither the virtual table nor its shadow tables")
    }

    @Test("a view whose SELECT no longer compiles is skipped with a comment, or an error when asked for")
    func brokenView() throws {
        let db = try Connection.inMemory()
        try db.executeScript(
            "CREATE TABLE gone (x); CREATE VIEW stale AS SELECT x FROM gone; DROP TABLE gone; CREATE TABLE kept (y);")
        let generated = try ModelGenerator(connection: db).generate()
        #expect(generated.types.map(\.name) == ["kept"])
        #expect(generated.skipped == [#"Skipped view "stale": no such table: main.gone."#])
        #expect(generated.source.contains(#"// Skipped view "stale": no such table: main.gone."#))
        let error = try #require(throws: SQLiteError.self) {
            try ModelGenerator(connection: db).generate(tables: ["stale"])
        }
        #expect(error.message == #"the view "stale" cannot be read: no such table: main.gone"#)
    }

    @Test("an empty database gives a file with the header and no type")
    func emptyDatabase() throws {
        let generated = try ModelGenerator(connection: Connection.inMemory()).generate()
        #expect(generated.source.hasPrefix(ModelRenderer.header))
        #expect(generated.source.contains("import SQLiteSwiftly"))
        #expect(!generated.source.contains("struct "))
        #expect(generated.summary.isEmpty)
    }

    @Test("tables whose names clash after mapping get distinct types; properties that clash get numbers")
    func clashingNames() throws {
        let db = try Connection.inMemory()
        try db.executeScript(
            #"CREATE TABLE "order items" (a INT); CREATE TABLE "order_items" ("x y" INT, "x_y" INT, "x-y" INT);"#)
        let generated = try ModelGenerator(connection: db).generate()
        #expect(generated.types.map(\.typeName) == ["OrderItem", "OrderItem2"])
        #expect(generated.source.contains("var xY: Int?\n"))
        #expect(generated.source.contains("var xY2: Int?\n"))
        #expect(generated.source.contains("var xY3: Int?\n"))
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
        let source = try ModelGenerator(connection: db).generate().source
        #expect(source.contains(#"struct SayHi: Equatable, Sendable {"#))
        #expect(source.contains(#"static let tableName = "🚀 say \"hi\"""#))
        #expect(source.contains(#"Column("a\\b", .text),"#))
        #expect(source.contains(#"Column("line\nbreak", .integer, nullable: true),"#))
        #expect(source.contains("var lineBreak: Int?"))
        #expect(source.contains("var `class`: Double?"))
        #expect(source.contains("default 1 + 1 (an expression: not declared in the model)."))
        #expect(source.contains("/// - \"class\" DEFAULT 1 + 1\n"))
        #expect(!source.contains("line\nbreak\" INTEGER"), "doc comments stay on one line")
    }

    @Test("the database is only read: generating from a read-only connection works and changes nothing")
    func readOnly() throws {
        let directory = try TemporaryDirectory()
        let path = try ShopFixture.database(in: directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let db = try Connection(opening: path, readOnly: true)
        #expect(db.isReadOnly)
        _ = try ModelGenerator(connection: db).generate()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("the output for a table changed after generation fails verification with the differences")
    func changedSchemaFailsVerification() throws {
        let db = try Connection.inMemory()
        try db.executeScript(#"CREATE TABLE "Order Details" ("OrderID" TEXT, "unit price" NUMERIC);"#)
        let error = try #require(throws: SQLiteError.self) { try db.verify(OrderDetail.self) }
        #expect(error.kind == .schemaMismatch)
        #expect(error.differences.contains { $0.kind == .missingColumn && $0.column == "ProductID" })
        #expect(error.differences.contains { $0.kind == .declaredType && $0.column == "OrderID" })
    }
}
