import CSQLiteSwiftly

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// How SQLite calls a Swift function: results, aggregate storage, the C callbacks, registration.

/// Sets a function's result, calling the `sqlite3_result_*` function of the value's type.
@usableFromInline enum FunctionResult {
    /// As `ParameterSlot.bindValue` does for binding, the standard types are set directly; each type test folds
    /// away when the caller is specialized. Other types go through their ``SQLiteValueConvertible/sqliteValue``.
    @inlinable @inline(__always)
    static func set<Value: SQLiteValueConvertible>(_ value: Value, on context: OpaquePointer) throws(SQLiteError) {
        if Value.self == Int.self, let value = value as? Int { return sqlite3_result_int64(context, Int64(value)) }
        if Value.self == Int64.self, let value = value as? Int64 { return sqlite3_result_int64(context, value) }
        if Value.self == Int32.self, let value = value as? Int32 { return sqlite3_result_int64(context, Int64(value)) }
        if Value.self == Bool.self, let value = value as? Bool { return sqlite3_result_int64(context, value ? 1 : 0) }
        if Value.self == Double.self, let value = value as? Double { return try set(real: value, on: context) }
        if Value.self == String.self, let value = value as? String { return set(text: value, on: context) }
        if Value.self == [UInt8].self, let value = value as? [UInt8] {
            return value.withUnsafeBytes { set(blob: $0, on: context) }
        }
        if Value.self == Data.self, let value = value as? Data {
            return value.withUnsafeBytes { set(blob: $0, on: context) }
        }
        if Value.self == Int?.self, let value = value as? Int? { return try setOptional(value, on: context) }
        if Value.self == Double?.self, let value = value as? Double? { return try setOptional(value, on: context) }
        if Value.self == String?.self, let value = value as? String? { return try setOptional(value, on: context) }
        try set(value: try value.sqliteValue, on: context)
    }

    @inlinable @inline(__always)
    static func setOptional<Wrapped: SQLiteValueConvertible>(_ value: Wrapped?, on context: OpaquePointer)
        throws(SQLiteError)
    {
        if let value { try set(value, on: context) } else { sqlite3_result_null(context) }
    }

    @usableFromInline static func set(value: SQLiteValue, on context: OpaquePointer) throws(SQLiteError) {
        switch value {
        case .null: sqlite3_result_null(context)
        case .integer(let integer): sqlite3_result_int64(context, integer)
        case .real(let real): try set(real: real, on: context)
        case .text(let text): set(text: text, on: context)
        case .blob(let bytes): bytes.withUnsafeBytes { set(blob: $0, on: context) }
        }
    }

    @inlinable static func set(real: Double, on context: OpaquePointer) throws(SQLiteError) {
        guard !real.isNaN else { throw .conversion("the result is NaN, which SQLite would turn into NULL") }
        sqlite3_result_double(context, real)
    }

    @usableFromInline static func set(text: String, on context: OpaquePointer) {
        var text = text
        text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, !utf8.isEmpty else {
                // A NULL pointer would make the result NULL: empty text needs a real (empty) string.
                return sqlite3_result_text64(context, "", 0, RawStatement.transient, UInt8(SQLITE_UTF8))
            }
            base.withMemoryRebound(to: CChar.self, capacity: utf8.count) { chars in
                sqlite3_result_text64(
                    context, chars, sqlite3_uint64(utf8.count), RawStatement.transient, UInt8(SQLITE_UTF8))
            }
        }
    }

    @usableFromInline static func set(blob: UnsafeRawBufferPointer, on context: OpaquePointer) {
        guard let base = blob.baseAddress, !blob.isEmpty else { return sqlite3_result_zeroblob(context, 0) }
        sqlite3_result_blob64(context, base, sqlite3_uint64(blob.count), RawStatement.transient)
    }
}

/// The callbacks of an aggregate or window function; `value` and `inverse` only for window functions.
@usableFromInline struct AggregateCalls: Sendable {
    let step: SQLFunction.ScalarCall
    let final: @Sendable (OpaquePointer) throws -> Void
    let value: (@Sendable (OpaquePointer) throws -> Void)?
    let inverse: SQLFunction.ScalarCall?

    @usableFromInline init(
        step: @escaping SQLFunction.ScalarCall, final: @escaping @Sendable (OpaquePointer) throws -> Void,
        value: (@Sendable (OpaquePointer) throws -> Void)?, inverse: SQLFunction.ScalarCall?
    ) {
        self.step = step
        self.final = final
        self.value = value
        self.inverse = inverse
    }

    /// Registers the callbacks; SQLite releases `box` on failure too.
    func register(on handle: OpaquePointer, name: String, arity: Int32, flags: Int32, box: UnsafeMutableRawPointer)
        -> Int32
    {
        if value != nil {
            return sqlite3_create_window_function(
                handle, name, arity, flags, box, functionCall, aggregateFinal, aggregateValue, aggregateInverse,
                releaseBox)
        }
        return sqlite3_create_function_v2(
            handle, name, arity, flags, box, nil, functionCall, aggregateFinal, releaseBox)
    }
}

/// Where a group's value lives: SQLite's aggregate context (zeroed memory that SQLite frees after the group)
/// holds the address of a Swift value allocated at the group's first step and freed by the final call.
@usableFromInline enum AggregateStorage<Aggregate: AggregateFunction> {
    /// The address stored after a step failed: the value is already freed, and the statement is failing.
    @usableFromInline static var failed: UInt { 1 }

    @inlinable static func slot(_ context: OpaquePointer, allocating: Bool) throws(SQLiteError)
        -> UnsafeMutablePointer<UInt>?
    {
        let size = allocating ? Int32(MemoryLayout<UInt>.size) : 0
        guard let raw = sqlite3_aggregate_context(context, size) else {
            if allocating { throw .outOfMemory("allocating an aggregate's context") }
            return nil
        }
        return raw.assumingMemoryBound(to: UInt.self)
    }

    /// The group's value, created at its first use; `nil` after a failed step.
    @inlinable static func instance(_ slot: UnsafeMutablePointer<UInt>) -> UnsafeMutablePointer<Aggregate>? {
        if slot.pointee == 0 {
            let instance = UnsafeMutablePointer<Aggregate>.allocate(capacity: 1)
            instance.initialize(to: Aggregate())
            slot.pointee = UInt(bitPattern: instance)
            return instance
        }
        return slot.pointee == failed ? nil : UnsafeMutablePointer(bitPattern: slot.pointee)
    }

    @inlinable static func free(_ slot: UnsafeMutablePointer<UInt>, marking mark: UInt) {
        if slot.pointee != failed, let instance = UnsafeMutablePointer<Aggregate>(bitPattern: slot.pointee) {
            instance.deinitialize(count: 1)
            instance.deallocate()
        }
        slot.pointee = mark
    }

    @inlinable static func step(
        _ context: OpaquePointer, _ count: Int32, _ values: UnsafeMutablePointer<OpaquePointer?>?
    )
        throws
    {
        guard let slot = try slot(context, allocating: true), let instance = instance(slot) else { return }
        do {
            try instance.pointee.step(FunctionArguments(count: count, values: values))
        } catch {
            free(slot, marking: failed)  // no user code runs for this group again
            throw error
        }
    }

    @inlinable static func final(_ context: OpaquePointer) throws {
        // No context: the group had no row, so its value is a fresh one.
        guard let slot = try slot(context, allocating: false), slot.pointee != 0 else {
            return try FunctionResult.set(try Aggregate().finalize(), on: context)
        }
        guard let instance = instance(slot) else { return }
        defer { free(slot, marking: 0) }
        try FunctionResult.set(try instance.pointee.finalize(), on: context)
    }
}

extension AggregateStorage where Aggregate: WindowFunction {
    @inlinable static func value(_ context: OpaquePointer) throws {
        guard let slot = try slot(context, allocating: true), let instance = instance(slot) else { return }
        try FunctionResult.set(try instance.pointee.value(), on: context)
    }

    @inlinable static func inverse(
        _ context: OpaquePointer, _ count: Int32, _ values: UnsafeMutablePointer<OpaquePointer?>?
    ) throws {
        guard let slot = try slot(context, allocating: true), let instance = instance(slot) else { return }
        do {
            try instance.pointee.inverse(FunctionArguments(count: count, values: values))
        } catch {
            free(slot, marking: failed)
            throw error
        }
    }
}

// The C callbacks: each finds the function's box and calls the Swift callback, turning a thrown error into the
// statement's failure. The box is borrowed for the call (`_withUnsafeGuaranteedRef`): no reference counting.

private typealias ValuesCallback = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void
private typealias ContextCallback = @convention(c) (OpaquePointer?) -> Void

/// A scalar function's call, and an aggregate's step. Once the connection is interrupted, the statement calls no
/// more Swift code: the call fails with `SQLITE_INTERRUPT` instead, which ends the statement.
let functionCall: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, count, values in
    guard let context, let box = sqlite3_user_data(context) else { return }
    Unmanaged<FunctionBox>.fromOpaque(box)._withUnsafeGuaranteedRef { box in
        if box.interrupts.isRaised { return sqlite3_result_error_code(context, SQLITE_INTERRUPT) }
        do { try box.call(context, count, values) } catch { box.fail(context, with: error) }
    }
}

private let aggregateInverse: ValuesCallback = { context, count, values in
    guard let context, let box = sqlite3_user_data(context) else { return }
    Unmanaged<FunctionBox>.fromOpaque(box)._withUnsafeGuaranteedRef { box in
        if box.interrupts.isRaised { return sqlite3_result_error_code(context, SQLITE_INTERRUPT) }
        do { try box.inverse(context, count, values) } catch { box.fail(context, with: error) }
    }
}

private let aggregateFinal: ContextCallback = { context in
    guard let context, let box = sqlite3_user_data(context) else { return }
    Unmanaged<FunctionBox>.fromOpaque(box)._withUnsafeGuaranteedRef { box in
        do { try box.final(context) } catch { box.fail(context, with: error) }
    }
}

private let aggregateValue: ContextCallback = { context in
    guard let context, let box = sqlite3_user_data(context) else { return }
    Unmanaged<FunctionBox>.fromOpaque(box)._withUnsafeGuaranteedRef { box in
        do { try box.value(context) } catch { box.fail(context, with: error) }
    }
}

/// A function added to one connection: SQLite holds one retained reference and releases it through the
/// destructor callback when the function is replaced or removed, or the connection closes.
final class FunctionBox {
    let name: String
    let errors: FunctionErrors
    /// The connection's interrupt handle, whose flag each call checks first.
    let interrupts: InterruptHandle
    /// The scalar function, or the aggregate's step. Each callback is a non-optional field of its own, so
    /// that a call borrows it: neither copied out of an enum or optional nor retained.
    let call: SQLFunction.ScalarCall
    let final: @Sendable (OpaquePointer) throws -> Void
    let value: @Sendable (OpaquePointer) throws -> Void
    let inverse: SQLFunction.ScalarCall

    init(_ function: SQLFunction, errors: FunctionErrors, interrupts: InterruptHandle) {
        name = function.name
        self.errors = errors
        self.interrupts = interrupts
        switch function.implementation {
        case .scalar(let call):
            (self.call, final, value, inverse) = (call, { _ in }, { _ in }, { _, _, _ in })
        case .aggregate(let calls):
            (call, final) = (calls.step, calls.final)
            (value, inverse) = (calls.value ?? { _ in }, calls.inverse ?? { _, _, _ in })
        }
    }

    /// Makes the statement fail with `error`, and keeps the typed error for the statement to report.
    func fail(_ context: OpaquePointer, with error: any Error) {
        let description = (error as? SQLiteError)?.message ?? String(describing: error)
        // SQLite carries the message as C text: a NUL would cut it short, and it would no longer match.
        var failure = SQLiteError(.functionFailed, message: description.replacingNULs)
        failure.function = name
        errors.record(failure)
        var message = failure.message
        message.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) {
                sqlite3_result_error(context, $0.baseAddress, Int32(clamping: $0.count))
            }
        }
    }
}

/// The errors raised inside a step by code the library runs there, kept until the failing statement reports them.
///
/// SQLite carries only a message from a Swift function to the statement, so the statement finds the typed error by
/// that message. The busy handler and the commit hook cannot carry even that: when an interrupt or a cancellation
/// ends a wait, SQLite reports `SQLITE_BUSY`, and when the commit hook refuses to commit to a file that was moved,
/// `SQLITE_CONSTRAINT_COMMITHOOK`; each leaves the error that says what happened as the replacement of the next
/// failure with that code.
final class FunctionErrors {
    private var recent: [SQLiteError] = []
    private var replacement: (code: ResultCode, error: SQLiteError)?

    func record(_ error: SQLiteError) {
        if recent.count >= 8 { recent.removeFirst() }
        recent.append(error)
    }

    /// Makes the next failure with `code` (compared by primary code) report `error` instead.
    func replace(_ code: ResultCode, with error: SQLiteError) {
        replacement = (code, error)
    }

    /// The function error that `error`, a failed step, reports, or `error` itself.
    func resolve(_ error: SQLiteError) -> SQLiteError {
        if let replacement {
            self.replacement = nil
            recent.removeAll()
            if error.code.primary == replacement.code.primary {
                return replacement.error.with(sql: error.sql, table: error.table)
            }
        }
        guard !recent.isEmpty else { return error }
        defer { recent.removeAll() }
        // A tokenizer's failure reaches the statement as a bare SQLITE_ERROR, without its message.
        guard error.code.primary == .error,
            let match = recent.last(where: { $0.message == error.message || $0.kind == .tokenizerFailed })
        else {
            return error
        }
        return match.with(sql: error.sql, table: error.table)
    }
}

extension String {
    /// The string with NUL characters replaced, for text handed to SQLite as C text.
    var replacingNULs: String {
        contains("\0") ? String(unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : Character($0) }) : self
    }
}

let releaseBox: @convention(c) (UnsafeMutableRawPointer?) -> Void = { box in
    if let box { Unmanaged<AnyObject>.fromOpaque(box).release() }
}
