/// What a compiled statement can read and write, worked out from its bytecode as `EXPLAIN` lists it.
///
/// Both analyses are conservative by construction: an instruction they do not know, a register whose value they
/// cannot bound, a cursor they cannot place, all make the answer wider (a table read whole, a table whose changed
/// rows are unknown), never narrower. See "Row-level regions" in DESIGN.md, and
/// <https://www.sqlite.org/opcode.html> for the instructions.
enum ProgramAnalysis {
    /// One instruction: a row of `EXPLAIN`.
    struct Instruction: Sendable, Equatable {
        var address: Int32
        var opcode: String
        var p1: Int32
        var p2: Int32
        var p3: Int32
        var p4: String
        var p5: Int32

        init(_ address: Int32, _ opcode: String, _ p1: Int32, _ p2: Int32, _ p3: Int32, _ p4: String, _ p5: Int32) {
            self.address = address
            self.opcode = opcode
            self.p1 = p1
            self.p2 = p2
            self.p3 = p3
            self.p4 = p4
            self.p5 = p5
        }
    }

    /// A b-tree of the main database, from `sqlite_schema`: a table's or an index's.
    struct SchemaObject: Sendable, Equatable {
        /// The key (`sqlIdentifierKey`) of the table, or of the index's table.
        var table: String
        var isTable: Bool
    }

    /// The schema cookie the program was compiled against (the `Transaction` of the main database), if it reads or
    /// writes the main database.
    static func schemaCookie(of program: [Instruction]) -> Int32? {
        program.first { $0.opcode == "Transaction" && $0.p1 == 0 }?.p3
    }

    /// Whether the program may read a table only at rowids: it seeks a cursor by rowid. Checked once per prepared
    /// statement, so that statements that cannot narrow cost nothing more at each run.
    static func mayNarrow(_ program: [Instruction]) -> Bool {
        program.contains { $0.opcode == "SeekRowid" || $0.opcode == "NotExists" }
    }

    // MARK: - Reads

    /// The tables the program reads only at some rowids, with those rowids; the tables it reads otherwise are
    /// absent (read whole). Empty when anything in the program is beyond the analysis.
    ///
    /// - Parameters:
    ///   - program: The program of a statement whose values are all literals (the expanded SQL of a run).
    ///   - schema: The main database's b-trees by root page, at the program's schema cookie.
    static func rowsRead(by program: [Instruction], schema: [Int32: SchemaObject]) -> [String: Set<Int64>] {
        var reads = ReadAnalysis()
        var previous: Int32 = -1
        for instruction in program {
            // A later address not above the previous one starts a trigger's sub-program, with its own registers.
            guard instruction.address > previous, reads.apply(instruction, schema: schema) else { return [:] }
            previous = instruction.address
        }
        return reads.narrowedTables()
    }

    // MARK: - Writes

    /// The keys of the tables among `written` whose changed rows SQLite's update hook may not all report when the
    /// program runs.
    ///
    /// The hook reports an `OP_Delete` only when its P2 has `OPFLAG_NCHANGE` (0x01), and one with `OPFLAG_ISNOOP`
    /// (0x40) deletes nothing; an `OP_Insert` into a table names the table in P4. So the rows are unknown after a
    /// delete without either flag (a `REPLACE` conflict, the old rowid of an `UPDATE` that changes it), an insert
    /// without `OPFLAG_NCHANGE` or without a table, a `Clear` (a truncation), and for every written table after a
    /// sub-program (triggers, foreign-key actions), a virtual table's update, or a write to another database.
    static func tablesWithUnreportedRows(
        _ program: [Instruction], written: Set<String>, schema: [Int32: SchemaObject]?
    ) -> Set<String> {
        var unreported: Set<String> = []
        var transient: Set<Int32> = []  // ephemeral, sorter and pseudo cursors of the current (sub-)program
        var tables: [Int32: Int32] = [:]  // cursor to root page, for writes that do not name their table
        var previous: Int32 = -1
        /// The key of the table a write names, or of its cursor's b-tree; `nil` when unknown.
        func table(named name: String, cursor: Int32) -> String? {
            if !name.isEmpty { return name.sqlIdentifierKey }
            guard let root = tables[cursor], let object = schema?[root] else { return nil }
            return object.table
        }
        for instruction in program {
            if instruction.address <= previous {
                transient = []
                tables = [:]
            }
            previous = instruction.address
            switch instruction.opcode {
            case "OpenEphemeral", "OpenAutoindex", "SorterOpen", "OpenPseudo", "OpenDup":
                transient.insert(instruction.p1)
            case "OpenWrite":
                guard instruction.p3 == 0, instruction.p5 & 0x02 == 0 else { return written }
                tables[instruction.p1] = instruction.p2
            case "Delete" where instruction.p2 & 0x41 == 0 && !transient.contains(instruction.p1),
                "Insert"
            where (instruction.p5 & 0x01 == 0 || instruction.p4.isEmpty)
                && !transient.contains(instruction.p1):
                guard let key = table(named: instruction.p4, cursor: instruction.p1) else { return written }
                if !key.hasPrefix("sqlite_") { unreported.insert(key) }
            case "Clear":
                if !instruction.p4.isEmpty {
                    unreported.insert(instruction.p4.sqlIdentifierKey)
                } else if let object = schema?[instruction.p1] {
                    if object.isTable { unreported.insert(object.table) }
                } else {
                    return written
                }
            case "Program", "VUpdate":
                return written
            default:
                break
            }
        }
        return unreported.intersection(written)
    }
}
