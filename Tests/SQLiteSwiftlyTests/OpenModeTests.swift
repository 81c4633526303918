import Foundation
import Synchronization
import Testing

@testable import SQLiteSwiftly

/// What a refused file looked like: its bytes and modification date.
private struct FileSnapshot: Equatable {
    var bytes: Data
    var modified: Date?

    init(_ path: String) throws {
        bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    }
}

/// Writes `bytes` to `path` and dates the file in the past, so that any later write would change its date.
private func makeOldFile(_ path: String, _ bytes: Data) throws {
    try bytes.write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: path)
}

/// Whether anything, even a dangling symbolic link, is at `path`.
private func somethingExists(at path: String) -> Bool {
    (try? FileManager.default.attributesOfItem(atPath: path)) != nil
}

/// Runs `body`, which must throw an ``SQLiteError``, and returns that error.
private func openingError(_ body: () throws(SQLiteError) -> Connection) -> SQLiteError? {
    do throws(SQLiteError) {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

@Suite struct OpenModeTests {
    // MARK: - Creating: the path must be free

    @Test("creating makes a new, usable database file")
    func createsNewFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("new.sqlite")
        let db = try Connection(creating: path)
        try db.execute("CREATE TABLE t (x)")
        #expect(db.path == path)
        #expect(db.mode == .create(path: path))
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(!db.isReadOnly)
    }

    @Test("creating refuses an existing database and leaves it byte for byte and date unchanged")
    func createRefusesExistingDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("taken.sqlite")
        do {
            let db = try Connection(creating: path)
            try db.execute("CREATE TABLE t (x)")
            try db.execute("INSERT INTO t VALUES (42)")
        }
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: path)
        let before = try FileSnapshot(path)
        let error = try #require(openingError { () throws(SQLiteError) in try Connection(creating: path) })
        #expect(error.kind == .databaseAlreadyExists)
        #expect(error.path == path)
        #expect(error.code == .cannotOpen)
        #expect(error.message.contains(path))
        #expect(try FileSnapshot(path) == before)
        let again = try Connection(opening: path)
        #expect(try again.fetchValue(Int.self, "SELECT x FROM t") == 42)
    }

    @Test(
        "creating refuses any existing file, even an empty one, and leaves it unchanged",
        arguments: [Data(), Data("hello, this is not a database".utf8), Data(repeating: 0xAB, count: 4096)])
    func createRefusesExistingFile(contents: Data) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("existing")
        try makeOldFile(path, contents)
        let before = try FileSnapshot(path)
        let error = try #require(openingError { () throws(SQLiteError) in try Connection(creating: path) })
        #expect(error.kind == .databaseAlreadyExists)
        #expect(error.path == path)
        #expect(try FileSnapshot(path) == before)
    }

    @Test("creating refuses a directory and leaves it in place")
    func createRefusesDirectory() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("folder")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let error = try #require(openingError { () throws(SQLiteError) in try Connection(creating: path) })
        #expect(error.kind == .databaseAlreadyExists)
        #expect(error.path == path)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
    }

    @Test("creating refuses a dangling symbolic link and does not create its target")
    func createRefusesDanglingSymlink() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("link.sqlite")
        let target = directory.path("target.sqlite")
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        let error = try #require(openingError { () throws(SQLiteError) in try Connection(creating: path) })
        #expect(error.kind == .databaseAlreadyExists)
        #expect(error.path == path)
        #expect(!somethingExists(at: target))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == target)
    }

    @Test(
        "creating refuses a path with a leftover journal or WAL file, and leaves both unchanged",
        arguments: ["-journal", "-wal", "-shm"])
    func createRefusesLeftoverJournal(suffix: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("crashed.sqlite")
        let journal = path + suffix
        try makeOldFile(journal, Data(repeating: 0x5A, count: 512))
        let before = try FileSnapshot(journal)
        let error = try #require(openingError { () throws(SQLiteError) in try Connection(creating: path) })
        #expect(error.kind == .databaseAlreadyExists)
        #expect(error.path == path)
        #expect(error.message.contains(suffix))
        #expect(!somethingExists(at: path))
        #expect(try FileSnapshot(journal) == before)
    }

    @Test("creating in a missing directory fails with an error naming the path, and creates nothing")
    func createInMissingDirectory() throws {
        let directory = try TemporaryDirectory()
        let parent = directory.path("no-such-directory")
        let path = parent + "/db.sqlite"
        let error = try #require(openingError { () throws(SQLiteError) in try Connection(creating: path) })
        #expect(error.kind == .sqlite)
        #expect(error.code == .cannotOpen)
        #expect(error.path == path)
        #expect(error.message.contains(path))
        #expect(error.description.contains(path))
        #expect(!somethingExists(at: parent))
    }

    @Test("creating with an empty path is misuse")
    func createEmptyPath() {
        let error = openingError { () throws(SQLiteError) in try Connection(creating: "") }
        #expect(error?.kind == .misuse)
    }

    @Test("two threads racing to create the same path: exactly one wins, in every round")
    func createRace() throws {
        let directory = try TemporaryDirectory()
        for round in 0..<20 {
            let path = directory.path("race-\(round).sqlite")
            let winners = TrackedMutex(0)
            let refusals = TrackedMutex(0)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do throws(SQLiteError) {
                    let db = try Connection(creating: path)
                    try db.execute("CREATE TABLE t (x)")
                    winners.withLock { $0 += 1 }
                } catch {
                    if error.kind == .databaseAlreadyExists { refusals.withLock { $0 += 1 } }
                }
            }
            #expect(winners.withLock { $0 } == 1, "round \(round)")
            #expect(refusals.withLock { $0 } == 3, "round \(round)")
            let db = try Connection(opening: path)
            #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = 't'") == 1)
        }
    }

    @Test("names SQLite reads specially (':memory:', 'file:') create real files when written as paths")
    func createSpecialNames() throws {
        let directory = try TemporaryDirectory()
        for name in [":memory:", "file:x.db", "file:x.db?mode=memory"] {
            let path = directory.path(name)
            do {
                let db = try Connection(creating: path)
                try db.execute("CREATE TABLE t (x)")
                try db.execute("INSERT INTO t VALUES (7)")
            }
            #expect(FileManager.default.fileExists(atPath: path), "\(name)")
            let again = try Connection(opening: path)
            #expect(try again.fetchValue(Int.self, "SELECT x FROM t") == 7, "\(name)")
        }
    }

    @Test("relative paths are handed to SQLite with a directory part, so they are never special names")
    func relativePathsAreFiles() {
        #expect(DatabaseFile.sqlitePath(":memory:") == "./:memory:")
        #expect(DatabaseFile.sqlitePath("file:x.db") == "./file:x.db")
        #expect(DatabaseFile.sqlitePath("data/app.db") == "./data/app.db")
        #expect(DatabaseFile.sqlitePath("/tmp/app.db") == "/tmp/app.db")
    }

    // MARK: - Opening: the path must hold a database

    @Test("opening refuses a missing path and does not create it")
    func openRefusesMissing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("missing.sqlite")
        for readOnly in [false, true] {
            let error = try #require(
                openingError { () throws(SQLiteError) in try Connection(opening: path, readOnly: readOnly) })
            #expect(error.kind == .databaseNotFound)
            #expect(error.path == path)
            #expect(error.message.contains(path))
            #expect(!somethingExists(at: path))
            #expect(!somethingExists(at: path + "-journal"))
        }
    }

    @Test("opening refuses a path in a missing directory as not found")
    func openRefusesMissingDirectory() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nowhere") + "/db.sqlite"
        let error = try #require(openingError { () throws(SQLiteError) in try Connection(opening: path) })
        #expect(error.kind == .databaseNotFound)
        #expect(error.path == path)
    }

    @Test(
        "opening refuses a file that is not a database at open time, and leaves it unchanged",
        arguments: [
            Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 13) }),
            Data(String(repeating: "This is a plain text file, not a database. ", count: 4).utf8),
            Data("hello".utf8),
            Data([0]),
            Data("a".utf8),
            Data("SQLite format 3".utf8),
            Data("SQLite format 3\0".utf8) + Data(repeating: 0xEE, count: 600),
        ])
    func openRefusesNonDatabase(contents: Data) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.txt")
        try makeOldFile(path, contents)
        let before = try FileSnapshot(path)
        for readOnly in [false, true] {
            let error = try #require(
                openingError { () throws(SQLiteError) in try Connection(opening: path, readOnly: readOnly) })
            #expect(error.kind == .notADatabase)
            #expect(error.code.primary == .notADatabase)
            #expect(error.path == path)
            #expect(error.message.contains(path))
        }
        #expect(try FileSnapshot(path) == before)
        #expect(!somethingExists(at: path + "-journal"))
    }

    @Test("opening refuses a directory")
    func openRefusesDirectory() throws {
        let directory = try TemporaryDirectory()
        let error = try #require(openingError { () throws(SQLiteError) in try Connection(opening: directory.url.path) })
        #expect(error.kind != .databaseNotFound)
        #expect(error.path == directory.url.path)
    }

    @Test("opening accepts a zero-byte file: SQLite treats it as an empty database")
    func openAcceptsEmptyFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let db = try Connection(opening: path)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master") == 0)
        try db.execute("CREATE TABLE t (x)")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master") == 1)
    }

    @Test("opening a zero-byte file read-only gives an empty database and leaves the file empty")
    func openEmptyFileReadOnly() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let db = try Connection(opening: path, readOnly: true)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master") == 0)
        #expect(throws: SQLiteError.self) { try db.execute("CREATE TABLE t (x)") }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
    }

    @Test(
        "opening a zero-byte file beside a leftover WAL is refused, and both are left as they were",
        arguments: [false, true])
    func emptyFileWithLeftover(readOnly: Bool) throws {
        let suffix = "-wal"
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let leftover = Data(repeating: 0xAB, count: 4096)
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(FileManager.default.createFile(atPath: path + suffix, contents: leftover))
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path("")).sorted()
        let error = try requireSQLiteError { _ = try Connection(opening: path, readOnly: readOnly) }
        #expect(error.code == .cannotOpen)
        #expect(error.path == path)
        #expect(error.message.contains("leftover '\(path + suffix)'"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("")).sorted() == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + suffix)) == leftover)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
    }

    @Test("opening an existing database sees its data")
    func openExisting() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        do {
            let db = try Connection(creating: path)
            try db.execute("CREATE TABLE t (x)")
            try db.execute("INSERT INTO t VALUES ('kept')")
        }
        let db = try Connection(opening: path)
        #expect(db.mode == .open(path: path))
        #expect(try db.fetchValue(String.self, "SELECT x FROM t") == "kept")
    }

    @Test("each refusal has its own kind")
    func distinctKinds() throws {
        let directory = try TemporaryDirectory()
        let existing = directory.path("existing")
        let text = directory.path("text")
        try Data(String(repeating: "x", count: 200).utf8).write(to: URL(fileURLWithPath: text))
        #expect(FileManager.default.createFile(atPath: existing, contents: Data()))
        let kinds = [
            openingError { () throws(SQLiteError) in try Connection(creating: existing) }?.kind,
            openingError { () throws(SQLiteError) in try Connection(opening: directory.path("missing")) }?.kind,
            openingError { () throws(SQLiteError) in try Connection(opening: text) }?.kind,
        ]
        #expect(kinds == [.databaseAlreadyExists, .databaseNotFound, .notADatabase])
    }

    @Test("OpenMode reports its path")
    func modePath() {
        #expect(OpenMode.create(path: "/a").path == "/a")
        #expect(OpenMode.open(path: "/b").path == "/b")
        #expect(OpenMode.openReadOnly(path: "/c").path == "/c")
        #expect(OpenMode.inMemory.path == nil)
    }
}
