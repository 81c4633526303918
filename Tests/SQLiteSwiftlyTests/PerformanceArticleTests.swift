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

/// The examples of the Performance article, in its order, continuing (as it says) from Getting Started's planets.
@Suite struct PerformanceArticleTests {
    typealias Planet = ArticleFixture.Planet

    @Test("the article's examples run in order on Getting Started's planets, with the results they show")
    func walkthrough() throws {
        let directory = try TemporaryDirectory()
        let db = try ArticleFixture.database(at: directory.path("planets.sqlite"))
        let newPath = directory.path("new.sqlite")  // the article: "a path where no file exists yet"
        // BEGIN Performance: batch
        let outerPlanets = [
            Planet(id: 7, name: "Uranus", au: 19.19, moons: 28),
            Planet(id: 8, name: "Neptune", au: 30.07, moons: 16),
        ]
        let insert = try db.makeInsertStatement(for: Planet.self)  // compiled once
        try db.transaction {  // one commit, instead of one per row
            for planet in outerPlanets { try insert.insert(planet) }
        }
        // END Performance: batch
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM planets") == 8)

        // BEGIN Performance: synchronous
        let pool = try ConnectionPool(.create(path: newPath), options: ConnectionOptions(synchronous: .normal))
        // END Performance: synchronous
        #expect(try pool.writeSynchronously { db in try db.fetchValue(Int.self, "PRAGMA synchronous") } == 1)
        #expect(try pool.readSynchronously { db in try db.fetchValue(Int.self, "PRAGMA synchronous") } == 1)

        // BEGIN Performance: cache
        let before = db.cachedStatementCount
        for id in 1...3 {
            _ = try db.fetchOne(Planet.self, "SELECT * FROM planets WHERE id = \(id)")  // one SQL text: id = ?
        }
        let added = db.cachedStatementCount - before  // 1: one text, kept from its second run
        // END Performance: cache
        #expect(added == 1)

        // BEGIN Performance: lookups
        let ids = [3, 1, 99, 4]  // no planet has id 99
        let byID = try db.prepare("SELECT * FROM planets WHERE id = ?")
        var names: [String] = []
        for id in ids {
            if let planet = try byID.fetchOne(Planet.self, binding: id) { names.append(planet.name) }
        }  // names: Earth, Mercury, Mars
        // END Performance: lookups
        #expect(names == ["Earth", "Mercury", "Mars"])
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
