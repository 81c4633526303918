import CSQLiteSwiftly
import RawC
import SQLiteSwiftly

// Changesets (issue #30): recording a session while inserting, and inverting and applying a changeset, through
// SQLite's session extension called from C (Sources/RawC/rawc_session.c) and through SQLiteSwiftly.
//
// - "insert mixed row, recording a changeset": the mixed-row insert of N rows in one transaction, without a
//   session (raw C, the baseline, and SQLiteSwiftly's InsertStatement) and with one recording every table and
//   producing the changeset at the end (raw C: sqlite3session_create, attach, the same inserts,
//   sqlite3session_changeset; SQLiteSwiftly: recordingChangeset around the same InsertStatement inserts).
// - "invert and apply a changeset": a changeset of N deleted mixed rows, recorded untimed on another database;
//   timed: inverting it (N inserts) and applying the inverse to an empty table, aborting at any conflict
//   (raw C: sqlite3changeset_invert and sqlite3changeset_apply_v2; SQLiteSwiftly: inverted() and apply).

enum ChangesetBench {
    static let workloads: [Workload] = [
        Workload(
            name: "insert mixed row, recording a changeset",
            implementations: [Raw.insertMixed, rawRecorded, Ours.insertMixed, oursRecorded]),
        Workload(name: "invert and apply a changeset", implementations: [rawInvertApply, oursInvertApply]),
    ]

    static let rawRecorded = Implementation(name: "raw C, recording") { location, rows in
        let db = try Raw.prepared(location, schema: Dataset.mixedSchema)
        let values = RawMixedRows(count: rows)
        return {
            var changeset: UnsafeMutableRawPointer?
            var size: Int32 = 0
            try values.rows.withUnsafeBufferPointer { buffer in
                try RawConnection.check(
                    rawc_insert_mixed_recorded(db.handle, buffer.baseAddress, Int32(buffer.count), &changeset, &size),
                    "rawc_insert_mixed_recorded")
            }
            rawc_free_changeset(changeset)
            return size > 0 ? Int64(values.rows.count) : -1
        }
    }

    static let oursRecorded = Implementation(name: "SQLiteSwiftly, recording") { location, rows in
        let db = try Ours.prepared(location, schema: Dataset.mixedSchema)
        let models = (0..<rows).map(OursMixed.init(index:))
        let insert = try db.makeInsertStatement(for: OursMixed.self)
        return {
            // recordingChangeset runs its body in a transaction.
            let (_, changeset) = try db.recordingChangeset {
                for model in models { try insert.insert(model) }
            }
            return changeset.isEmpty ? -1 : Int64(models.count)
        }
    }

    /// The SQL that deletes the mixed rows: recorded, it is a changeset whose inverse inserts them.
    private static let deleteAll = "DELETE FROM mixed"

    static let rawInvertApply = Implementation(name: "raw C") { location, rows in
        let source = try Raw.prepared(
            Location(store: .memory, path: ":memory:"), schema: Dataset.mixedSchema, fill: Dataset.fillMixed(rows))
        var changeset: UnsafeMutableRawPointer?
        var size: Int32 = 0
        try RawConnection.check(rawc_record(source.handle, deleteAll, &changeset, &size), "rawc_record")
        let db = try Raw.prepared(location, schema: Dataset.mixedSchema)
        return {
            defer { rawc_free_changeset(changeset) }
            try RawConnection.check(rawc_invert_apply(db.handle, changeset, size), "rawc_invert_apply")
            return try count(db)
        }
    }

    static let oursInvertApply = Implementation(name: "SQLiteSwiftly") { location, rows in
        let source = try Ours.prepared(
            Location(store: .memory, path: ":memory:"), schema: Dataset.mixedSchema, fill: Dataset.fillMixed(rows))
        let (_, changeset) = try source.recordingChangeset { try source.execute(SQL(verbatim: deleteAll)) }
        let db = try Ours.prepared(location, schema: Dataset.mixedSchema)
        return {
            try db.apply(changeset.inverted())
            return Int64(try db.fetchValue(Int.self, "SELECT count(*) FROM mixed") ?? -1)
        }
    }

    /// The number of rows of `mixed`, through the C API.
    private static func count(_ db: RawConnection) throws -> Int64 {
        var statement: OpaquePointer?
        try RawConnection.check(
            sqlite3_prepare_v2(db.handle, "SELECT count(*) FROM mixed", -1, &statement, nil), "count")
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw BenchError("count failed") }
        return sqlite3_column_int64(statement, 0)
    }
}
