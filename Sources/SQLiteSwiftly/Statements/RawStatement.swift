import CSQLiteSwiftly

/// The owner of one `sqlite3_stmt*`: finalized in `deinit`, never exposed.
///
/// Public statement types (``Statement``, ``InsertStatement``, ...) wrap a raw statement together with a strong
/// reference to their ``Connection``. The connection's statement cache holds raw statements alone, so that the
/// cache does not keep its own connection alive.
///
/// A run always follows the same state machine: ``begin()`` resets a statement left mid-way, binding follows,
/// then ``step()`` until it reports the end, which resets the statement again. A failed step or bind resets the
/// statement and clears its bindings, so that the next run starts clean.
@usableFromInline
final class RawStatement {
    // The run-state properties below are read and written on every step; they are never accessed
    // overlappingly (a statement belongs to one connection owner), so the dynamic exclusivity checks that a
    // class's stored `var` gets by default (swift_beginAccess, about 30 instructions each) are turned off.
    @usableFromInline let handle: OpaquePointer
    @usableFromInline let sql: String
    @usableFromInline let parameterCount: Int32
    @usableFromInline let columnCount: Int32
    /// Whether the statement has stepped without reaching its end, and needs a reset before it runs again.
    @usableFromInline @exclusivity(unchecked) var isMidway = false
    /// Bumped at each run, so a cursor notices that its statement was restarted under it.
    @usableFromInline @exclusivity(unchecked) var generation = 0
    /// The row type last verified against the result columns, with the re-prepare count at that time.
    @usableFromInline @exclusivity(unchecked) var verifiedRowType: ObjectIdentifier?
    @usableFromInline @exclusivity(unchecked) var verifiedAtReprepare: Int32 = -1
    /// For a model query, the re-prepare count at which the model was last verified against the schema.
    @usableFromInline @exclusivity(unchecked) var schemaVerifiedAt: Int32 = -1
    /// The statement cache's clock at the statement's last use, for least-recently-used eviction.
    @exclusivity(unchecked) var lastUse = 0

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
        parameterCount = sqlite3_bind_parameter_count(handle)
        columnCount = sqlite3_column_count(handle)
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// How many times SQLite re-prepared the statement, which it does after any schema change.
    @inlinable var reprepareCount: Int32 {
        sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
    }

    /// Starts a run: resets a statement left mid-way and invalidates cursors of earlier runs.
    @inlinable func begin() {
        if isMidway {
            sqlite3_reset(handle)
            isMidway = false
        }
        generation &+= 1
    }

    /// Steps once. Returns `true` for a row; at the end, resets and returns `false`.
    @inlinable func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW {
            isMidway = true
            return true
        }
        if code == SQLITE_DONE {
            sqlite3_reset(handle)
            isMidway = false
            return false
        }
        throw failure(code)
    }

    /// Turns a failed step or bind into an error, and leaves the statement reset with no bindings.
    @usableFromInline func failure(_ code: Int32) -> SQLiteError {
        let error = SQLiteCalls.error(code, statement: handle)
        abandon()
        return error
    }

    /// Resets the statement and clears its bindings, after a failure or an abandoned run.
    @usableFromInline func abandon() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        isMidway = false
    }

    /// The current row, numbered for error messages.
    @inlinable func row(number: Int) -> Row {
        Row(statement: handle, columnCount: sqlite3_column_count(handle), number: number)
    }

    /// The result column names, as SQLite reports them now.
    var columnNames: [String] {
        (0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) }
    }

    /// The parameter names, `nil` for anonymous `?` parameters; index 0 is parameter 1.
    var parameterNames: [String?] {
        (0..<parameterCount).map { index in sqlite3_bind_parameter_name(handle, index + 1).map { String(cString: $0) } }
    }

    /// Whether the statement only reads (a SELECT, most PRAGMAs).
    var isReadOnly: Bool {
        sqlite3_stmt_readonly(handle) != 0
    }
}

// MARK: - Verifying rows and binding arguments

extension RawStatement {
    /// Checks the result columns against `Decoded`'s expected names, once per row type and per re-prepare.
    @inlinable func verify<Decoded: RowDecodable>(_ type: Decoded.Type) throws(SQLiteError) {
        let reprepares = reprepareCount
        if verifiedRowType == ObjectIdentifier(type) && verifiedAtReprepare == reprepares { return }
        try verifyColumns(expected: Decoded.expectedColumnNames, typeName: "\(type)")
        verifiedRowType = ObjectIdentifier(type)
        verifiedAtReprepare = reprepares
    }

    @usableFromInline func verifyColumns(expected: [String]?, typeName: String) throws(SQLiteError) {
        guard let expected else { return }
        let actual = columnNames
        func mismatch(_ message: String) -> SQLiteError {
            SQLiteError(.modelMismatch, message: "\(typeName) " + message, sql: sql)
        }
        guard actual.count == expected.count else {
            throw mismatch(
                "expects \(expected.count) columns (\(expected.joined(separator: ", "))) but the statement returns "
                    + "\(actual.count) (\(actual.joined(separator: ", ")))")
        }
        for (index, (want, got)) in zip(expected, actual).enumerated()
        where want.sqlIdentifierKey != got.sqlIdentifierKey {
            var error = mismatch("expects column \(index) to be \"\(want)\" but the statement returns \"\(got)\"")
            error.column = want
            throw error
        }
    }

    /// Binds arguments after checking them against the parameters: count, and names for named arguments.
    @usableFromInline func bind(_ arguments: StatementArguments) throws(SQLiteError) {
        do throws(SQLiteError) {
            switch arguments.storage {
            case .positional(let values):
                guard values.count == Int(parameterCount) else { throw countMismatch(arguments: values.count) }
                for (offset, argument) in values.enumerated() {
                    try bind(argument, at: Int32(offset + 1))
                }
            case .named(let values):
                try bindNamed(values)
            }
        } catch {
            abandon()
            throw error
        }
    }

    /// Binds one value per parameter, in order, after checking the count; for the typed argument lists of
    /// ``Statement/fetchOne(_:binding:)`` and friends. The values are bound in place: no argument array is built.
    @inlinable func bind<each Value: SQLiteValueConvertible>(_ values: repeat each Value) throws(SQLiteError) {
        var count: Int32 = 0
        for _ in repeat (each Value).self { count += 1 }
        guard count == parameterCount else { throw countMismatch(arguments: Int(count)) }
        var index: Int32 = 0
        do throws(SQLiteError) {
            for value in repeat each values {
                index += 1
                try ParameterSlot(statement: handle, index: index).bindValue(value)
            }
        } catch {
            abandon()
            throw error.with(sql: sql)
        }
    }

    @usableFromInline func countMismatch(arguments: Int) -> SQLiteError {
        let message = "the SQL has \(parameterCount) parameters but \(arguments) arguments were given"
        return SQLiteError(.parameterMismatch, message: message, sql: sql)
    }

    private func bindNamed(_ values: [String: StatementArguments.Argument]) throws(SQLiteError) {
        var used = Set<String>()
        for (offset, name) in parameterNames.enumerated() {
            let index = Int32(offset + 1)
            guard let name, let prefix = name.first, prefix != "?" else {
                var error = SQLiteError(
                    .parameterMismatch, message: "parameter \(index) is positional but the arguments are named",
                    sql: sql)
                error.parameter = name ?? "?\(index)"
                throw error
            }
            let bare = String(name.dropFirst())
            let key = values[name] != nil ? name : bare
            guard let argument = values[key] else {
                var error = SQLiteError(.parameterMismatch, message: "no argument for parameter \(name)", sql: sql)
                error.parameter = name
                throw error
            }
            used.insert(key)
            try bind(argument, at: index)
        }
        if let extra = values.keys.filter({ !used.contains($0) }).sorted().first {
            var error = SQLiteError(
                .parameterMismatch, message: "argument \"\(extra)\" matches no parameter of the SQL", sql: sql)
            error.parameter = extra
            throw error
        }
    }

    private func bind(_ argument: StatementArguments.Argument, at index: Int32) throws(SQLiteError) {
        let slot = ParameterSlot(statement: handle, index: index)
        switch argument {
        case .value(let value):
            try slot.bind(value)
        case .list:
            var error = SQLiteError(
                .parameterMismatch,
                message: "a ValueList needs its placeholder expanded; pass it to a Connection method, not to a "
                    + "prepared statement", sql: sql)
            error.parameter = slot.parameterName
            throw error
        case .invalid(let error):
            throw error.with(sql: sql, parameter: slot.parameterName)
        }
    }
}
