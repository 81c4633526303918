/// The state of ``ProgramAnalysis/rowsRead(by:schema:)``: the program's cursors, the instructions that write each
/// register, and the registers each table cursor is sought by.
///
/// Register values are followed flow-insensitively: a register may hold any value that any instruction writing it
/// writes. A key register narrows its table only when every writer of it is an integer literal, a `NULL`, a copy
/// of such a register, or a column of an ephemeral table whose every row was made of such registers (how
/// `id IN (1, 2, 3)` compiles).
struct ReadAnalysis {
    private enum Cursor: Equatable {
        /// A rowid table of the main database, by key.
        case table(String)
        /// An index or a `WITHOUT ROWID` table of the main database: its table is read whole.
        case whole(String)
        /// An ephemeral table or a sorter, filled by the program itself.
        case transient
        /// A pseudo-table over a register.
        case pseudo

        /// The table of a table cursor, read by rowid or whole.
        var tableKey: String? {
            switch self {
            case .table(let table), .whole(let table): table
            case .transient, .pseudo: nil
            }
        }
    }

    /// Where the value an instruction writes to a register comes from.
    private enum Source {
        case integer(Int64)
        case null
        case unknown
        case register(Int32)
        /// Column `column` of the rows inserted into an ephemeral table.
        case ephemeralColumn(cursor: Int32, column: Int32)
        /// A record of `count` registers from `start` (`MakeRecord`).
        case record(start: Int32, count: Int32)
    }

    private var cursors: [Int32: Cursor] = [:]
    private var writers: [Int32: [Source]] = [:]
    /// The record registers inserted into each ephemeral table; the tables filled otherwise.
    private var insertedRecords: [Int32: [Int32]] = [:]
    private var opaqueTransients: Set<Int32> = []
    /// The key registers of each table cursor's rowid seeks; the tables read otherwise.
    private var seeks: [String: [Int32]] = [:]
    private var readWhole: Set<String> = []

    /// Takes one instruction into account; `false` when the analysis cannot go on (an unknown instruction, a cursor
    /// it cannot place, a value that may not be exact).
    mutating func apply(_ instruction: ProgramAnalysis.Instruction, schema: [Int32: ProgramAnalysis.SchemaObject])
        -> Bool
    {
        let (p1, p2, p3) = (instruction.p1, instruction.p2, instruction.p3)
        switch instruction.opcode {
        case "Init", "Goto", "Halt", "Transaction", "ResultRow", "Once", "IsNull", "NotNull", "If", "IfNot", "Eq",
            "Ne", "Lt", "Le", "Gt", "Ge", "ElseEq", "Jump", "Compare", "Permutation", "Noop", "Explain", "Return",
            "Filter", "HaltIfNull", "TableLock", "ReleaseReg", "MustBeInt", "Affinity", "SeekScan":
            // No register written, or one converted in place: an integer stays the same integer (a rowid seek
            // converts text and reals back), so the values of a key register stay bounded.
            return true
        case "Integer": write(p2, .integer(Int64(p1)))
        case "Int64":
            guard let value = Int64(instruction.p4) else { return false }
            write(p2, .integer(value))
        case "Null", "BeginSubrtn":
            for register in p2...max(p2, p3) { write(register, .null) }
        case "SoftNull": write(p1, .null)
        case "String8", "String", "Blob": write(p2, .unknown)
        case "Copy":
            for offset in 0...max(0, p3) { write(p2 + offset, .register(p1 + offset)) }
        case "SCopy", "IntCopy": write(p2, .register(p1))
        case "Move":
            for offset in 0..<max(1, p3) {
                write(p2 + offset, .register(p1 + offset))
                write(p1 + offset, .null)
            }
        case "MakeRecord": write(p3, .record(start: p1, count: p2))
        case "Function", "PureFunc", "AggStep", "Add", "Subtract", "Multiply", "Divide", "Remainder", "Concat",
            "BitAnd", "BitOr", "ShiftLeft", "ShiftRight", "And", "Or":
            write(p3, .unknown)
        case "Not", "BitNot", "IsTrue", "ZeroOrNull", "OffsetLimit":
            write(p2, .unknown)
        case "AggFinal", "AddImm", "Cast", "RealAffinity", "IfPos", "DecrJumpZero", "IfNotZero", "Gosub",
            "InitCoroutine", "Yield", "EndCoroutine", "FilterAdd":
            // Written in place, or left undefined; a real may not convert back to the same integer.
            write(p1, .unknown)
        case "CollSeq":
            if p1 != 0 { write(p1, .unknown) }
        default:
            return applyCursorInstruction(instruction, schema: schema)
        }
        return true
    }

    /// The instructions that name a cursor in P1.
    private mutating func applyCursorInstruction(
        _ instruction: ProgramAnalysis.Instruction, schema: [Int32: ProgramAnalysis.SchemaObject]
    ) -> Bool {
        let (cursor, p2, p3) = (instruction.p1, instruction.p2, instruction.p3)
        switch instruction.opcode {
        case "OpenRead", "ReopenIdx":
            // Another database, or a root page in a register: beyond the analysis.
            guard p3 == 0, instruction.p5 & 0x02 == 0, let object = schema[p2] else { return false }
            // A rowid table's cursor has a column count in P4; an index or a WITHOUT ROWID table's a KeyInfo.
            let isRowidTable = object.isTable && !instruction.p4.hasPrefix("k(")
            return open(cursor, as: isRowidTable ? .table(object.table) : .whole(object.table))
        case "OpenEphemeral", "OpenAutoindex", "SorterOpen":
            return open(cursor, as: .transient)
        case "OpenPseudo":
            return open(cursor, as: .pseudo)
        default:
            break
        }
        guard let kind = cursors[cursor] else { return false }
        switch (instruction.opcode, kind) {
        case ("SeekRowid", .table(let table)), ("NotExists", .table(let table)):
            seeks[table, default: []].append(p3)
        case ("Column", .transient):
            write(p3, opaqueTransients.contains(cursor) ? .unknown : .ephemeralColumn(cursor: cursor, column: p2))
        case ("Column", _), ("Offset", _):
            write(p3, .unknown)
        case ("IfNullRow", _):
            write(p3, .null)
        case ("Rowid", _), ("IdxRowid", _), ("Sequence", _), ("SorterData", _), ("RowData", _), ("Count", _):
            write(p2, .unknown)
            if case .table(let table) = kind, instruction.opcode != "Rowid" { readWhole.insert(table) }
        case ("NullRow", _), ("Close", _), ("ColumnsUsed", _):
            break
        case ("IdxInsert", .transient):
            insertedRecords[cursor, default: []].append(p2)
        case ("Insert", .transient), ("SorterInsert", .transient), ("NewRowid", .transient):
            opaqueTransients.insert(cursor)
            if instruction.opcode == "NewRowid" {
                write(p2, .unknown)
                if p3 > 0 { write(p3, .unknown) }
            }
        case ("Delete", .transient), ("ResetSorter", .transient):
            break
        case ("DeferredSeek", _):
            // P3 is the table cursor, moved to the rowid an index cursor points at.
            guard let table = cursors[p3] else { return false }
            for key in [kind.tableKey, table.tableKey].compactMap(\.self) { readWhole.insert(key) }
        case ("Rewind", _), ("Next", _), ("Prev", _), ("Last", _), ("SeekGE", _), ("SeekGT", _), ("SeekLE", _),
            ("SeekLT", _), ("SeekEnd", _), ("SeekHit", _), ("Sort", _), ("SorterSort", _), ("SorterNext", _),
            ("NotFound", _), ("Found", _), ("NoConflict", _), ("IfNoHope", _), ("IdxGT", _), ("IdxGE", _),
            ("IdxLT", _), ("IdxLE", _), ("SequenceTest", _), ("SorterCompare", _), ("FinishSeek", _):
            if let table = kind.tableKey { readWhole.insert(table) }
        default:
            return false
        }
        return true
    }

    /// Records a cursor opened; `false` when the same cursor number opens different things.
    private mutating func open(_ cursor: Int32, as kind: Cursor) -> Bool {
        if let known = cursors[cursor], known != kind { return false }
        cursors[cursor] = kind
        if case .whole(let table) = kind { readWhole.insert(table) }
        return true
    }

    private mutating func write(_ register: Int32, _ source: Source) {
        writers[register, default: []].append(source)
    }

    /// The tables read only by rowid seeks whose keys are bounded, with the rowids.
    func narrowedTables() -> [String: Set<Int64>] {
        var values = Values(analysis: self)
        var narrowed: [String: Set<Int64>] = [:]
        tables: for (table, registers) in seeks where !readWhole.contains(table) {
            var rows: Set<Int64> = []
            for register in registers {
                guard let keys = values.integers(in: register) else { continue tables }
                rows.formUnion(keys)
            }
            narrowed[table] = rows
        }
        return narrowed
    }

    /// The integers registers may hold, worked out on demand.
    private struct Values {
        let analysis: ReadAnalysis
        /// The answers so far; `nil` inside while one is being worked out (a cycle is unknown).
        var known: [Int32: Set<Int64>?] = [:]

        /// The integers `register` may hold (a `NULL` adds none); `nil` when unbounded.
        mutating func integers(in register: Int32) -> Set<Int64>? {
            if let answer = known[register] { return answer }
            known[register] = .some(nil)
            var result: Set<Int64>? = []
            for source in analysis.writers[register] ?? [] {
                guard let values = integers(from: source) else {
                    result = nil
                    break
                }
                result?.formUnion(values)
            }
            known[register] = result
            return result
        }

        private mutating func integers(from source: Source) -> Set<Int64>? {
            switch source {
            case .integer(let value): return [value]
            case .null: return []
            case .unknown, .record: return nil
            case .register(let register): return integers(in: register)
            case .ephemeralColumn(let cursor, let column):
                var result: Set<Int64> = []
                for record in analysis.insertedRecords[cursor] ?? [] {
                    for writer in analysis.writers[record] ?? [] {
                        guard case .record(let start, let count) = writer, column < count,
                            let values = integers(in: start + column)
                        else { return nil }
                        result.formUnion(values)
                    }
                }
                return result
            }
        }
    }
}
