/// A schema with names that are not valid Swift identifiers, used by the generator tests.
///
/// `GeneratedModels.swift` is the generator's output for this schema, checked in and compiled into the tests.
enum AwkwardSchema {
    static let sql = """
        CREATE TABLE "Orders" (
            "id" INTEGER PRIMARY KEY AUTOINCREMENT,
            "CustomerID" TEXT NOT NULL,
            "OrderDate" DATETIME DEFAULT CURRENT_TIMESTAMP,
            "Shipped" BOOLEAN NOT NULL DEFAULT FALSE,
            "Freight" DECIMAL(10, 2)
        );
        CREATE TABLE "Order Details" (
            "order id" INTEGER NOT NULL REFERENCES "Orders" ON DELETE CASCADE,
            "product id" INTEGER NOT NULL,
            "unit price" NUMERIC NOT NULL DEFAULT 0,
            "quantity" SMALLINT NOT NULL DEFAULT 1,
            "default" TEXT,
            "class" VARCHAR(20) DEFAULT 'n/a',
            PRIMARY KEY ("order id", "product id")
        );
        CREATE TABLE "Café Menü" (
            "Näme" TEXT PRIMARY KEY NOT NULL,
            "Preis €" REAL NOT NULL,
            "2nd choice" TEXT DEFAULT 'it''s "fine"',
            "photo" BLOB DEFAULT X'00FF',
            "extra",
            "self" INTEGER,
            "Type" TEXT
        ) WITHOUT ROWID;
        CREATE TABLE "2020 sales" (
            "region_code" TEXT NOT NULL UNIQUE,
            "URLPath" TEXT,
            "amount" DOUBLE PRECISION NOT NULL DEFAULT -1.5,
            "doubled" REAL GENERATED ALWAYS AS ("amount" * 2) VIRTUAL
        );
        CREATE INDEX "sales by path" ON "2020 sales" ("URLPath");
        CREATE TABLE "mixedCase_Table" (
            "lowerCamel" INTEGER,
            "snake_case_name" TEXT,
            "UPPER" TEXT,
            "unit price" REAL,
            "unit_price" REAL
        );
        CREATE TABLE "string" ("value" TEXT PRIMARY KEY);
        """
}
