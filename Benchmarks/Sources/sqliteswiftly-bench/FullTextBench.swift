import CSQLiteSwiftly
import GRDB
import RawC
import SQLiteSwiftly

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Full-text search (issue #28): building an FTS5 index over N documents, running 1,000 user queries, and
// tokenizing N documents with the same tokenizer written in C and in Swift. The corpus is generated from the word
// list of Debian's `wamerican` package (/usr/share/dict/words): see FullTextCorpus.

/// A document, as SQLiteSwiftly's searchable model.
struct FTSDoc: FullTextSearchable {
    var id: Int
    var title: String
    var body: String

    static let tableName = "docs"
    static let columns = [
        Column("id", Int.self, primaryKey: true), Column("title", String.self), Column("body", String.self),
    ]
    static let fullTextIndex = FullTextIndex(columns: ["title", "body"])

    init(id: Int, title: String, body: String) {
        (self.id, self.title, self.body) = (id, title, body)
    }

    init(row: borrowing SQLiteSwiftly.Row) throws {
        (id, title, body) = (try row[0], try row[1], try row[2])
    }

    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(title)
        try encoder.encode(body)
    }
}

/// A document, as a GRDB record.
struct GRDBDoc: FetchableRecord, PersistableRecord {
    var id: Int
    var title: String
    var body: String
    static let databaseTableName = "docs"

    init(id: Int, title: String, body: String) {
        (self.id, self.title, self.body) = (id, title, body)
    }

    init(row: GRDB.Row) throws {
        (id, title, body) = (row[0], row[1], row[2])
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["title"] = title
        container["body"] = body
    }
}

/// A search result read through GRDB: the document and its rank.
struct GRDBHit: FetchableRecord {
    var document: GRDBDoc
    var rank: Double

    init(row: GRDB.Row) throws {
        document = try GRDBDoc(row: row)
        rank = row[3]
    }
}

/// The same tokenizer as `rawc_words` in `Sources/RawC/fts.c`, written as a `TextTokenizer`.
struct SwiftWords: TextTokenizer {
    static let name = "swift_words"

    init(arguments: [String], context: borrowing TokenizerContext) {}

    func tokenize(_ text: UnsafeBufferPointer<UInt8>, for reason: TokenizationReason, into tokens: inout TokenSink)
        throws
    {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { folded in
            var index = 0
            while index < text.count {
                guard Self.isWord(text[index]) else {
                    index += 1
                    continue
                }
                let start = index
                var count = 0
                while index < text.count && Self.isWord(text[index]) {
                    if count < 64 {
                        let byte = text[index]
                        folded[count] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                        count += 1
                    }
                    index += 1
                }
                try tokens.add(UnsafeBufferPointer(rebasing: folded[0..<count]), at: start..<index)
            }
        }
    }

    @inline(__always) static func isWord(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
    }
}

enum FullTextBench {
    static let workloads = [
        Workload(name: "full-text: index N documents", implementations: [rawBuild, oursBuild, grdbBuild]),
        Workload(name: "full-text: 1,000 user queries", implementations: [rawSearch, oursSearch, grdbSearch]),
        Workload(name: "full-text: tokenize N documents", implementations: [rawTokenize, oursTokenize]),
    ]

    /// The query of each search: the 20 best documents, with their rank.
    static let limit = 20
    /// A word of every document's vocabulary, counted after a build to check that the index is there.
    static let checkWord = "the"

    // MARK: - Raw C API

    static let rawSearchSQL =
        "SELECT d.id, d.title, d.body, f.rank FROM docs_fts AS f JOIN docs AS d ON d.id = f.rowid "
        + "WHERE docs_fts MATCH ?1 ORDER BY f.rank LIMIT \(limit)"

    static func rawDatabase(_ location: Location, filled: FullTextCorpus?) throws -> RawConnection {
        let db = try RawConnection(location)
        for sql in try Connection.createTableSQL(for: FTSDoc.self) { try db.exec(sql) }
        if let filled {
            try RawConnection.check(rawc_fts_insert(db.handle, filled.raw, Int32(filled.raw.count)), "insert")
        }
        return db
    }

    static func rawCount(_ db: RawConnection) throws -> Int64 {
        let sql = "SELECT count(*) FROM docs_fts WHERE docs_fts MATCH '\(checkWord)'"
        var statement: OpaquePointer?
        try RawConnection.check(sqlite3_prepare_v2(db.handle, sql, -1, &statement, nil), sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw BenchError("no count: \(sql)") }
        return sqlite3_column_int64(statement, 0)
    }

    static let rawBuild = Implementation(name: "raw C") { location, rows in
        let corpus = try FullTextCorpus.shared(rows)
        let db = try rawDatabase(location, filled: nil)
        return {
            try RawConnection.check(rawc_fts_insert(db.handle, corpus.raw, Int32(corpus.raw.count)), "insert")
            return Int64(rows) + (try rawCount(db))
        }
    }

    static let rawSearch = Implementation(name: "raw C") { location, rows in
        let corpus = try FullTextCorpus.shared(rows)
        let db = try rawDatabase(location, filled: corpus)
        return {
            var sum: Int64 = 0
            let code = rawc_fts_search(db.handle, rawSearchSQL, corpus.rawQueries, Int32(corpus.rawQueries.count), &sum)
            try RawConnection.check(code, "search")
            return sum
        }
    }

    static let rawTokenize = Implementation(name: "raw C (fts5_tokenizer in C)") { location, rows in
        let corpus = try FullTextCorpus.shared(rows)
        let db = try RawConnection(location)
        try RawConnection.check(rawc_register_words_tokenizer(db.handle), "register")
        return {
            var sum: Int64 = 0
            try RawConnection.check(
                rawc_tokenize_all(db.handle, "rawc_words", corpus.raw, Int32(corpus.raw.count), &sum), "tokenize")
            return sum
        }
    }

    // MARK: - SQLiteSwiftly

    static func oursDatabase(_ location: Location, filled: FullTextCorpus?) throws -> Connection {
        let db = try Ours.open(location)
        try db.createTable(for: FTSDoc.self)
        if let filled { try oursInsert(db, filled.documents) }
        return db
    }

    static func oursInsert(_ db: Connection, _ documents: [FTSDoc]) throws {
        let insert = try db.makeInsertStatement(for: FTSDoc.self)
        try db.transaction {
            for document in documents { try insert.insert(document) }
        }
    }

    static let oursBuild = Implementation(name: "SQLiteSwiftly") { location, rows in
        let corpus = try FullTextCorpus.shared(rows)
        let db = try oursDatabase(location, filled: nil)
        let pattern = try SearchPattern(checkWord)
        return {
            try oursInsert(db, corpus.documents)
            let count = try db.fetchValue(Int64.self, "SELECT count(*) FROM docs_fts WHERE docs_fts MATCH \(pattern)")
            return Int64(rows) + (count ?? 0)
        }
    }

    static let oursSearch = Implementation(name: "SQLiteSwiftly") { location, rows in
        let corpus = try FullTextCorpus.shared(rows)
        let db = try oursDatabase(location, filled: corpus)
        return {
            var sum: Int64 = 0
            for query in corpus.queries {
                let pattern = try SearchPattern(query.text, mode: query.prefixes ? .prefixes : .allWords)
                for result in try db.search(FTSDoc.self, matching: pattern, limit: limit) {
                    sum += 1 + Int64((result.rank * 1e6).rounded())
                }
            }
            return sum
        }
    }

    static let oursTokenize = Implementation(name: "SQLiteSwiftly (TextTokenizer)") { location, rows in
        let corpus = try FullTextCorpus.shared(rows)
        // The C driver calls the tokenizer SQLiteSwiftly registered, on SQLiteSwiftly's connection.
        try RawConnection.check(rawc_capture_connections(1), "capture")
        let opened = Result { try Ours.open(location) }
        _ = rawc_capture_connections(0)
        let db = try opened.get()
        guard let handle = rawc_captured_connection() else { throw BenchError("no connection was captured") }
        try db.add(tokenizer: SwiftWords.self)
        return {
            var sum: Int64 = 0
            let code = withExtendedLifetime(db) {
                rawc_tokenize_all(handle, SwiftWords.name, corpus.raw, Int32(corpus.raw.count), &sum)
            }
            try RawConnection.check(code, "tokenize")
            return sum
        }
    }

    // MARK: - GRDB

    static func grdbDatabase(_ location: Location, filled: FullTextCorpus?) throws -> DatabaseQueue {
        let queue = try GRDBBench.open(location)
        try queue.write { db in
            try db.create(table: "docs") { table in
                table.primaryKey("id", .integer)
                table.column("title", .text).notNull()
                table.column("body", .text).notNull()
            }
            try db.create(virtualTable: "docs_fts", using: FTS5()) { table in
                table.synchronize(withTable: "docs")
                table.tokenizer = .unicode61(diacritics: .remove)
                table.column("title")
                table.column("body")
            }
        }
        if let filled { try grdbInsert(queue, filled.grdbDocuments) }
        return queue
    }

    static func grdbInsert(_ queue: DatabaseQueue, _ documents: [GRDBDoc]) throws {
        try queue.write { db in
            for document in documents { try document.insert(db) }
        }
    }

    static let grdbBuild = Implementation(name: "GRDB (synchronize(withTable:))") { location, rows in
        let corpus = try FullTextCorpus.shared(rows)
        let queue = try grdbDatabase(location, filled: nil)
        return {
            try grdbInsert(queue, corpus.grdbDocuments)
            let count = try queue.read { db in
                try Int64.fetchOne(
                    db, sql: "SELECT count(*) FROM docs_fts WHERE docs_fts MATCH ?", arguments: [checkWord])
            }
            return Int64(rows) + (count ?? 0)
        }
    }

    static let grdbSearch = Implementation(name: "GRDB (FTS5Pattern)") { location, rows in
        let corpus = try FullTextCorpus.shared(rows)
        let queue = try grdbDatabase(location, filled: corpus)
        let sql =
            "SELECT docs.id, docs.title, docs.body, docs_fts.rank FROM docs_fts JOIN docs ON docs.id = docs_fts.rowid "
            + "WHERE docs_fts MATCH ? ORDER BY docs_fts.rank LIMIT \(limit)"
        return {
            try queue.read { db in
                var sum: Int64 = 0
                for query in corpus.queries {
                    let pattern =
                        query.prefixes
                        ? FTS5Pattern(matchingAllPrefixesIn: query.text) : FTS5Pattern(matchingAllTokensIn: query.text)
                    guard let pattern else { continue }
                    for hit in try GRDBHit.fetchAll(db, sql: sql, arguments: [pattern]) {
                        sum += 1 + Int64((hit.rank * 1e6).rounded())
                    }
                }
                return sum
            }
        }
    }
}
