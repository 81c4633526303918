import Foundation
import SQLiteSwiftly
import Testing

/// The examples of the "Swift in SQL" article, in its order, each continuing from the ones before on the
/// database that the first one opens.
@Suite struct SwiftInSQLArticleTests {
    @Test("the article's examples run in order on one database, with the results they show")
    func walkthrough() async throws {
        let directory = try TemporaryDirectory()
        let photoPath = directory.path("beach.jpg")  // the article: "the path of a JPEG file"
        let copyPath = directory.path("copy.jpg")  // "a path where no file exists yet"
        let jpeg = [0xFF, 0xD8] + (0..<300_000).map { UInt8(truncatingIfNeeded: $0) }
        try Data(jpeg).write(to: URL(fileURLWithPath: photoPath))
        var messages: [String] = []
        func print(_ text: String) { messages.append(text) }  // what the article prints

        // BEGIN SwiftInSQL: collation
        struct Author: TableModel {
            var id: Int
            var name: String

            static let tableName = "authors"
            static let columns = [
                Column("id", Int.self, primaryKey: true),
                Column("name", String.self, collation: Collation.unicodeCaseAndAccentInsensitive.name),
            ]

            init(id: Int, name: String) {
                self.id = id
                self.name = name
            }

            init(row: borrowing Row) throws {
                id = try row[0]
                name = try row[1]
            }

            func encode(to encoder: inout RowEncoder) throws {
                try encoder.encode(id)
                try encoder.encode(name)
            }
        }

        let db = try Connection.inMemory()
        try db.add(collation: .unicodeCaseAndAccentInsensitive)
        try db.createTable(for: Author.self)  // "name" TEXT NOT NULL COLLATE "UNICODE_NOCASE_NOACCENT"
        let insert = try db.makeInsertStatement(for: Author.self)
        for (index, name) in ["Zoë Saldaña", "Émile Zola", "Albert Camus", "emile durkheim"].enumerated() {
            try insert.insert(Author(id: index + 1, name: name))
        }
        let sorted = try db.fetchAll(Author.self, "SELECT * FROM authors ORDER BY name").map(\.name)
        // ["Albert Camus", "emile durkheim", "Émile Zola", "Zoë Saldaña"]
        let zola = try db.fetchOne(Author.self, where: "name = ?", ["EMILE ZOLA"])?.name  // "Émile Zola"
        // END SwiftInSQL: collation
        #expect(sorted == ["Albert Camus", "emile durkheim", "Émile Zola", "Zoë Saldaña"])
        #expect(zola == "Émile Zola")

        // BEGIN SwiftInSQL: regexp
        try db.add(function: .regexp())
        try db.execute("CREATE TABLE parts (code TEXT)")
        try db.execute("INSERT INTO parts VALUES ('AB-1042'), ('ab-7'), ('XY-3'), ('XY3')")
        let pattern = "^[A-Z]{2}-[0-9]+$"
        let valid = try db.fetchValue(Int.self, "SELECT count(*) FROM parts WHERE code REGEXP \(pattern)")  // 2
        // END SwiftInSQL: regexp
        #expect(valid == 2)

        // BEGIN SwiftInSQL: regexp syntax
        let caseless = try db.fetchValue(Bool.self, "SELECT 'Zoë Saldaña' REGEXP '(?i)^zoë s'")  // true
        do {
            _ = try db.fetchValue(Bool.self, "SELECT 'x' REGEXP 'a{2'")
        } catch {
            print(error.message)
            // the pattern is not a valid regular expression at character 2: '{' must start a repetition such as {2}, {2,} or {2,5} (write '\{' for a brace)
        }
        // END SwiftInSQL: regexp syntax
        #expect(caseless == true)
        #expect(
            messages == [
                "the pattern is not a valid regular expression at character 2: '{' must start a repetition such as "
                    + "{2}, {2,} or {2,5} (write '\\{' for a brace)"
            ])

        // BEGIN SwiftInSQL: scoring
        struct Hotel: RowDecodable {
            var name: String
            init(row: borrowing Row) throws { name = try row[0] }
        }

        try db.execute("CREATE TABLE hotels (name TEXT, stars INTEGER, reviews INTEGER)")
        try db.execute("INSERT INTO hotels VALUES ('Sea View', 4, 12), ('Old Mill', 5, 2), ('Harbour', 3, 400)")
        let score = SQLFunction("score", options: .deterministic) { (stars: Int, reviews: Int) in
            Double(stars) * log2(Double(reviews) + 2)
        }
        try db.add(function: score)
        let ranked = try db.fetchAll(Hotel.self, "SELECT name FROM hotels ORDER BY score(stars, reviews) DESC")
        // ["Harbour", "Sea View", "Old Mill"]
        // END SwiftInSQL: scoring
        #expect(ranked.map(\.name) == ["Harbour", "Sea View", "Old Mill"])

        // BEGIN SwiftInSQL: median
        struct Median: AggregateFunction {
            var values: [Double] = []

            mutating func step(_ arguments: borrowing FunctionArguments) throws {
                if let value: Double = try arguments[0] { values.append(value) }  // NULL is skipped
            }

            func finalize() -> Double? {
                let sorted = values.sorted()
                guard !sorted.isEmpty else { return nil }
                let middle = sorted.count / 2
                return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
            }
        }

        try db.add(function: SQLFunction("median", argumentCount: 1, aggregate: Median.self))
        try db.execute("CREATE TABLE trips (city TEXT, minutes REAL)")
        try db.execute("INSERT INTO trips VALUES ('Oslo', 12), ('Oslo', 30), ('Oslo', 18), ('Rome', 25), ('Rome', 35)")
        let oslo = try db.fetchValue(Double.self, "SELECT median(minutes) FROM trips WHERE city = 'Oslo'")  // 18
        let rome = try db.fetchValue(Double.self, "SELECT median(minutes) FROM trips WHERE city = 'Rome'")  // 30
        let paris = try db.fetchValue(Double?.self, "SELECT median(minutes) FROM trips WHERE city = 'Paris'")  // NULL
        // END SwiftInSQL: median
        #expect(oslo == 18 && rome == 30 && paris == .some(nil))

        // BEGIN SwiftInSQL: moving average
        struct MovingAverage: WindowFunction {
            var sum = 0.0
            var count = 0

            mutating func step(_ arguments: borrowing FunctionArguments) throws {
                sum += try arguments[0] as Double
                count += 1
            }

            mutating func inverse(_ arguments: borrowing FunctionArguments) throws {
                sum -= try arguments[0] as Double
                count -= 1
            }

            func value() -> Double? { count == 0 ? nil : sum / Double(count) }
            func finalize() -> Double? { value() }
        }

        struct Smoothed: RowDecodable {
            var celsius: Double
            init(row: borrowing Row) throws { celsius = try row[0] }
        }

        try db.add(function: SQLFunction("moving_average", argumentCount: 1, window: MovingAverage.self))
        try db.execute("CREATE TABLE readings (day INTEGER, celsius REAL)")
        try db.execute("INSERT INTO readings VALUES (1, 10), (2, 14), (3, 12), (4, 22)")
        let smoothed = try db.fetchAll(
            Smoothed.self,
            "SELECT moving_average(celsius) OVER (ORDER BY day ROWS 2 PRECEDING) FROM readings ORDER BY day")
        // [10, 12, 12, 16]: each day with up to two days before it
        // END SwiftInSQL: moving average
        #expect(smoothed.map(\.celsius) == [10, 12, 12, 16])

        // BEGIN SwiftInSQL: photo
        try db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT, jpeg BLOB)")
        try db.execute("INSERT INTO photos (name, jpeg) VALUES ('beach', NULL)")
        let id = db.lastInsertedRowID

        // In: the file is copied 1 MiB at a time, never held whole in memory.
        try db.writeBlob(table: "photos", column: "jpeg", rowID: id, fromFile: photoPath)

        // Out, to a file or in chunks (to upload them, say).
        try db.readBlob(table: "photos", column: "jpeg", rowID: id, toFile: copyPath)
        var size = 0
        for try await chunk in db.blobChunks(table: "photos", column: "jpeg", rowID: id, chunkSize: 64 * 1024) {
            size += chunk.count
        }

        // In place: read (or overwrite) a byte range.
        let header = try db.withBlob(table: "photos", column: "jpeg", rowID: id) { blob in
            try blob.read(count: 2, at: 0)  // [0xFF, 0xD8], the start of every JPEG
        }
        // END SwiftInSQL: photo
        #expect(size == jpeg.count)
        #expect(header == [0xFF, 0xD8])
        #expect(try Data(contentsOf: URL(fileURLWithPath: copyPath)) == Data(jpeg))
    }
}
