import SQLiteSwiftly
import Testing

// BEGIN Performance: read first
struct Order {
    var id: Int
    var email: String?
    var note: String?
}

extension Order: RowDecodable {
    init(row: borrowing Row) throws {
        let id: Int = try row[0]
        let email: String? = try row[1]
        let note: String? = try row[2]
        self.init(id: id, email: email, note: note)
    }
}
// END Performance: read first

/// The examples of the Performance article.
@Suite struct PerformanceArticleTests {
    typealias Planet = ArticleFixture.Planet

    @Test("a batch of inserts in one transaction, through one prepared statement")
    func batchInsert() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Planet.self)
        let planets = ArticleFixture.planets
        // BEGIN Performance: batch
        let insert = try db.makeInsertStatement(for: Planet.self)  // compiled once
        try db.transaction {  // one commit, instead of one per row
            for planet in planets { try insert.insert(planet) }
        }
        // END Performance: batch
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM planets") == planets.count)
    }

    @Test("a pool whose connections commit with synchronous = NORMAL")
    func synchronousNormal() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("normal.sqlite")
        // BEGIN Performance: synchronous
        let pool = try ConnectionPool(.create(path: path), options: ConnectionOptions(synchronous: .normal))
        // END Performance: synchronous
        #expect(try await pool.write { db in try db.fetchValue(Int.self, "PRAGMA synchronous") } == 1)
        #expect(try await pool.read { db in try db.fetchValue(Int.self, "PRAGMA synchronous") } == 1)
    }

    @Test("point lookups through a prepared statement with typed values")
    func lookups() throws {
        let db = try ArticleFixture.database()
        let ids = [3, 1, 99, 4]
        // BEGIN Performance: lookups
        let byID = try db.prepare("SELECT * FROM planets WHERE id = ?")
        var names: [String] = []
        for id in ids {
            if let planet = try byID.fetchOne(Planet.self, binding: id) { names.append(planet.name) }
        }
        // END Performance: lookups
        #expect(names == ["Earth", "Mercury", "Mars"])
    }

    @Test("interpolated values keep the SQL text, and so the cached statement, the same")
    func cacheFriendly() throws {
        let db = try ArticleFixture.database()
        // BEGIN Performance: cache
        let before = db.cachedStatementCount
        for id in 1...3 {
            _ = try db.fetchOne(Planet.self, "SELECT * FROM planets WHERE id = \(id)")  // one SQL text: id = ?
        }
        let added = db.cachedStatementCount - before  // 1: one text, kept from its second run
        // END Performance: cache
        #expect(added == 1)
    }

    @Test("a model that reads every column, then calls its memberwise initializer, reads them all; a bad one throws")
    func readFirst() throws {
        let db = try Connection.inMemory()
        try db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, email TEXT, note TEXT)")
        try db.execute("INSERT INTO orders VALUES (1, 'a@example.com', NULL), (2, NULL, 'leave at the door')")
        let orders = try db.fetchAll(Order.self, "SELECT id, email, note FROM orders ORDER BY id")
        #expect(orders.map(\.id) == [1, 2])
        #expect(orders.map(\.email) == ["a@example.com", nil])
        #expect(orders.map(\.note) == [nil, "leave at the door"])
        try db.execute("UPDATE orders SET note = x'ff' WHERE id = 2")
        #expect(throws: SQLiteError.self) { try db.fetchAll(Order.self, "SELECT id, email, note FROM orders") }
    }
}
