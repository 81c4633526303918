import Foundation
import SQLiteSwiftly
import Testing

@Suite struct BackupTests {
    /// Creates a template database holding the inner planets, and closes it.
    private func makeTemplate(_ directory: TemporaryDirectory, name: String = "template.sqlite") throws -> String {
        let path = directory.path(name)
        let db = try Connection(creating: path)
        try db.createTable(for: TestPlanet.self)
        let insert = try db.makeInsertStatement(for: TestPlanet.self)
        for planet in TestPlanet.inner { try insert.insert(planet) }
        return path
    }

    private func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    @Test("a new database is created from a template with the template's content; the template is unchanged")
    func createFromTemplate() throws {
        let directory = try TemporaryDirectory()
        let template = try makeTemplate(directory)
        let templateBytes = try Data(contentsOf: URL(fileURLWithPath: template))
        let path = directory.path("new.sqlite")
        let db = try Connection(creating: path, fromTemplate: template)
        #expect(db.path == path)
        #expect(try db.fetchAll(TestPlanet.self) == TestPlanet.inner)
        // The copy is an independent, writable database.
        try db.execute("DELETE FROM test_planets WHERE id > 1")
        let reopenedTemplate = try Connection(opening: template, readOnly: true)
        #expect(try reopenedTemplate.fetchAll(TestPlanet.self).count == 4)
        #expect(try Data(contentsOf: URL(fileURLWithPath: template)) == templateBytes)
        #expect(try db.fetchValue(String.self, "PRAGMA integrity_check") == "ok")
    }

    @Test("creating from a template over an existing file is refused and the file is untouched")
    func destinationExists() throws {
        let directory = try TemporaryDirectory()
        let template = try makeTemplate(directory)
        let path = directory.path("taken.sqlite")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: SQLiteError.self) {
            try Connection(creating: path, fromTemplate: template)
        }
        #expect(error.kind == .databaseAlreadyExists)
        #expect(error.path == path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("precious".utf8))
    }

    @Test("a missing template is refused naming its path, and no new file is created")
    func templateMissing() throws {
        let directory = try TemporaryDirectory()
        let template = directory.path("missing.sqlite")
        let path = directory.path("new.sqlite")
        let error = try #require(throws: SQLiteError.self) {
            try Connection(creating: path, fromTemplate: template)
        }
        #expect(error.kind == .databaseNotFound)
        #expect(error.path == template)
        #expect(!exists(path))
        #expect(!exists(template))
    }

    @Test("a template that is not a database is refused, and no new file is created")
    func templateNotADatabase() throws {
        let directory = try TemporaryDirectory()
        let template = directory.path("text.sqlite")
        try Data(String(repeating: "not a database ", count: 100).utf8).write(to: URL(fileURLWithPath: template))
        let path = directory.path("new.sqlite")
        let error = try #require(throws: SQLiteError.self) {
            try Connection(creating: path, fromTemplate: template)
        }
        #expect(error.kind == .notADatabase)
        #expect(error.path == template)
        #expect(!exists(path))
    }

    @Test("a template locked by a writer fails with busy and leaves no new file")
    func templateBusy() throws {
        let directory = try TemporaryDirectory()
        let template = try makeTemplate(directory)
        let holder = try Connection(opening: template)
        try holder.execute("BEGIN EXCLUSIVE")
        let path = directory.path("new.sqlite")
        let error = try #require(throws: SQLiteError.self) {
            try Connection(creating: path, fromTemplate: template, options: .init(busyTimeout: .milliseconds(50)))
        }
        #expect(error.isBusy)
        #expect(!exists(path))
        try holder.execute("ROLLBACK")
    }

    @Test("backup(to:) copies a live database, including committed changes, to a new file")
    func backupLive() throws {
        let directory = try TemporaryDirectory()
        let template = try makeTemplate(directory)
        let db = try Connection(opening: template)
        try db.execute("UPDATE test_planets SET moons = 2 WHERE id = 4")
        let copy = directory.path("copy.sqlite")
        try db.backup(to: copy)
        let copied = try Connection(opening: copy, readOnly: true)
        #expect(try copied.fetchOne(TestPlanet.self, where: "id = 4")?.moons == 2)
        #expect(try copied.fetchAll(TestPlanet.self).count == 4)
        // The source stays usable.
        try db.execute("DELETE FROM test_planets")
        #expect(try copied.fetchAll(TestPlanet.self).count == 4)
    }

    @Test("an in-memory database can be backed up to a file")
    func backupInMemory() throws {
        let directory = try TemporaryDirectory()
        let db = try Connection.inMemory()
        try db.createTable(for: TestPlanet.self)
        try db.makeInsertStatement(for: TestPlanet.self).insert(TestPlanet.inner[2])
        let path = directory.path("memory.sqlite")
        try db.backup(to: path)
        #expect(try Connection(opening: path).fetchAll(TestPlanet.self) == [TestPlanet.inner[2]])
    }

    @Test("backup(to:) refuses an existing destination and leaves it untouched")
    func backupDestinationExists() throws {
        let directory = try TemporaryDirectory()
        let template = try makeTemplate(directory)
        let other = try makeTemplate(directory, name: "other.sqlite")
        let otherBytes = try Data(contentsOf: URL(fileURLWithPath: other))
        let db = try Connection(opening: template)
        let error = try #require(throws: SQLiteError.self) { try db.backup(to: other) }
        #expect(error.kind == .databaseAlreadyExists)
        #expect(error.path == other)
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == otherBytes)
    }

    @Test("a backup that fails (source locked) removes the half-created file")
    func failedBackupRemovesFile() throws {
        let directory = try TemporaryDirectory()
        let template = try makeTemplate(directory)
        let db = try Connection(opening: template, options: .init(busyTimeout: .milliseconds(50)))
        let holder = try Connection(opening: template)
        try holder.execute("BEGIN EXCLUSIVE")
        let copy = directory.path("copy.sqlite")
        let error = try #require(throws: SQLiteError.self) { try db.backup(to: copy) }
        #expect(error.isBusy)
        #expect(error.path == copy)
        #expect(error.message.contains(template))
        #expect(!exists(copy))
        #expect(!exists(copy + "-journal"))
        try holder.execute("ROLLBACK")
        // The path is free again: the next backup works.
        try db.backup(to: copy)
        #expect(try Connection(opening: copy).fetchAll(TestPlanet.self).count == 4)
    }
}
