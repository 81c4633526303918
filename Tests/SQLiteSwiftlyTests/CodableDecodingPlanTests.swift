import Foundation
import Testing

@testable import SQLiteSwiftly

// The decoding plan of CodableTableModel: the first row records which column each key reads, later rows of the
// same statement follow it, and the decoder's container is reused. These tests decode models whose keys do not
// follow the plan, to show that a plan only ever makes reading faster, never wrong.

/// Skips `bonus` on rows where `kind` is "plain", and reads its keys in another order than the columns.
private struct Conditional: CodableTableModel, Equatable {
    var id: Int
    var kind: String
    var bonus: Int?

    static let tableName = "conditional"
    static let columns = [
        Column("bonus", Int?.self), Column("kind", String.self), Column("id", Int.self, primaryKey: true),
    ]

    enum CodingKeys: String, CodingKey {
        case id, kind, bonus
    }

    init(id: Int, kind: String, bonus: Int?) {
        (self.id, self.kind, self.bonus) = (id, kind, bonus)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(String.self, forKey: .kind)
        bonus = kind == "plain" ? nil : try container.decode(Int.self, forKey: .bonus)
        id = try container.decode(Int.self, forKey: .id)
    }
}

/// A key type larger than one byte: keys are compared by name.
private struct NamedKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Reads its columns through ``NamedKey``, in an order that depends on the row.
private struct ByName: CodableTableModel, Equatable {
    var id: Int
    var label: String
    var weight: Double

    static let tableName = "by_name"
    static let columns = [
        Column("id", Int.self, primaryKey: true), Column("label", String.self), Column("weight", Double.self),
    ]

    init(id: Int, label: String, weight: Double) {
        (self.id, self.label, self.weight) = (id, label, weight)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: NamedKey.self)
        id = try container.decode(Int.self, forKey: NamedKey(stringValue: "id"))
        if id.isMultiple(of: 2) {
            weight = try container.decode(Double.self, forKey: NamedKey(stringValue: "weight"))
            label = try container.decode(String.self, forKey: NamedKey(stringValue: "label"))
        } else {
            label = try container.decode(String.self, forKey: NamedKey(stringValue: "label"))
            weight = try container.decode(Double.self, forKey: NamedKey(stringValue: "weight"))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: NamedKey.self)
        try container.encode(id, forKey: NamedKey(stringValue: "id"))
        try container.encode(label, forKey: NamedKey(stringValue: "label"))
        try container.encode(weight, forKey: NamedKey(stringValue: "weight"))
    }
}

/// The same table as ``ByName``, with synthesized coding and its own key order.
private struct Reordered: CodableTableModel, Equatable {
    var weight: Double
    var id: Int
    var label: String

    static let tableName = "by_name"
    static let columns = ByName.columns
}

/// A model whose one key type has a single case (a key type of size zero).
private struct Single: CodableTableModel, Equatable {
    var only: Int

    static let tableName = "single"
    static let columns = [Column("only", Int.self)]
}

/// Mixes storable Foundation types, a JSON column and a `Codable`-only enum, so that each kind of property
/// type is looked up on every row.
private struct Assorted: CodableTableModel, Equatable {
    enum Mood: String, Codable { case calm, busy }
    var id: Int
    var blob: Data
    var when: Date?
    var tags: [Int]
    var mood: Mood
    var token: UUID

    static let tableName = "assorted"
    static let columns = [
        Column("id", Int.self, primaryKey: true), Column("blob", Data.self), Column("when", Date?.self),
        Column("tags", .text), Column("mood", .text), Column("token", UUID.self),
    ]
}

/// Keeps the decoder it was given, to use it after `init(from:)` returned.
private final class DecoderKeeper: @unchecked Sendable {
    var decoder: (any Decoder)?
    var container: KeyedDecodingContainer<Keeper.CodingKeys>?
}

private struct Keeper: CodableTableModel {
    nonisolated(unsafe) static var keeper: DecoderKeeper?
    var id: Int

    static let tableName = "keeper"
    static let columns = [Column("id", Int.self, primaryKey: true)]

    enum CodingKeys: String, CodingKey { case id }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        Self.keeper?.decoder = decoder
        Self.keeper?.container = container
    }
}

/// Keeps the keyed container of its first decoding, and tries it again in every later one.
private struct Borrower: CodableTableModel {
    nonisolated(unsafe) static var kept: KeyedDecodingContainer<CodingKeys>?
    nonisolated(unsafe) static var lateOutcomes: [String] = []
    var id: Int

    static let tableName = "borrower"
    static let columns = [Column("id", Int.self, primaryKey: true)]

    enum CodingKeys: String, CodingKey { case id }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let kept = Self.kept else {
            Self.kept = container
            id = try container.decode(Int.self, forKey: .id)
            return
        }
        do {
            Self.lateOutcomes.append("read \(try kept.decode(Int.self, forKey: .id))")
        } catch let error as SQLiteError {
            Self.lateOutcomes.append("\(error.kind)")
        }
        id = try container.decode(Int.self, forKey: .id)
    }
}

@Suite struct CodableDecodingPlanTests {
    @Test("a key skipped on some rows, and keys in another order than the columns, read the right columns")
    func conditionalKeys() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Conditional.self)
        let insert = try db.makeInsertStatement(for: Conditional.self)
        let models = (1...50).map {
            Conditional(id: $0, kind: $0 % 3 == 0 ? "plain" : "rich", bonus: $0 % 3 == 0 ? nil : $0 * 10)
        }
        for model in models { try insert.insert(model) }
        // The first row is "rich" (all keys): the plan has three steps, which "plain" rows leave after the first.
        #expect(try db.fetchAll(Conditional.self, where: "1 ORDER BY id") == models)
        // Starting with a "plain" row records a two-step plan, which "rich" rows do not follow.
        #expect(
            try db.fetchAll(Conditional.self, where: "1 ORDER BY id % 3 != 0, id")
                == models.sorted {
                    ($0.id % 3 != 0 ? 1 : 0, $0.id) < ($1.id % 3 != 0 ? 1 : 0, $1.id)
                })
    }

    @Test("keys larger than one byte are matched by name, in an order that changes from row to row")
    func namedKeys() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: ByName.self)
        let insert = try db.makeInsertStatement(for: ByName.self)
        let models = (1...40).map { ByName(id: $0, label: "item \($0)", weight: Double($0) / 4) }
        for model in models { try insert.insert(model) }
        #expect(try db.fetchAll(ByName.self, where: "1 ORDER BY id") == models)
    }

    @Test("two models read through the same SQL text each get their own plan")
    func twoModelsOneStatement() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: ByName.self)
        let insert = try db.makeInsertStatement(for: ByName.self)
        for id in 1...10 { try insert.insert(ByName(id: id, label: "l\(id)", weight: Double(id))) }
        for _ in 0..<3 {
            let byName = try db.fetchAll(ByName.self, "SELECT * FROM by_name ORDER BY id")
            let reordered = try db.fetchAll(Reordered.self, "SELECT * FROM by_name ORDER BY id")
            #expect(byName.map(\.id) == Array(1...10))
            #expect(reordered.map(\.label) == byName.map(\.label))
            #expect(reordered.map(\.weight) == byName.map(\.weight))
        }
    }

    @Test("a key type of size zero decodes every row")
    func singleCaseKeys() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Single.self)
        let insert = try db.makeInsertStatement(for: Single.self)
        for value in [3, 1, 4, 1, 5] { try insert.insert(Single(only: value)) }
        #expect(try db.fetchAll(Single.self, where: "1 ORDER BY rowid").map(\.only) == [3, 1, 4, 1, 5])
    }

    @Test("storable, JSON and Codable-only properties decode on every row, NULL and not")
    func assortedTypes() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Assorted.self)
        let insert = try db.makeInsertStatement(for: Assorted.self)
        let models = (1...20).map {
            Assorted(
                id: $0, blob: Data(repeating: UInt8($0), count: $0),
                when: $0.isMultiple(of: 2) ? nil : Date(timeIntervalSince1970: Double($0)),
                tags: Array(0..<$0 % 4), mood: $0.isMultiple(of: 3) ? .busy : .calm, token: UUID())
        }
        for model in models { try insert.insert(model) }
        #expect(try db.fetchAll(Assorted.self, where: "1 ORDER BY id") == models)
        // A value that does not convert on a later row still names its column and row.
        try db.execute("UPDATE assorted SET \"when\" = 'not a date' WHERE id = 7")
        let error = sqliteError { _ = try db.fetchAll(Assorted.self, where: "1 ORDER BY id") }
        #expect(error?.kind == .conversionFailed)
        #expect(error?.column == "when")
        #expect(error?.row == 7)
        // A first row that fails part-way leaves no half plan behind: the statement's next run reads every row.
        try db.execute("UPDATE assorted SET \"when\" = 'not a date' WHERE id = 1")
        let first = sqliteError { _ = try db.fetchAll(Assorted.self, where: "1 ORDER BY id") }
        #expect(first?.row == 1)
        try db.execute("UPDATE assorted SET \"when\" = NULL WHERE id IN (1, 7)")
        var expected = models
        expected[0].when = nil
        expected[6].when = nil
        #expect(try db.fetchAll(Assorted.self, where: "1 ORDER BY id") == expected)
    }

    @Test("a container kept from a statement that is gone is refused while another statement decodes")
    func keptContainerAfterItsStatement() throws {
        Borrower.kept = nil
        Borrower.lateOutcomes = []
        defer { Borrower.kept = nil }
        do {
            let db = try Connection.inMemory()
            try db.createTable(for: Borrower.self)
            try db.execute("INSERT INTO borrower VALUES (1)")
            #expect(try db.fetchAll(Borrower.self).map(\.id) == [1])
        }
        let kept = try #require(Borrower.kept)
        #expect(kept.allKeys.isEmpty)
        #expect(!kept.contains(.id))
        // The first statement's decoding state is idle now, and the next statement to decode likely takes it:
        // the kept container must neither read that statement's rows nor disturb its decoding.
        let db = try Connection.inMemory()
        try db.createTable(for: Borrower.self)
        try db.execute("INSERT INTO borrower VALUES (5), (6), (7)")
        #expect(try db.fetchAll(Borrower.self, where: "1 ORDER BY id").map(\.id) == [5, 6, 7])
        #expect(Borrower.lateOutcomes == ["misuse", "misuse", "misuse"])
    }

    @Test("decoding states of statements that are gone are reused, not made again")
    func idleStatesAreReused() throws {
        let before = RowDecodingState.madeCount.load(ordering: .relaxed)
        for round in 1...300 {
            let db = try Connection.inMemory()
            try db.createTable(for: Assorted.self)
            let model = Assorted(id: round, blob: Data(), when: nil, tags: [], mood: .busy, token: UUID())
            try db.makeInsertStatement(for: Assorted.self).insert(model)
            #expect(try db.fetchAll(Assorted.self) == [model])
        }
        // Without reuse, each round makes one. The whole suite makes a handful meanwhile (3 when counted).
        #expect(RowDecodingState.madeCount.load(ordering: .relaxed) - before < 50)
    }

    @Test("decoding states pass between connections on different threads and decode correctly there")
    func statesAcrossThreads() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for round in 0..<40 {
                        let db = try Connection.inMemory()
                        try db.createTable(for: Assorted.self)
                        let id = task * 1000 + round
                        let model = Assorted(
                            id: id, blob: Data([UInt8(task), UInt8(round)]), when: nil, tags: [task, round],
                            mood: .calm, token: UUID())
                        try db.makeInsertStatement(for: Assorted.self).insert(model)
                        #expect(try db.fetchAll(Assorted.self) == [model])
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("a decoder or container kept after init(from:) throws, even once the statement and connection are gone")
    func keptDecoder() throws {
        let keeper = DecoderKeeper()
        Keeper.keeper = keeper
        defer { Keeper.keeper = nil }
        do {
            let db = try Connection.inMemory()
            try db.createTable(for: Keeper.self)
            try db.execute("INSERT INTO keeper VALUES (1), (2)")
            #expect(try db.fetchAll(Keeper.self).map(\.id) == [1, 2])
            let error = sqliteError { _ = try keeper.container?.decode(Int.self, forKey: .id) }
            #expect(error?.kind == .misuse)
        }
        // The connection, its statements and the decoding state's statement are gone now.
        let decoder = try #require(keeper.decoder)
        let error = sqliteError { _ = try decoder.container(keyedBy: Keeper.CodingKeys.self) }
        #expect(error?.kind == .misuse)
        #expect(error?.message.contains("init(from:)") == true)
        // The SQL is named until another statement takes the idle decoding state (tests run in parallel).
        #expect(error?.sql == nil || error?.sql?.contains("keeper") == true)
        let late = sqliteError { _ = try keeper.container?.decode(Int.self, forKey: .id) }
        #expect(late?.kind == .misuse)
    }
}
