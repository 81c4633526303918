-- A small shop's database, written for the tests of sqliteswiftly-models. It gathers what real schemas tend to
-- have: names with spaces and accents, keywords as column names, composite keys, a WITHOUT ROWID and a STRICT
-- table, declared types such as NUMERIC, DATETIME, VARCHAR(20), BLOB and none at all, CHECK constraints,
-- collations, ON CONFLICT clauses, partial, expression and descending indexes, foreign keys (single, composite,
-- deferred), a generated column, triggers, views and two full-text virtual tables (one kept in step with its
-- table by triggers, one keeping its own text), with a few rows in every table.
--
-- ModelGeneratorTests builds a database from this script; .ci/run runs the command on it and compares the
-- output with Tests/SQLiteSwiftlyModelGeneratorTests/ShopModels.swift, which the tests compile and read rows with.

CREATE TABLE "Customers" (
    "CustomerID" VARCHAR(20) PRIMARY KEY NOT NULL,
    "Company Name" TEXT NOT NULL COLLATE NOCASE,
    "Email" TEXT UNIQUE CHECK ("Email" LIKE '%_@_%'),
    "Joined" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "Notes"
);

CREATE TABLE "categories" (
    "id" INTEGER PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL UNIQUE ON CONFLICT IGNORE,
    "picture" BLOB,
    "default" BOOLEAN NOT NULL DEFAULT FALSE
);

CREATE TABLE "Products" (
    "ProductID" INTEGER PRIMARY KEY,
    "Name" TEXT NOT NULL,
    "CategoryID" INTEGER REFERENCES "categories" ("id") ON DELETE SET NULL,
    "unit price" NUMERIC NOT NULL DEFAULT 0 CHECK ("unit price" >= 0),
    "Discontinued" BOOLEAN NOT NULL DEFAULT 0,
    "Weight" REAL,
    "Attributes" JSON
);
CREATE INDEX "products by category" ON "Products" ("CategoryID");
CREATE INDEX "products by lower name" ON "Products" (lower("Name"));
CREATE INDEX "products on sale" ON "Products" ("Name") WHERE NOT "Discontinued";
-- A full-text index kept in step by the triggers SQLiteSwiftly writes (spaced and cased by hand here): the
-- generator declares it in the Products model.
CREATE VIRTUAL TABLE "Products_fts" USING fts5(
    "Name", tokenize = 'porter unicode61 remove_diacritics 2', prefix = '2 3',
    content = 'Products', content_rowid = 'ProductID'
);
CREATE TRIGGER "Products_fts_ai" AFTER INSERT ON "Products" BEGIN
    INSERT INTO "Products_fts" (rowid, "Name") VALUES (new."ProductID", new."Name");
END;
CREATE TRIGGER "Products_fts_ad" AFTER DELETE ON "Products" BEGIN
    INSERT INTO "Products_fts" ("Products_fts", rowid, "Name") VALUES ('delete', old."ProductID", old."Name");
END;
CREATE TRIGGER "Products_fts_au" AFTER UPDATE OF "ProductID", "Name" ON "Products" BEGIN
    INSERT INTO "Products_fts" ("Products_fts", rowid, "Name") VALUES ('delete', old."ProductID", old."Name");
    INSERT INTO "Products_fts" (rowid, "Name") VALUES (new."ProductID", new."Name");
END;

CREATE TABLE "Orders" (
    "OrderID" INTEGER PRIMARY KEY,
    "CustomerID" VARCHAR(20) NOT NULL REFERENCES "Customers" ON UPDATE CASCADE,
    "OrderDate" DATETIME NOT NULL,
    "ShippedDate" DATE,
    "Freight" DECIMAL(10, 2) DEFAULT 0.0,
    "Status" TEXT NOT NULL DEFAULT 'open' CHECK ("Status" IN ('open', 'shipped', 'cancelled'))
);
CREATE INDEX "orders by date" ON "Orders" ("OrderDate" DESC);
CREATE TRIGGER "order shipped" AFTER UPDATE OF "ShippedDate" ON "Orders"
WHEN NEW."ShippedDate" IS NOT NULL
BEGIN
    UPDATE "Orders" SET "Status" = 'shipped' WHERE "OrderID" = NEW."OrderID";
END;

CREATE TABLE "Order Details" (
    "OrderID" INTEGER NOT NULL REFERENCES "Orders" ON DELETE CASCADE,
    "ProductID" INTEGER NOT NULL REFERENCES "Products",
    "unit price" NUMERIC NOT NULL,
    "Quantity" SMALLINT NOT NULL DEFAULT 1 CHECK ("Quantity" > 0),
    "Discount" REAL NOT NULL DEFAULT 0,
    PRIMARY KEY ("OrderID", "ProductID")
) WITHOUT ROWID;

CREATE TABLE "shipments" (
    "id" INTEGER PRIMARY KEY,
    "order id" INTEGER NOT NULL,
    "product id" INTEGER NOT NULL,
    "tracking" TEXT COLLATE RTRIM,
    "label" BLOB,
    "weight grams" INTEGER NOT NULL,
    "weight kg" REAL GENERATED ALWAYS AS ("weight grams" / 1000.0) VIRTUAL,
    FOREIGN KEY ("order id", "product id") REFERENCES "Order Details" ("OrderID", "ProductID")
        DEFERRABLE INITIALLY DEFERRED,
    UNIQUE ("order id", "tracking") ON CONFLICT REPLACE
);

CREATE TABLE "audit log" (
    "seq" INTEGER PRIMARY KEY,
    "at" TEXT NOT NULL,
    "entry" ANY
) STRICT;

CREATE TABLE "Café Menü" (
    "Näme" TEXT PRIMARY KEY NOT NULL,
    "Preis €" REAL NOT NULL,
    "2nd choice" TEXT DEFAULT 'it''s "fine"',
    "photo" BLOB DEFAULT X'00FF',
    "self" INTEGER,
    "Type" TEXT,
    "class" VARCHAR(20) DEFAULT 'n/a'
) WITHOUT ROWID;

CREATE TABLE "2020 sales" (
    "region_code" TEXT NOT NULL UNIQUE,
    "URLPath" TEXT,
    "amount" DOUBLE PRECISION NOT NULL DEFAULT -1.5
);
CREATE INDEX "sales by path" ON "2020 sales" ("URLPath");

CREATE TABLE "mixedCase_Table" (
    "lowerCamel" INTEGER,
    "unit price" REAL,
    "unit_price" REAL
);

CREATE TABLE "people" ("name" TEXT PRIMARY KEY, "nickname" TEXT);

CREATE TABLE "string" ("value" TEXT);

CREATE VIRTUAL TABLE "product search" USING fts5("Name", "description");

CREATE VIEW "Order Totals" AS
SELECT o."OrderID", c."Company Name", sum(d."unit price" * d."Quantity" * (1 - d."Discount")) AS "Total",
    count(*) AS "Lines"
FROM "Orders" AS o
JOIN "Customers" AS c ON c."CustomerID" = o."CustomerID"
JOIN "Order Details" AS d ON d."OrderID" = o."OrderID"
GROUP BY o."OrderID";

CREATE VIEW "customer list" AS
SELECT "CustomerID", "Company Name", "Email", upper(substr("Company Name", 1, 1)) AS "Initial"
FROM "Customers";
CREATE TRIGGER "add to customer list" INSTEAD OF INSERT ON "customer list"
BEGIN
    INSERT INTO "Customers" ("CustomerID", "Company Name", "Email") VALUES (NEW."CustomerID", NEW."Company Name", NEW."Email");
END;

INSERT INTO "Customers" ("CustomerID", "Company Name", "Email", "Joined", "Notes") VALUES
    ('ALPIN', 'Alpine Goods', 'orders@alpine.example', '2024-03-01 09:30:00', 'prefers mornings'),
    ('BAKER', 'baker & sons', NULL, '2024-05-17 14:00:00', 42),
    ('CORAL', 'Coral Reef Supplies', 'hello@coral.example', '2025-01-02 08:15:00', X'C0FFEE'),
    ('DUNES', 'Dunes Trading', 'ops@dunes.example', '2025-02-11 16:45:00', NULL);

INSERT INTO "categories" ("name", "picture", "default") VALUES
    ('Tea', X'89504E47', TRUE), ('Coffee', NULL, FALSE), ('Biscuits', X'', FALSE);

INSERT INTO "Products" ("ProductID", "Name", "CategoryID", "unit price", "Discontinued", "Weight", "Attributes") VALUES
    (1, 'Green tea', 1, 4.5, 0, 0.1, '{"origin": "Japan"}'),
    (2, 'Espresso beans', 2, '12', 0, 1.0, '{"roast": "dark"}'),
    (3, 'Oat biscuits', 3, 2.25, 1, NULL, NULL),
    (4, 'Gift box', NULL, 30, 0, 2.5, 7);

INSERT INTO "Orders" ("OrderID", "CustomerID", "OrderDate", "ShippedDate", "Freight", "Status") VALUES
    (10, 'ALPIN', '2025-03-01 10:00:00', '2025-03-03', 5.5, 'shipped'),
    (11, 'BAKER', '2025-03-02 11:30:00', NULL, 0, 'open'),
    (12, 'CORAL', '2025-03-04 15:20:00', 1741219200, 12.75, 'shipped');

INSERT INTO "Order Details" ("OrderID", "ProductID", "unit price", "Quantity", "Discount") VALUES
    (10, 1, 4.5, 2, 0), (10, 3, 2.25, 10, 0.1), (11, 2, 12, 1, 0), (12, 4, 30, 1, 0.05), (12, 1, 4.5, 4, 0);

INSERT INTO "shipments" ("id", "order id", "product id", "tracking", "label", "weight grams") VALUES
    (1, 10, 1, 'TRK-001', X'0102', 250), (2, 12, 4, 'TRK-002', NULL, 2600);

INSERT INTO "audit log" ("seq", "at", "entry") VALUES
    (1, '2025-03-01T10:00:00Z', 'order 10 created'), (2, '2025-03-03T08:00:00Z', 10), (3, '2025-03-04T15:20:00Z', 1.5),
    (4, '2025-03-05T09:00:00Z', NULL);

INSERT INTO "Café Menü" ("Näme", "Preis €", "2nd choice", "photo", "self", "Type", "class") VALUES
    ('Crème brûlée', 6.5, 'Flan', X'000102', 1, 'dessert', 'sweet');
INSERT INTO "Café Menü" ("Näme", "Preis €") VALUES ('Wasser', 0);

INSERT INTO "2020 sales" ("region_code", "URLPath", "amount") VALUES ('EU', '/eu', 1000.5), ('US', NULL, -1.5);

INSERT INTO "mixedCase_Table" ("lowerCamel", "unit price", "unit_price") VALUES (1, 1.5, 2.5), (NULL, NULL, NULL);

INSERT INTO "people" ("name", "nickname") VALUES ('Ada', 'countess'), (NULL, 'nobody');

INSERT INTO "string" ("value") VALUES ('plain'), ('ü');

INSERT INTO "product search" ("Name", "description") VALUES
    ('Green tea', 'Steamed leaves from Japan'), ('Espresso beans', 'Dark roast for espresso');
