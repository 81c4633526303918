import CSQLiteSwiftly

/// Another tokenizer of the connection, created for a ``TextTokenizer`` that wraps it (through
/// ``TokenizerContext/tokenizer(_:)``), such as one that adds synonyms to the words of `unicode61`.
///
/// ```swift
/// try base.tokenize(text, for: reason) { token, range, colocated in
///     try tokens.add(token, at: range, colocated: colocated)
/// }
/// ```
///
/// It is freed with the tokenizer that keeps it. It is not `Sendable`: it belongs to its connection's index.
public final class WrappedTokenizer {
    private let methods: fts5_tokenizer
    private let instance: OpaquePointer

    init(_ description: FullTextTokenizer, api: UnsafeMutablePointer<fts5_api>) throws(SQLiteError) {
        if let problem = description.problem { throw SQLiteError(.misuse, message: problem) }
        var userData: UnsafeMutableRawPointer?
        var methods = fts5_tokenizer()
        guard let find = api.pointee.xFindTokenizer,
            find(api, description.name, &userData, &methods) == SQLITE_OK, let create = methods.xCreate
        else {
            var error = SQLiteError(
                .misuse, message: "no tokenizer is named \"\(description.name)\" on this connection")
            error.function = description.name
            throw error
        }
        var instance: OpaquePointer?
        let code = withCStrings(description.arguments) { arguments in
            create(userData, arguments.baseAddress, Int32(arguments.count), &instance)
        }
        guard code == SQLITE_OK, let instance else {
            var error = SQLiteError(
                .tokenizerFailed, code: ResultCode(rawValue: code),
                message: "the tokenizer \"\(description.name)\" refused the arguments \(description.arguments)")
            error.function = description.name
            throw error
        }
        self.methods = methods
        self.instance = instance
    }

    deinit {
        methods.xDelete?(instance)
    }

    /// Splits a text into tokens, calling `body` with each one.
    ///
    /// - Parameters:
    ///   - text: The text's UTF-8 bytes.
    ///   - reason: Why it is split, as the wrapping tokenizer was told.
    ///   - body: Receives each token's bytes (valid only during the call), the byte range of the text it stands
    ///     for, and whether it is colocated with the token before it. Throw to stop.
    /// - Throws: What `body` throws; ``SQLiteError`` when the tokenizer fails.
    public func tokenize(
        _ text: UnsafeBufferPointer<UInt8>, for reason: TokenizationReason,
        _ body: (UnsafeBufferPointer<UInt8>, Range<Int>, Bool) throws -> Void
    ) throws {
        guard let tokenize = methods.xTokenize else { return }
        guard text.count <= Int32.max else {
            throw SQLiteError(.sqlite, code: .tooBig, message: "a text of \(text.count) bytes is too long to tokenize")
        }
        try withoutActuallyEscaping(body) { body in
            var call = WrappedCall(body: body)
            let code = withUnsafeMutablePointer(to: &call) { call in
                text.withMemoryRebound(to: CChar.self) { bytes in
                    tokenize(instance, call, reason.flags, bytes.baseAddress, Int32(text.count), wrappedToken)
                }
            }
            if let error = call.error { throw error }
            guard code == SQLITE_OK else {
                throw SQLiteError(.sqlite, code: ResultCode(rawValue: code), message: "a wrapped tokenizer failed")
            }
        }
    }
}

@available(*, unavailable)
extension WrappedTokenizer: Sendable {}

/// One tokenization by a wrapped tokenizer: the closure that receives its tokens, and the error it threw.
private struct WrappedCall {
    let body: (UnsafeBufferPointer<UInt8>, Range<Int>, Bool) throws -> Void
    var error: (any Error)?
}

/// Receives a wrapped tokenizer's tokens and hands them to the closure; an error stops the tokenization.
private let wrappedToken: TokenCallback = { context, flags, token, count, start, end in
    guard let call = context?.assumingMemoryBound(to: WrappedCall.self), start >= 0, end >= start else {
        return SQLITE_ERROR
    }
    let bytes = UnsafeBufferPointer(
        start: UnsafeRawPointer(token)?.assumingMemoryBound(to: UInt8.self),
        count: token == nil ? 0 : Int(max(count, 0)))
    do {
        try call.pointee.body(bytes, Int(start)..<Int(end), flags & FTS5_TOKEN_COLOCATED != 0)
        return SQLITE_OK
    } catch {
        call.pointee.error = error
        return SQLITE_ERROR
    }
}

/// Lends `strings` as an array of C strings for the duration of `body`.
func withCStrings<Result>(_ strings: [String], _ body: (UnsafeMutableBufferPointer<UnsafePointer<CChar>?>) -> Result)
    -> Result
{
    var storage: [CChar] = []
    var offsets: [Int] = []
    for string in strings {
        offsets.append(storage.count)
        storage += string.utf8CString
    }
    return storage.withUnsafeBufferPointer { buffer in
        var pointers = offsets.map { offset in buffer.baseAddress.map { UnsafePointer($0 + offset) } }
        return pointers.withUnsafeMutableBufferPointer { body($0) }
    }
}
