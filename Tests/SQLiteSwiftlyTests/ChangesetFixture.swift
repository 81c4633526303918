import SQLiteSwiftly
import Testing

/// Databases and checks shared by the changeset suites.
enum ChangesetFixture {
    /// The schema: a rowid table, a `WITHOUT ROWID` table with a two-column key referencing it, a unique column,
    /// and a table without a primary key.
    static let schema: SQL = """
        CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, score REAL, data BLOB,
            slug TEXT UNIQUE);
        CREATE TABLE tags (note INTEGER NOT NULL REFERENCES notes(id), name TEXT NOT NULL, color TEXT,
            PRIMARY KEY (name, note)) WITHOUT ROWID;
        CREATE TABLE log (line TEXT);
        """

    /// A new in-memory database with ``schema`` and two notes, the first tagged.
    static func database() throws -> Connection {
        let db = try Connection.inMemory()
        try fill(db)
        return db
    }

    /// Creates ``schema`` in `db` and inserts the two notes.
    static func fill(_ db: Connection) throws {
        try db.executeScript(schema)
        try db.execute(
            "INSERT INTO notes (id, title, body, score, data, slug) VALUES (1, 'Groceries', 'milk', 1.5, x'00ff', 'g')")
        try db.execute("INSERT INTO notes (id, title, body, score, data, slug) VALUES (2, 'Ideas', NULL, 2, x'', 'i')")
        try db.execute("INSERT INTO tags (note, name, color) VALUES (1, 'home', 'blue')")
    }

    /// Every table's definition and rows, sorted, as text: compared before and after, it shows that nothing changed.
    static func contents(of db: Connection) throws -> [String] {
        let tables = try db.fetchAll(
            UntypedRow.self, "SELECT name, sql FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        var lines: [String] = []
        for table in tables {
            guard case .text(let name)? = table[0] else { continue }
            lines.append("\(table.values)")
            // Each value as its type and bytes: a corrupted changeset may have stored text that is not UTF-8.
            let columns = try db.fetchAll(
                UntypedRow.self, "SELECT name FROM pragma_table_xinfo(\(name)) ORDER BY cid"
            ).compactMap { row -> String? in
                guard case .text(let column)? = row[0] else { return nil }
                return "typeof(\"\(column)\") || ':' || hex(\"\(column)\")"
            }
            let rows = try db.fetchAll(
                UntypedRow.self, SQL(verbatim: "SELECT \(columns.joined(separator: ", ")) FROM \"\(name)\""))
            lines += rows.map { "\(name): \($0.values)" }.sorted()
        }
        return lines
    }

    /// Applying `body` throws, and leaves `db` exactly as it was.
    @discardableResult
    static func expectUnchanged(
        _ db: Connection, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) throws -> any Error {
        let before = try contents(of: db)
        let error = try #require(throws: (any Error).self, sourceLocation: sourceLocation) { try body() }
        #expect(try contents(of: db) == before, sourceLocation: sourceLocation)
        #expect(!db.isInTransaction, sourceLocation: sourceLocation)
        return error
    }
}
