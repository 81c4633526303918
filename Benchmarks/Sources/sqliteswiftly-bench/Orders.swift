import RawC
import SQLiteSwiftly

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A wide, text-heavy row modeled on a real orders table: two integers, a double, a status and ten optional TEXT
// columns, most of them present. Read into structs by every implementation; the raw C twin copies each text into
// a malloc'd buffer.

struct OursOrder: TableModel {
    let id: Int
    let customerID: Int
    let total: Double
    let status: String
    let email: String?
    let phone: String?
    let shipName: String?
    let shipLine1: String?
    let shipLine2: String?
    let shipCity: String?
    let shipRegion: String?
    let shipPostcode: String?
    let shipCountry: String?
    let note: String?

    static let tableName = "orders"
    static let columns =
        [
            Column("id", Int.self, primaryKey: true), Column("customer_id", Int.self), Column("total", Double.self),
            Column("status", String.self),
        ]
        + [
            "email", "phone", "ship_name", "ship_line1", "ship_line2", "ship_city", "ship_region", "ship_postcode",
            "ship_country", "note",
        ].map { Column($0, String?.self) }

    // Every column is read before the first property is set, as the Performance article recommends.
    init(row: borrowing Row) throws {
        let id: Int = try row[0]
        let customerID: Int = try row[1]
        let total: Double = try row[2]
        let status: String = try row[3]
        let email: String? = try row[4]
        let phone: String? = try row[5]
        let shipName: String? = try row[6]
        let shipLine1: String? = try row[7]
        let shipLine2: String? = try row[8]
        let shipCity: String? = try row[9]
        let shipRegion: String? = try row[10]
        let shipPostcode: String? = try row[11]
        let shipCountry: String? = try row[12]
        let note: String? = try row[13]
        self.id = id
        self.customerID = customerID
        self.total = total
        self.status = status
        self.email = email
        self.phone = phone
        self.shipName = shipName
        self.shipLine1 = shipLine1
        self.shipLine2 = shipLine2
        self.shipCity = shipCity
        self.shipRegion = shipRegion
        self.shipPostcode = shipPostcode
        self.shipCountry = shipCountry
        self.note = note
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(customerID)
        try encoder.encode(total)
        try encoder.encode(status)
        try encoder.encode(email)
        try encoder.encode(phone)
        try encoder.encode(shipName)
        try encoder.encode(shipLine1)
        try encoder.encode(shipLine2)
        try encoder.encode(shipCity)
        try encoder.encode(shipRegion)
        try encoder.encode(shipPostcode)
        try encoder.encode(shipCountry)
        try encoder.encode(note)
    }

    /// The checksum every implementation computes: ids, customer ids, total * 4 and the UTF-8 length of each text.
    var checksum: Int64 {
        var sum = Int64(id + customerID) + Int64(total * 4) + Int64(status.utf8.count)
        sum += Int64((email?.utf8.count ?? 0) + (phone?.utf8.count ?? 0) + (shipName?.utf8.count ?? 0))
        sum += Int64((shipLine1?.utf8.count ?? 0) + (shipLine2?.utf8.count ?? 0) + (shipCity?.utf8.count ?? 0))
        sum += Int64((shipRegion?.utf8.count ?? 0) + (shipPostcode?.utf8.count ?? 0))
        sum += Int64((shipCountry?.utf8.count ?? 0) + (note?.utf8.count ?? 0))
        return sum
    }
}

enum Orders {
    /// The schema, as `createTableSQL(for:)` writes it for `OursOrder`.
    nonisolated(unsafe) static var schema = ""

    static func createSQL() throws -> String { try Connection.createTableSQL(for: OursOrder.self)[0] }

    static let columns =
        "id, customer_id, total, status, email, phone, ship_name, ship_line1, ship_line2, ship_city, ship_region, "
        + "ship_postcode, ship_country, note"

    /// `rows` orders: most optional columns present, each NULL on its own pattern.
    static func fill(_ rows: Int) -> String {
        "WITH RECURSIVE s(r) AS (SELECT 0 UNION ALL SELECT r + 1 FROM s WHERE r + 1 < \(rows)) "
            + "INSERT INTO orders (\(columns)) SELECT r + 1, r % 997 + 1, r * 0.25 + 1, "
            + "CASE r % 4 WHEN 0 THEN 'pending' WHEN 1 THEN 'paid' WHEN 2 THEN 'shipped' ELSE 'delivered' END, "
            + "CASE WHEN r % 5 <> 0 THEN 'customer' || r || '@example.com' END, "
            + "CASE WHEN r % 3 = 0 THEN '+1 555 01' || (r % 100) END, "
            + "'Customer Name ' || r, r || ' Long Street Name', "
            + "CASE WHEN r % 4 = 0 THEN 'Apartment ' || (r % 50) END, 'Springfield', "
            + "CASE WHEN r % 2 = 0 THEN 'Region ' || (r % 10) END, printf('%05d', r % 100000), 'United States', "
            + "CASE WHEN r % 7 = 0 THEN 'Leave at the door, ring twice: order ' || r END FROM s"
    }

    static let fetchRaw = Implementation(name: Raw.name) { location, rows in
        let db = try Raw.prepared(location, schema: schema, fill: fill(rows))
        return {
            var result: UnsafeMutablePointer<rawc_order>?
            var count: Int32 = 0
            try RawConnection.check(rawc_fetch_orders(db.handle, &result, &count), "rawc_fetch_orders")
            defer { rawc_free_orders(result, count) }
            return rawc_orders_checksum(result, count)
        }
    }

    static let fetchOurs = Implementation(name: "SQLiteSwiftly hand-written") { location, rows in
        let db = try Ours.prepared(location, schema: schema, fill: fill(rows))
        return {
            let models = try db.fetchAll(OursOrder.self)
            var sum: Int64 = 0
            for index in models.indices { sum += models[index].checksum }  // borrowed in place, as C reads its array
            return sum
        }
    }
}
