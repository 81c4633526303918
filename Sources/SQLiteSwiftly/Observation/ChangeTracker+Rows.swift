import CSQLiteSwiftly

/// What a statement run read, kept on the statement: the rowids of the tables it read only by rowid, for its
/// expanded SQL at a re-prepare count (the same values give the same answer until the schema changes).
struct ReadRowsMemo {
    var reprepares: Int32
    var expandedSQL: String
    var rows: [String: Set<Int64>]
}

extension ChangeTracker {
    /// Adds to a statement's region what its program says: whether it may read rows by rowid, and which written
    /// tables may change rows the update hook does not report (all of them when the program is not analyzed).
    func analyzeProgram(of sql: String, into region: inout StatementRegion, analyzingProgram: Bool) {
        guard !region.writes.isEmpty || !region.reads.isEmpty else {
            // A statement the authorizer saw nothing in may be a VACUUM.
            if !region.changesSchema, explain(sql)?.contains(where: { $0.opcode == "Vacuum" }) == true {
                region.changesSchema = true
                region.commitsWithoutHook = true
            }
            return
        }
        let written = Set(region.writes.keys)
        guard analyzingProgram, let program = explain(sql) else {
            region.unreportedRows = written
            return
        }
        if written.isEmpty {
            region.mayNarrowReads = ProgramAnalysis.mayNarrow(program)
        } else {
            let schema = ProgramAnalysis.schemaCookie(of: program).flatMap { schemaObjects(cookie: $0) }
            region.unreportedRows = ProgramAnalysis.tablesWithUnreportedRows(program, written: written, schema: schema)
        }
    }

    /// `reads`, with the tables that the run of `raw` now stepping read only by rowid narrowed to those rowids.
    ///
    /// The bound values cannot be read back from a statement, but SQLite writes them into its expanded SQL as
    /// literals (integers, text, blobs and `NULL` exactly; reals, which might not, make the analysis give up): the
    /// program of the expanded SQL reads what the run read. See "Row-level regions" in DESIGN.md.
    func narrowedReads(of raw: RawStatement, _ reads: ObservedRegion) -> ObservedRegion {
        guard let text = sqlite3_expanded_sql(raw.handle) else { return reads }
        let expanded = String(cString: text)
        sqlite3_free(text)
        let reprepares = raw.reprepareCount
        let rows: [String: Set<Int64>]
        if let memo = raw.readRows, memo.reprepares == reprepares, memo.expandedSQL == expanded {
            rows = memo.rows
        } else {
            rows = rowsRead(byStatement: expanded)
            raw.readRows = ReadRowsMemo(reprepares: reprepares, expandedSQL: expanded, rows: rows)
        }
        var region = reads
        for (table, ids) in rows where region.tables.contains(table) { region.rows[table] = ids }
        return region
    }

    /// The tables `sql` (every value a literal) reads only by rowid, with the rowids.
    func rowsRead(byStatement sql: String) -> [String: Set<Int64>] {
        guard let program = explain(sql), let cookie = ProgramAnalysis.schemaCookie(of: program),
            let schema = schemaObjects(cookie: cookie)
        else { return [:] }
        return ProgramAnalysis.rowsRead(by: program, schema: schema)
    }

    /// The program of `sql`, from `EXPLAIN`; `nil` when it does not compile.
    ///
    /// The authorizer is not collecting, so this records nothing; the statement is finalized before returning.
    func explain(_ sql: String) -> [ProgramAnalysis.Instruction]? {
        var program: [ProgramAnalysis.Instruction] = []
        let listed = query("EXPLAIN " + sql) { statement in
            let p4 = sqlite3_column_text(statement, 5).map { String(cString: $0) } ?? ""
            let opcode = sqlite3_column_text(statement, 1).map { String(cString: $0) } ?? ""
            program.append(
                ProgramAnalysis.Instruction(
                    sqlite3_column_int(statement, 0), opcode, sqlite3_column_int(statement, 2),
                    sqlite3_column_int(statement, 3), sqlite3_column_int(statement, 4), p4,
                    sqlite3_column_int(statement, 6)))
        }
        return listed ? program : nil
    }

    /// The main database's b-trees by root page at schema cookie `cookie`, read from `sqlite_schema` when the
    /// cookie moved; `nil` when the schema is not at that cookie any more.
    func schemaObjects(cookie: Int32) -> [Int32: ProgramAnalysis.SchemaObject]? {
        if let cached = schemaObjects, cached.cookie == cookie { return cached.objects }
        var objects: [Int32: ProgramAnalysis.SchemaObject] = [:]
        var version: Int32?
        // One statement, so that the version is the one of the rows read.
        let read = query(
            "SELECT type, tbl_name, rootpage FROM main.sqlite_schema WHERE rootpage > 0 "
                + "UNION ALL SELECT 'cookie', '', schema_version FROM pragma_schema_version"
        ) { statement in
            let type = sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? ""
            let root = sqlite3_column_int(statement, 2)
            if type == "cookie" {
                version = root
            } else if let table = sqlite3_column_text(statement, 1).map({ String(cString: $0) }) {
                objects[root] = ProgramAnalysis.SchemaObject(table: table.sqlIdentifierKey, isTable: type == "table")
            }
        }
        guard read, version == cookie else { return nil }
        schemaObjects = (cookie, objects)
        return objects
    }
}
