import Foundation
import SQLiteSwiftly
import Testing

/// The examples of the Errors article; `log` stands for the app's logger.
@Suite struct ErrorsArticleTests {
    typealias Planet = ArticleFixture.Planet

    @Test("an error's description says what and where, without values; the article shows three of them")
    func descriptions() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("app.sqlite")
        let db = try ArticleFixture.database(at: path)
        var logged: [String] = []
        func log(_ message: String) { logged.append(message) }
        let name = "Mars"
        // BEGIN Errors: description
        do {
            _ = try db.fetchValue(Int.self, "SELECT moons FROM planets WHERE name = \(name)")  // NULL
        } catch {
            log(error.localizedDescription)  // the same text as error.description
        }
        // END Errors: description
        do {
            _ = try Connection(creating: path)
        } catch {
            log(error.description)
        }
        do {
            try db.makeInsertStatement(for: Planet.self).insert(Planet(id: 10, name: "Earth", au: 1.0, moons: 1))
        } catch {
            log("\(error)")
        }
        #expect(logged.count == 3)
        let article = try #require(try DocumentationSources.articles().first { $0.name == "Errors" })
        for description in logged {
            #expect(!description.contains("Earth"), "a description shows no bound value")
            let shown = description.replacingOccurrences(of: path, with: "/tmp/app.sqlite")
            #expect(article.text.contains(shown + "\n"), "Errors.md shows: \(shown)")
        }
    }

    @Test("typed throws give an SQLiteError to the catch block without a cast")
    func typedThrows() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("app.sqlite")
        _ = try Connection(creating: path)
        var logged: [String] = []
        func log(_ message: String) { logged.append(message) }
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
        #expect(logged == ["a database exists at \(path) already"])
    }

    @Test("errors from a transaction body are matched by type")
    func untypedThrows() throws {
        let db = try ArticleFixture.database()
        let insert = try db.makeInsertStatement(for: Planet.self)
        var logged: [String] = []
        func log(_ message: String) { logged.append(message) }
        // BEGIN Errors: untyped throws
        do {
            try db.transaction {  // the body is your code: it may throw any error
                try insert.insert(Planet(id: 3, name: "Earth", au: 1.0, moons: 1))
            }
        } catch let error as SQLiteError {
            if error.code == .constraintPrimaryKey { log("planet 3 exists already") }
        } catch {
            log("the transaction failed: \(error)")
        }
        // END Errors: untyped throws
        #expect(logged == ["planet 3 exists already"])
    }
}
