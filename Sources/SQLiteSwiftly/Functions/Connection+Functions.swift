import CSQLiteSwiftly

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Connection {
    /// Adds a function, or replaces the function of the same name and argument count.
    ///
    /// Statements compiled before are compiled again on their next run, so they call the new function. The
    /// connection keeps the function, and what its closure captures, until it is replaced or removed or the
    /// connection closes.
    ///
    /// - Parameter function: The function.
    /// - Throws: ``SQLiteError/Kind/misuse`` for a name or argument count SQLite refuses (an empty name, more
    ///   than 255 bytes, more arguments than the connection's limit); an SQLite error with code
    ///   ``ResultCode/busy`` when a function is replaced while a statement runs.
    public func add(function: SQLFunction) throws(SQLiteError) {
        try requireOpen()
        let arity = try checkedArity(name: function.name, argumentCount: function.argumentCount)
        let box = Unmanaged.passRetained(FunctionBox(function, errors: functionErrors, interrupts: interruptHandle))
            .toOpaque()
        // SQLite calls releaseBox on failure too, so the box is never leaked.
        let code: Int32
        switch function.implementation {
        case .scalar:
            code = sqlite3_create_function_v2(
                handle, function.name, arity, function.flags, box, functionCall, nil, nil, releaseBox)
        case .aggregate(let calls):
            code = calls.register(on: handle, name: function.name, arity: arity, flags: function.flags, box: box)
        }
        guard code == SQLITE_OK else { throw registrationError(code, name: function.name) }
    }

    /// Removes the function with this name and argument count, if there is one.
    ///
    /// A removed function that replaced one of SQLite's own leaves the name without a function on this
    /// connection: SQLite does not bring its own back.
    ///
    /// - Parameters:
    ///   - name: The function's name.
    ///   - argumentCount: Its argument count, or `nil` for the function that takes any number.
    /// - Throws: ``SQLiteError/Kind/misuse`` for an invalid name or count; an SQLite error with code
    ///   ``ResultCode/busy`` while a statement runs.
    public func removeFunction(named name: String, argumentCount: Int?) throws(SQLiteError) {
        try requireOpen()
        let arity = try checkedArity(name: name, argumentCount: argumentCount)
        let code = sqlite3_create_function_v2(handle, name, arity, SQLITE_UTF8, nil, nil, nil, nil, nil)
        guard code == SQLITE_OK else { throw registrationError(code, name: name) }
    }

    /// Checks what SQLite would refuse with a bare `SQLITE_MISUSE`, to say what is wrong instead.
    private func checkedArity(name: String, argumentCount: Int?) throws(SQLiteError) -> Int32 {
        var problem: String?
        let limit = Int(sqlite3_limit(handle, SQLITE_LIMIT_FUNCTION_ARG, -1))
        if name.isEmpty || name.utf8.count > 255 || name.contains("\0") {
            problem = "a function name must have 1 to 255 bytes and no NUL character"
        } else if let count = argumentCount, count < 0 || count > limit {
            problem = "a function takes 0 to \(limit) arguments, not \(count)"
        }
        if let problem {
            var error = SQLiteError(.misuse, message: problem)
            error.function = name
            throw error
        }
        return Int32(argumentCount ?? -1)
    }

    func registrationError(_ code: Int32, name: String) -> SQLiteError {
        var error = SQLiteError(code: code, db: handle)
        error.function = name
        return error
    }
}

extension SharedConnection {
    /// Adds a function to the owned connection; see ``Connection/add(function:)``.
    ///
    /// - Parameter function: The function.
    /// - Throws: As ``Connection/add(function:)``; `CancellationError`.
    public func add(function: SQLFunction) async throws {
        try await withConnection { connection in try connection.add(function: function) }
    }

    /// Removes a function from the owned connection; see ``Connection/removeFunction(named:argumentCount:)``.
    ///
    /// - Parameters:
    ///   - name: The function's name.
    ///   - argumentCount: Its argument count, or `nil` for the function that takes any number.
    /// - Throws: As ``Connection/removeFunction(named:argumentCount:)``; `CancellationError`.
    public func removeFunction(named name: String, argumentCount: Int?) async throws {
        try await withConnection { connection in
            try connection.removeFunction(named: name, argumentCount: argumentCount)
        }
    }
}

extension ConnectionPool {
    /// Adds a function to every connection of the pool, the writer and each reader.
    ///
    /// - Parameter function: The function.
    /// - Throws: As ``Connection/add(function:)``; `CancellationError`. A failure can leave the function on
    ///   some connections: add it again, or remove it.
    public func add(function: SQLFunction) async throws {
        for connection in connections { try await connection.add(function: function) }
    }

    /// Removes a function from every connection of the pool.
    ///
    /// - Parameters:
    ///   - name: The function's name.
    ///   - argumentCount: Its argument count, or `nil` for the function that takes any number.
    /// - Throws: As ``Connection/removeFunction(named:argumentCount:)``; `CancellationError`.
    public func removeFunction(named name: String, argumentCount: Int?) async throws {
        for connection in connections { try await connection.removeFunction(named: name, argumentCount: argumentCount) }
    }
}
