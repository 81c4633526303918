import SQLiteSwiftly
import Testing

/// The library's option sets and small value types print readably, not as `Kinds(rawValue: 5)`.
@Suite struct DescriptionTests {
    @Test("DatabaseChange.Kinds prints its members by name, and bits it does not name in hexadecimal")
    func changeKinds() {
        #expect("\(DatabaseChange.Kinds([.insert, .delete]))" == "[insert, delete]")
        #expect(DatabaseChange.Kinds([.update, .insert, .delete]).description == "[insert, update, delete]")
        #expect(DatabaseChange.Kinds().description == "[]")
        #expect(DatabaseChange.Kinds(rawValue: 0x12).description == "[update, 0x10]")
    }

    @Test("DatabaseChange and its table changes print the tables, kinds, rows and flags")
    func databaseChange() {
        let notes = DatabaseChange.TableChange(table: "notes", kinds: [.insert, .update], rowIDs: [7, 3])
        let tags = DatabaseChange.TableChange(table: "tags", kinds: .delete, rowIDs: nil)
        #expect(notes.description == "notes [insert, update] rows 3, 7")
        #expect(tags.description == "tags [delete] all rows")
        #expect(
            DatabaseChange(tables: [tags, notes], changesSchema: true).description
                == "DatabaseChange(notes [insert, update] rows 3, 7; tags [delete] all rows; schema changed)")
        #expect(
            DatabaseChange(tables: [], isFromAnotherConnection: true).description
                == "DatabaseChange(from another connection)")
    }

    @Test("SQLFunction.Options prints its members by name")
    func functionOptions() {
        #expect(SQLFunction.Options([.deterministic, .innocuous]).description == "[deterministic, innocuous]")
        #expect("\(SQLFunction.Options.deterministic)" == "[deterministic]")
        #expect(SQLFunction.Options(rawValue: 8).description == "[0x8]")
    }

    @Test("ConnectionLimit prints its name")
    func connectionLimit() {
        #expect(ConnectionLimit.length.description == "length")
        #expect("\(ConnectionLimit.parameterNumber)" == "parameterNumber")
        #expect(ConnectionLimit(rawValue: 99).description == "limit 99")
    }

    @Test("UntypedRow prints its columns and values")
    func untypedRow() throws {
        let row = try UntypedRow(columnNames: ["name", "moons", "au"], values: [.text("Mars"), .null, .real(1.5)])
        #expect(row.description == #"[name: TEXT "Mars", moons: NULL, au: REAL 1.5]"#)
        #expect(try UntypedRow(columnNames: [], values: []).description == "[]")
    }

    @Test("StatementArguments and their arguments print the values, named ones sorted by name")
    func statementArguments() {
        let positional: StatementArguments = [1, "Mars", nil]
        #expect(positional.description == #"[INTEGER 1, TEXT "Mars", NULL]"#)
        let named: StatementArguments = ["name": "Mars", ":id": 4]
        #expect(named.description == #"[:id: INTEGER 4, name: TEXT "Mars"]"#)
        #expect(StatementArguments.none.description == "[]")
        #expect(StatementArguments.Argument.value(.integer(2)).description == "INTEGER 2")
        let invalid: StatementArguments = [Double.nan]
        #expect(invalid.description.hasPrefix("[invalid (conversion failed"))
    }

    @Test("Column, ForeignKey and TableIndex print as CREATE TABLE declares them")
    func schemaValues() {
        #expect(Column("id", Int.self, primaryKey: true).description == #""id" INTEGER PRIMARY KEY NOT NULL"#)
        #expect(
            Column("name", String.self, unique: true, collation: "NOCASE").description
                == #""name" TEXT NOT NULL UNIQUE COLLATE "NOCASE""#)
        #expect(Column("note", .text, nullable: true, default: "none").description == #""note" TEXT DEFAULT 'none'"#)
        let planet = ForeignKey("planets", "id", onDelete: .cascade)
        #expect(planet.description == #"REFERENCES "planets" ("id") ON DELETE CASCADE"#)
        #expect(
            Column("planet", Int.self, references: planet).description
                == #""planet" INTEGER NOT NULL REFERENCES "planets" ("id") ON DELETE CASCADE"#)
        #expect(TableIndex("by_au", on: ["au"]).description == #"INDEX "by_au" ("au")"#)
        #expect(
            TableIndex("by_name", on: ["planet", "name"], unique: true).description
                == #"UNIQUE INDEX "by_name" ("planet", "name")"#)
    }

    @Test("Changeset and Patchset print their size, RecordedChange its operation, table and values")
    func changesets() {
        #expect(Changeset(bytes: [1, 2, 3]).description == "Changeset(3 bytes)")
        #expect(Patchset(bytes: []).description == "Patchset(0 bytes)")
        let update = RecordedChange(
            table: "notes", operation: .update, primaryKeyColumns: [true, false],
            oldValues: [.integer(1), .text("a")], newValues: [nil, .text("b")])
        #expect(update.description == #"UPDATE notes old [INTEGER 1, TEXT "a"] new [-, TEXT "b"]"#)
        let insert = RecordedChange(
            table: "tags", operation: .insert, isIndirect: true, primaryKeyColumns: [true], oldValues: [],
            newValues: [.text("red")])
        #expect(insert.description == #"INSERT tags new [TEXT "red"] (indirect)"#)
    }

    @Test("the types that already printed readably still do")
    func existingDescriptions() {
        #expect(ResultCode.constraintUnique.description == "constraint failed")
        #expect(SQLiteError.Kind.misuse.description == "misuse")
        #expect(SQLiteValue.text("Mars").description == #"TEXT "Mars""#)
        #expect(SynchronousMode.normal.description == "NORMAL")
        #expect(DeclaredType.integer.description == "INTEGER")
        #expect(StorageClass.blob.description == "BLOB")
        #expect("\(ConflictPolicy.update)" == "update")
        #expect("\(TransactionKind.immediate)" == "immediate")
    }
}
