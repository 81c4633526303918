import Foundation
import SQLiteSwiftly
import Testing

/// The examples of the Errors article, in its order, continuing from Getting Started's planets at `path`; `log`
/// stands for the app's logger.
@Suite struct ErrorsArticleTests {
    typealias Planet = ArticleFixture.Planet

    @Test("the article's examples run in order on Getting Started's database, and log what the article shows")
    func walkthrough() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("app.sqlite")
        let db = try ArticleFixture.database(at: path)
        var logged: [String] = []
        func log(_ message: String) { logged.append(message) }
        // BEGIN Errors: description
        let name = "Mars"  // whose moons are NULL: unknown
        do {
            _ = try db.fetchValue(Int.self, "SELECT moons FROM planets WHERE name = \(name)")  // NULL
        } catch {
            log(error.localizedDescription)  // the same text as error.description
        }
        // END Errors: description
        #expect(logged.count == 1)
        let exists = try requireSQLiteError { try Connection(creating: path) }
        let duplicate = try requireSQLiteError { try db.insert(Planet(id: 10, name: "Earth", au: 1.0, moons: 1)) }
        let article = try #require(try DocumentationSources.articles().first { $0.name == "Errors" })
        for description in logged + [exists.description, duplicate.description] {
            #expect(!description.contains("Earth"), "a description shows no bound value")
            let shown = description.replacingOccurrences(of: path, with: "/tmp/app.sqlite")
            #expect(article.text.contains(shown + "\n"), "Errors.md shows: \(shown)")
        }

        // BEGIN Errors: typed throws
        do {
            let db = try Connection(creating: path)
            try db.createTable(for: Planet.self)
        } catch {
            // Both calls throw only SQLiteError, so `error` is one: no cast.
            if error.kind == .databaseAlreadyExists {
                log("a database exists at \(path) already")
            } else {
                log("cannot create the database: \(error.message)")
            }
        }
        // END Errors: typed throws
        #expect(logged.count == 2 && logged.last == "a database exists at \(path) already")

        // BEGIN Errors: untyped throws
        do {
            try db.transaction {  // the body is your code: it may throw any error
                try db.insert(Planet(id: 3, name: "Earth", au: 1.0, moons: 1))
            }
        } catch let error as SQLiteError {
            if error.code == .constraintPrimaryKey { log("planet 3 exists already") }
        } catch {
            log("the transaction failed: \(error)")
        }
        // END Errors: untyped throws
        #expect(logged.count == 3 && logged.last == "planet 3 exists already")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM planets") == 6)
    }
}
