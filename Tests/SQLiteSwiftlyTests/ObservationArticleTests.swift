import Foundation
import Observation
import SQLiteSwiftly
import Testing

extension ArticleFixture.Planet: Equatable {
    /// Planets are equal when all their columns are.
    public static func == (left: Self, right: Self) -> Bool {
        (left.id, left.name, left.au, left.moons) == (right.id, right.name, right.au, right.moons)
    }
}

/// The examples of the Observation article.
@Suite struct ObservationArticleTests {
    typealias Planet = ArticleFixture.Planet

    @Test("a shared connection's observation delivers the current count, then the count after a commit")
    func observeClosure() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.sqlite")
        // BEGIN Observation: observe a query
        let shared = try SharedConnection(.create(path: path))
        try await shared.write { db in try db.execute("CREATE TABLE notes (body TEXT NOT NULL)") }

        let counts = shared.observe { db in
            try db.fetchValue(Int.self, "SELECT count(*) FROM notes") ?? 0
        }
        Task {  // elsewhere, a write commits
            try await shared.write { db in try db.execute("INSERT INTO notes VALUES (\("hello"))") }
        }
        var seen: [Int] = []
        for try await count in counts {  // 0 at first, then 1 after the commit
            seen.append(count)
            if count == 1 { break }  // leaving the loop ends the observation
        }
        // END Observation: observe a query
        #expect(seen.last == 1)
        #expect(seen.allSatisfy { $0 == 0 || $0 == 1 })
    }

    @Test("a pool observes model rows, skipping duplicates")
    func observeModels() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("planets.sqlite")
        _ = try ArticleFixture.database(at: path)
        // BEGIN Observation: pool and models
        let pool = try ConnectionPool(.open(path: path))
        let withMoons = pool.observe(Planet.self, "SELECT * FROM planets WHERE moons > \(0) ORDER BY id")
            .removingDuplicates()  // a commit that leaves the result as it was delivers nothing
        var iterator = withMoons.makeAsyncIterator()
        let before = try await iterator.next()  // Earth, Jupiter, Saturn (Mars's moons are unknown)
        try await pool.write { db in
            try db.execute("UPDATE planets SET au = 0.39 WHERE name = 'Mercury'")  // same result: skipped
        }
        try await pool.write { db in
            try db.execute("UPDATE planets SET moons = 2 WHERE name = 'Mars'")
        }
        let after = try await iterator.next()  // Earth, Mars, Jupiter, Saturn
        // END Observation: pool and models
        #expect(before?.map(\.name) == ["Earth", "Jupiter", "Saturn"])
        #expect(after?.map(\.name) == ["Earth", "Mars", "Jupiter", "Saturn"])
    }

    @Test("the change stream reports the tables, kinds and rows of each commit")
    func changeStream() async throws {
        let shared = try SharedConnection(.inMemory)
        try await shared.write { db in try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)") }
        // BEGIN Observation: changes
        let changes = shared.changes()  // reports the transactions that start from now on
        try await shared.write { db in
            try db.execute("INSERT INTO notes (id, body) VALUES (1, 'a'), (2, 'b')")
        }
        var inserted: Set<Int64> = []
        for await change in changes {
            if let notes = change[table: "notes"], notes.kinds.contains(.insert) {
                inserted = notes.rowIDs ?? []  // [1, 2]; nil would mean "the whole table"
                break
            }
        }
        // END Observation: changes
        #expect(inserted == [1, 2])
    }

    @Test("an observation of one row by id is fetched again only when that row changes")
    func rowRegions() async throws {
        // BEGIN Observation: row-level regions
        let notes = try SharedConnection(.inMemory)
        try await notes.write { db in
            try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
            try db.execute("INSERT INTO notes (id, body) VALUES (1, 'first'), (2, 'second')")
        }
        let noteOne = notes.observe { db in
            try db.fetchValue(String.self, "SELECT body FROM notes WHERE id = \(1)")
        }
        var bodies = noteOne.makeAsyncIterator()
        let before = try await bodies.next()  // "first"
        try await notes.write { db in
            try db.execute("UPDATE notes SET body = 'edited' WHERE id = 2")  // another row: no fetch
        }
        try await notes.write { db in
            try db.execute("UPDATE notes SET body = 'changed' WHERE id = 1")
        }
        let after = try await bodies.next()  // "changed": the first fetch since the first result
        // END Observation: row-level regions
        #expect(before == "first")
        #expect(after == "changed")
    }

    @Test("the check interval for other connections is an option")
    func options() async throws {
        let shared = try SharedConnection(.inMemory)
        // BEGIN Observation: options
        let relaxed = ObservationOptions(otherConnectionCheckInterval: .seconds(1))
        let tables = shared.observe(options: relaxed) { db in
            try db.fetchAll(UntypedRow.self, "SELECT name FROM sqlite_schema WHERE type = 'table'")
        }
        // END Observation: options
        var iterator = tables.makeAsyncIterator()
        #expect(try await iterator.next()?.isEmpty == true)
        #expect(relaxed.otherConnectionCheckInterval == .seconds(1))
        #expect(ObservationOptions.default.otherConnectionCheckInterval == .milliseconds(100))
    }
}

extension ObservationArticleTests {
    // BEGIN Observation: live query models
    /// The planets, nearest first, for a list screen.
    @MainActor @Observable final class PlanetList {
        let planets: LiveQuery<[Planet]>

        init(database: ConnectionPool) {
            planets = LiveQuery(
                database.observe(Planet.self, "SELECT * FROM planets ORDER BY au").removingDuplicates())
        }
    }

    /// One planet, for a detail screen that can change it.
    @MainActor @Observable final class PlanetDetail {
        let planet: LiveQuery<Planet?>
        private(set) var saveError: (any Error)?
        private let database: ConnectionPool

        init(id: Int, database: ConnectionPool) {
            self.database = database
            planet = LiveQuery(database.observe { db in try db.fetchOne(Planet.self, where: "id = \(id)") })
        }

        func setMoons(_ moons: Int) async {
            guard var changed = planet.value else { return }
            changed.moons = moons
            do {
                try await database.write { [changed] db in try db.update(changed) }
            } catch {
                saveError = error
            }
        }
    }
    // END Observation: live query models

    @Test("the live query models load, and a change made on the detail screen reaches the list")
    @MainActor func liveQueryModels() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("planets.sqlite")
        _ = try ArticleFixture.database(at: path)
        let pool = try ConnectionPool(.open(path: path))
        let list = PlanetList(database: pool)
        let mars = PlanetDetail(id: 4, database: pool)
        try await waitUntil("both screens loaded") { !list.planets.isLoading && !mars.planet.isLoading }
        #expect(list.planets.value.map(\.name) == ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn"])
        #expect(mars.planet.value?.moons == nil)
        await mars.setMoons(2)
        #expect(mars.saveError == nil)
        try await waitUntil("the detail screen updated") { mars.planet.value?.moons == 2 }
        try await waitUntil("the list updated") { list.planets.value.first { $0.name == "Mars" }?.moons == 2 }
    }
}

#if canImport(SwiftUI)
    import SwiftUI

    extension ObservationArticleTests {
        // BEGIN Observation: live query screens
        struct PlanetListScreen: View {
            let database: ConnectionPool
            @State private var model: PlanetList

            init(database: ConnectionPool) {
                self.database = database
                _model = State(initialValue: PlanetList(database: database))
            }

            var body: some View {
                NavigationStack {
                    List(model.planets.value, id: \.id) { planet in
                        NavigationLink(planet.name) {  // nothing is fetched until the screen shows
                            PlanetDetailScreen(model: PlanetDetail(id: planet.id, database: database))
                        }
                    }
                    .overlay {
                        if model.planets.isLoading {
                            ProgressView()
                        } else if let error = model.planets.error {
                            Text(error.localizedDescription)
                        }
                    }
                }
            }
        }

        struct PlanetDetailScreen: View {
            @State var model: PlanetDetail

            var body: some View {
                Form {
                    if let planet = model.planet.value {
                        LabeledContent("Distance (AU)", value: planet.au, format: .number)
                        LabeledContent("Moons", value: planet.moons.map(String.init) ?? "unknown")
                        Button("Add a moon") {
                            Task { await model.setMoons((planet.moons ?? 0) + 1) }
                        }
                    } else if !model.planet.isLoading {
                        Text("This planet was deleted.")
                    }
                }
            }
        }
        // END Observation: live query screens
    }
#endif
