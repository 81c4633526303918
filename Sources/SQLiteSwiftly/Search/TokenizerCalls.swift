import CSQLiteSwiftly

// How FTS5 calls a Swift tokenizer: the registration box, the per-index instance, and the C callbacks.
// See <https://www.sqlite.org/fts5.html#custom_tokenizers>.

/// A tokenizer added to one connection. FTS5 holds one retained reference, released through `releaseBox` when
/// the connection closes (FTS5 keeps every registration until then, even one replaced by a later one of the same
/// name).
final class TokenizerFactory {
    let name: String
    let errors: FunctionErrors
    /// The connection's interrupt handle, whose flag each call checks first.
    let interrupts: InterruptHandle
    /// The connection's FTS5 interface, valid while the connection is open, which is as long as FTS5 can call.
    let api: UnsafeMutablePointer<fts5_api>
    let make: ([String], borrowing TokenizerContext, TokenizerFactory) throws -> TokenizerInstance

    init<Tokenizer: TextTokenizer>(
        _ type: Tokenizer.Type, errors: FunctionErrors, interrupts: InterruptHandle, api: UnsafeMutablePointer<fts5_api>
    ) {
        name = Tokenizer.name
        self.errors = errors
        self.interrupts = interrupts
        self.api = api
        make = { arguments, context, factory in
            TypedTokenizerInstance(try Tokenizer(arguments: arguments, context: context), factory: factory)
        }
    }

    /// Records a tokenizer's failure for the statement that fails with it, as functions' failures are recorded.
    func fail(_ error: any Error, while doing: String) {
        var failure: SQLiteError
        if let error = error as? SQLiteError, error.kind == .tokenizerFailed {
            failure = SQLiteError(.tokenizerFailed, message: "the tokenizer \"\(name)\" is wrong: \(error.message)")
        } else {
            let description = (error as? SQLiteError)?.message ?? String(describing: error)
            failure = SQLiteError(
                .tokenizerFailed, message: "the tokenizer \"\(name)\" failed \(doing): \(description)")
        }
        failure.function = name
        errors.record(failure)
    }
}

/// The tokenizer of one index on one connection, created by FTS5 through `createTokenizer` and freed through
/// `deleteTokenizer`. The generic subclass calls the tokenizer type's method directly, specialized. It keeps its
/// factory, for the name and the error record, whatever the order in which SQLite frees them at close.
class TokenizerInstance {
    let factory: TokenizerFactory

    init(factory: TokenizerFactory) {
        self.factory = factory
    }

    func tokenize(_ text: UnsafeBufferPointer<UInt8>, for reason: TokenizationReason, into tokens: inout TokenSink)
        throws
    {}
}

final class TypedTokenizerInstance<Tokenizer: TextTokenizer>: TokenizerInstance {
    let tokenizer: Tokenizer

    init(_ tokenizer: Tokenizer, factory: TokenizerFactory) {
        self.tokenizer = tokenizer
        super.init(factory: factory)
    }

    override func tokenize(
        _ text: UnsafeBufferPointer<UInt8>, for reason: TokenizationReason, into tokens: inout TokenSink
    ) throws {
        try tokenizer.tokenize(text, for: reason, into: &tokens)
    }
}

// The C callbacks. Each finds its Swift object with `_withUnsafeGuaranteedRef` (no reference counting per call).

/// `xCreate`: creates the tokenizer of one index with the `tokenize` option's arguments.
let createTokenizer:
    @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?, Int32,
        UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32 = { factory, arguments, count, instance in
        guard let factory, let instance else { return SQLITE_MISUSE }
        return Unmanaged<TokenizerFactory>.fromOpaque(factory)._withUnsafeGuaranteedRef { factory in
            let strings = (0..<Int(max(count, 0))).map { arguments?[$0].map { String(cString: $0) } ?? "" }
            do {
                let made = try factory.make(strings, TokenizerContext(api: factory.api), factory)
                instance.pointee = OpaquePointer(Unmanaged.passRetained(made).toOpaque())
                return SQLITE_OK
            } catch {
                factory.fail(error, while: "to start with the arguments \(strings)")
                return SQLITE_ERROR
            }
        }
    }

/// `xDelete`: frees the tokenizer of one index.
let deleteTokenizer: @convention(c) (OpaquePointer?) -> Void = { instance in
    guard let instance else { return }
    Unmanaged<TokenizerInstance>.fromOpaque(UnsafeRawPointer(instance)).release()
}

/// `xTokenize`: splits one text, handing each token to FTS5's callback. Once the connection is interrupted, it
/// returns `SQLITE_INTERRUPT` without calling the tokenizer.
let tokenizeText:
    @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, TokenCallback?)
        -> Int32 = { instance, context, flags, text, count, callback in
            guard let instance, let callback else { return SQLITE_MISUSE }
            return Unmanaged<TokenizerInstance>.fromOpaque(UnsafeRawPointer(instance))._withUnsafeGuaranteedRef {
                instance in
                // Once the connection is interrupted, the statement calls no more Swift code, as for functions:
                // it fails with SQLITE_INTERRUPT, and a write is rolled back with its statement.
                if instance.factory.interrupts.isRaised { return SQLITE_INTERRUPT }
                let bytes = UnsafeBufferPointer(
                    start: UnsafeRawPointer(text)?.assumingMemoryBound(to: UInt8.self),
                    count: text == nil ? 0 : Int(max(count, 0)))
                var tokens = TokenSink(context: context, callback: callback, text: bytes)
                do {
                    try instance.tokenize(bytes, for: TokenizationReason(flags: flags), into: &tokens)
                } catch {
                    // SQLite asked to stop: its code is the answer, whatever the tokenizer threw after it.
                    guard tokens.status == SQLITE_OK else { return tokens.status }
                    instance.factory.fail(error, while: "on a text of \(bytes.count) bytes")
                    return SQLITE_ERROR
                }
                return tokens.status
            }
        }
