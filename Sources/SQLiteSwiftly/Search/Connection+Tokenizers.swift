import CSQLiteSwiftly

extension Connection {
    /// Adds a tokenizer written in Swift, under its ``TextTokenizer/name``, for the full-text indexes of this
    /// connection to use.
    ///
    /// Add it right after opening the connection, before any statement reads or writes an index that uses it: an
    /// index whose tokenizer is missing cannot be opened ("no such tokenizer"). A tokenizer added again under the
    /// same name replaces the earlier one for indexes opened afterwards; FTS5 keeps every registration, and what
    /// it holds, until the connection closes.
    ///
    /// - Parameter tokenizer: The tokenizer type.
    /// - Throws: ``SQLiteError/Kind/misuse`` for an empty name or one with a NUL character; an SQLite error when the
    ///   SQLite library has no FTS5.
    public func add<Tokenizer: TextTokenizer>(tokenizer: Tokenizer.Type) throws(SQLiteError) {
        try requireOpen()
        let name = Tokenizer.name
        guard !name.isEmpty, !name.contains("\0") else {
            var error = SQLiteError(.misuse, message: "a tokenizer name must be non-empty and have no NUL character")
            error.function = name
            throw error
        }
        let api = try fts5API()
        let factory = Unmanaged.passRetained(
            TokenizerFactory(tokenizer, errors: functionErrors, interrupts: interruptHandle, api: api))
        var methods = fts5_tokenizer(xCreate: createTokenizer, xDelete: deleteTokenizer, xTokenize: tokenizeText)
        let code = api.pointee.xCreateTokenizer?(api, name, factory.toOpaque(), &methods, releaseBox) ?? SQLITE_MISUSE
        guard code == SQLITE_OK else {
            factory.release()  // FTS5 does not call the destructor when the registration fails
            throw registrationError(code, name: name)
        }
    }

    /// The connection's FTS5 interface, through which tokenizers are added and found.
    ///
    /// See <https://www.sqlite.org/fts5.html#extending_fts5>: `SELECT fts5(?1)` with a pointer bound to `?1` under
    /// the type `fts5_api_ptr` writes the interface's address there.
    func fts5API() throws(SQLiteError) -> UnsafeMutablePointer<fts5_api> {
        var statement: OpaquePointer?
        let sql = "SELECT fts5(?1)"
        var code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard code == SQLITE_OK, let statement else { throw SQLiteError(code: code, db: handle, sql: sql) }
        var api: UnsafeMutablePointer<fts5_api>?
        code = withUnsafeMutablePointer(to: &api) { slot in
            // The type name must outlive the step: a static string does.
            let type = UnsafeRawPointer(("fts5_api_ptr" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
            let bound = sqlite3_bind_pointer(statement, 1, slot, type, nil)
            return bound == SQLITE_OK ? sqlite3_step(statement) : bound
        }
        guard code == SQLITE_ROW, let api else {
            throw SQLiteError(
                .sqlite, code: code == SQLITE_ROW ? .error : ResultCode(rawValue: code),
                message: "the SQLite library has no FTS5 interface", sql: sql)
        }
        return api
    }
}

extension SharedConnection {
    /// Adds a tokenizer written in Swift to the owned connection; see ``Connection/add(tokenizer:)``.
    ///
    /// - Parameter tokenizer: The tokenizer type.
    /// - Throws: As ``Connection/add(tokenizer:)``; `CancellationError`.
    public func add<Tokenizer: TextTokenizer>(tokenizer: Tokenizer.Type) async throws {
        try await withConnection { connection in try connection.add(tokenizer: tokenizer) }
    }
}

extension ConnectionPool {
    /// Adds a tokenizer written in Swift to every connection of the pool, the writer and each reader.
    ///
    /// - Parameter tokenizer: The tokenizer type.
    /// - Throws: As ``Connection/add(tokenizer:)``; `CancellationError`. A failure can leave the tokenizer on some
    ///   connections: add it again.
    public func add<Tokenizer: TextTokenizer>(tokenizer: Tokenizer.Type) async throws {
        for connection in connections { try await connection.add(tokenizer: tokenizer) }
    }
}
