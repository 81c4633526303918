import SQLiteSwiftly
import Testing

/// A value type whose `bind(to:)` forgets to bind when it has no payload: a bug in user code.
private struct Forgetful: SQLiteValueConvertible {
    static let declaredType = DeclaredType.text
    var payload: String?
    init(_ payload: String?) { self.payload = payload }
    init(sqliteValue: SQLiteValue) throws(SQLiteError) { payload = try String?(sqliteValue: sqliteValue) }
    var sqliteValue: SQLiteValue { payload.map { .text($0) } ?? .null }
    func bind(to slot: borrowing ParameterSlot) throws(SQLiteError) {
        if let payload { try slot.bind(payload) }
    }
}

/// A value type that binds through another one of its own: one bind in all.
private struct Wrapped: SQLiteValueConvertible {
    static let declaredType = DeclaredType.text
    var inner: Forgetful
    init(sqliteValue: SQLiteValue) throws(SQLiteError) { inner = try Forgetful(sqliteValue: sqliteValue) }
    init(_ text: String) { inner = Forgetful(text) }
    var sqliteValue: SQLiteValue { inner.sqliteValue }
    func bind(to slot: borrowing ParameterSlot) throws(SQLiteError) { try inner.bind(to: slot) }
}

private struct Note: TableModel {
    static let tableName = "notes"
    static let columns = [Column("id", Int.self), Column("body", Forgetful.self)]
    var id: Int
    var body: Forgetful
    init(id: Int, body: Forgetful) { (self.id, self.body) = (id, body) }
    init(row: borrowing Row) throws { (id, body) = (try row[0], try row[1]) }
    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(body)
    }
}

/// A value's own `bind(to:)` must bind: a parameter it skips would keep the previous run's binding, whose text
/// may sit in memory the statement has reused since (it read as another parameter's text, or as freed bytes).
@Suite struct UnboundParameterTests {
    @Test("a typed argument whose bind(to:) binds nothing is refused, naming the parameter; the statement still works")
    func typedArgument() throws {
        let db = try Connection.inMemory()
        let statement = try db.prepare("SELECT ?1, ?2")
        let first = try statement.fetchOne(UntypedRow.self, binding: Forgetful("first"), "BBBBB")
        #expect(first?.values == [.text("first"), .text("BBBBB")])
        let error = sqliteError { try statement.fetchOne(UntypedRow.self, binding: Forgetful(nil), "CCCCC") }
        #expect(error?.kind == .misuse)
        #expect(error?.parameter == "?1")
        #expect(error?.sql == "SELECT ?1, ?2")
        #expect(error?.message.contains("Forgetful.bind(to:) returned without binding") == true)
        // A long text is copied by SQLite, a short one lives in the statement's arena: both runs are refused.
        let long = String(repeating: "Z", count: 4000)
        _ = try statement.fetchOne(UntypedRow.self, binding: Forgetful("again"), long)
        #expect(sqliteError { try statement.fetchOne(UntypedRow.self, binding: Forgetful(nil), "x") }?.kind == .misuse)
        let after = try statement.fetchOne(UntypedRow.self, binding: Forgetful("third"), "D")
        #expect(after?.values == [.text("third"), .text("D")])
        let nested = try statement.fetchOne(UntypedRow.self, binding: Wrapped("nested"), "E")
        #expect(nested?.values.first == .text("nested"))
    }

    @Test("a model column whose value binds nothing is refused, and no row is written")
    func modelColumn() throws {
        let db = try Connection.inMemory()
        try db.createTable(for: Note.self)
        let insert = try db.makeInsertStatement(for: Note.self)
        _ = try insert.insert(Note(id: 1, body: Forgetful("kept")))
        let error = sqliteError { try insert.insert(Note(id: 2, body: Forgetful(nil))) }
        #expect(error?.kind == .misuse)
        #expect(error?.parameter == "?2")
        #expect(try db.fetchAll(Note.self).map(\.body.payload) == ["kept"])
        _ = try insert.insert(Note(id: 3, body: Forgetful("after")))
        #expect(try db.fetchAll(Note.self).map(\.body.payload) == ["kept", "after"])
    }

    @Test("an argument list converts the value through sqliteValue instead, so nil binds NULL")
    func argumentList() throws {
        let db = try Connection.inMemory()
        let row = try db.fetchOne(UntypedRow.self, "SELECT ?1 IS NULL, ?2", [Forgetful(nil), Forgetful("b")])
        #expect(row?.values == [.integer(1), .text("b")])
    }
}
