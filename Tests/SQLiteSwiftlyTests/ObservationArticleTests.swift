import Foundation
import Observation
import SQLiteSwiftly
import Testing

// The Observation article, run as a reader follows it: its app models (file-scope declarations) first, then its
// examples in order in one test, on Getting Started's planets at `path`.

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

@Suite struct ObservationArticleTests {
    typealias Planet = ArticleFixture.Planet

    @Test("the article's examples run in order on Getting Started's planets, with the results they show")
    @MainActor func walkthrough() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("planets.sqlite")
        _ = try ArticleFixture.database(at: path)

        // BEGIN Observation: observe a query
        let shared = try SharedConnection(.open(path: path))
        try await shared.write { db in
            try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        }

        let counts = shared.observe { db in
            try db.fetchValue(Int.self, "SELECT count(*) FROM notes") ?? 0
        }
        var seen: [Int] = []
        for try await count in counts {  // the count now, then the count after each commit that changes it
            seen.append(count)
            if count == 1 { break }  // leaving the loop ends the observation
            try await shared.write { db in try db.execute("INSERT INTO notes (body) VALUES (\("hello"))") }
        }
        // seen == [0, 1]
        // END Observation: observe a query
        #expect(seen == [0, 1])

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

        // BEGIN Observation: options
        let relaxed = ObservationOptions(otherConnectionCheckInterval: .seconds(1))
        let tables = shared.observe(options: relaxed) { db in
            try db.fetchAll(UntypedRow.self, "SELECT name FROM sqlite_schema WHERE type = 'table'")
        }
        // END Observation: options
        var tableNames = tables.makeAsyncIterator()
        #expect(try await tableNames.next()?.map { try $0["name", as: String.self] } == ["planets", "notes"])
        #expect(ObservationOptions.default.otherConnectionCheckInterval == .milliseconds(100))

        // BEGIN Observation: row-level regions
        let noteOne = shared.observe { db in
            try db.fetchValue(String.self, "SELECT body FROM notes WHERE id = \(1)")
        }
        var bodies = noteOne.makeAsyncIterator()
        let original = try await bodies.next()  // "hello"
        try await shared.write { db in
            try db.execute("INSERT INTO notes (id, body) VALUES (2, 'another note')")  // another row: no fetch
        }
        try await shared.write { db in
            try db.execute("UPDATE notes SET body = 'changed' WHERE id = 1")
        }
        let edited = try await bodies.next()  // "changed": the first fetch since the first result
        // END Observation: row-level regions
        #expect(original == "hello")
        #expect(edited == "changed")

        // BEGIN Observation: changes
        let changes = shared.changes()  // reports the transactions that start from now on
        try await shared.write { db in
            try db.execute("INSERT INTO notes (id, body) VALUES (10, 'a'), (11, 'b')")
        }
        var inserted: Set<Int64> = []
        for await change in changes {
            if let notes = change[table: "notes"], notes.kinds.contains(.insert) {
                inserted = notes.rowIDs ?? []  // [10, 11]; nil would mean "the whole table"
                break
            }
        }
        // END Observation: changes
        #expect(inserted == [10, 11])

        // The live query models of the article, on the same pool: the list loads, and a change saved on a detail
        // screen reaches both.
        let list = PlanetList(database: pool)
        let mars = PlanetDetail(id: 4, database: pool)
        try await waitUntil("both screens loaded") { !list.planets.isLoading && !mars.planet.isLoading }
        #expect(list.planets.value.map(\.name) == ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn"])
        #expect(mars.planet.value?.moons == 2)
        await mars.setMoons(3)
        #expect(mars.saveError == nil)
        try await waitUntil("the detail screen updated") { mars.planet.value?.moons == 3 }
        try await waitUntil("the list updated") { list.planets.value.first { $0.name == "Mars" }?.moons == 3 }
    }
}
