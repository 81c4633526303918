import CSQLiteSwiftly
import Synchronization

/// A thread-safe way to interrupt whatever a ``Connection`` is running, from another thread or task.
///
/// A connection is used by one owner at a time, but a long query sometimes has to be stopped from outside:
/// a cancel button, a timeout. Get the handle from ``Connection/interruptHandle`` and call ``interrupt()``
/// from anywhere. The running statement fails with an ``SQLiteError`` whose code is ``ResultCode/interrupt``;
/// an open transaction is rolled back by SQLite and reported as such.
///
/// An interrupt stops more than SQLite's own loop: a wait for another connection's lock or for the writers'
/// turn ends, and the Swift code SQLite calls (functions, collations, `REGEXP`) is not called again for the
/// interrupted statement. See "Stopping" in DESIGN.md.
///
/// The handle does not keep the connection alive: once the connection is gone, ``interrupt()`` does nothing.
/// See <https://www.sqlite.org/c3ref/interrupt.html>.
public final class InterruptHandle: Sendable {
    private struct Target {
        /// The `sqlite3*` as an address (0 before the open and once the connection is gone). An integer, so that
        /// the mutex's value is plainly `Sendable`; it only ever goes back to a pointer for `sqlite3_interrupt`.
        var address: UInt = 0
        /// Moves at the end of each access of a ``SharedConnection``: a cancellation that arrives after its access
        /// ended must not interrupt the next one.
        var access: UInt64 = 0
    }

    private let target = TrackedMutex(Target())
    /// Raised by ``interrupt()`` (``plainInterrupt``), lowered when a statement starts to run and when a wait for
    /// the writers' turn begins: SQLite forgets an interrupt when the next statement starts with none running, and
    /// so does this. The cancellation of a ``SharedConnection`` access raises it for good (``cancelledAccess``):
    /// every statement and wait of that access then stops, until the access ends. Read by the Swift code SQLite
    /// calls, by the waits, and by each statement as it starts, which cannot see SQLite's own flag (SQLite 3.40 has
    /// no `sqlite3_is_interrupted`). One relaxed load on every path that finds it down.
    @usableFromInline let raised = Atomic<UInt8>(0)
    /// A bit of ``raised``: ``interrupt()`` was called.
    @usableFromInline static let plainInterrupt: UInt8 = 1
    /// A bit of ``raised``: the task of the running access was cancelled; only the end of the access clears it.
    @usableFromInline static let cancelledAccess: UInt8 = 2

    init() {}

    /// Makes the connection's running statement, if any, stop at its next opportunity.
    ///
    /// Safe to call from any thread at any time, even after the connection has been closed. An interrupt that
    /// arrives while nothing runs is forgotten when the next statement starts, as SQLite forgets it.
    public func interrupt() {
        target.withLock { target in fire(target.address, raising: Self.plainInterrupt) }
    }

    /// Whether an interrupt arrived since the current statement or wait began, or the running access was cancelled.
    @inlinable var isRaised: Bool {
        raised.load(ordering: .relaxed) != 0
    }

    /// Forgets an interrupt that arrived before the statement or wait that begins now, unless the running access
    /// was cancelled.
    ///
    /// - Returns: Whether the flag stays raised: the task of the running access was cancelled, and the statement
    ///   or wait must not start.
    @inlinable func lower() -> Bool {
        var value = raised.load(ordering: .relaxed)
        while value == Self.plainInterrupt {
            // A cancellation that lands now turns the value into 3, and the exchange fails: it is not lost.
            let (exchanged, original) = raised.compareExchange(
                expected: value, desired: 0, ordering: .relaxed)
            if exchanged { return false }
            value = original
        }
        return value != 0
    }

    private func fire(_ address: UInt, raising bit: UInt8) {
        guard let database = OpaquePointer(bitPattern: address) else { return }
        raised.bitwiseOr(bit, ordering: .relaxed)
        sqlite3_interrupt(database)
    }

    /// Points the handle at the open connection.
    func attach(_ database: OpaquePointer) {
        target.withLock { $0.address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(database))) }
    }

    /// Called by the connection before it closes, so that no later call reaches a closed handle.
    func invalidate() {
        target.withLock { $0.address = 0 }
    }

    // MARK: - Accesses of a shared connection

    /// The number of the access that runs now, for ``interrupt(access:)``.
    var currentAccess: UInt64 {
        target.withLock { $0.access }
    }

    /// Interrupts only while access `access` runs: a task cancelled as its access ends must not stop the next.
    ///
    /// Unlike ``interrupt()``, the interrupt lasts until the access ends: a cancellation that lands between two
    /// statements of the access (when SQLite would forget it) stops the next one before it starts.
    func interrupt(access: UInt64) {
        target.withLock { target in
            if target.access == access { fire(target.address, raising: Self.plainInterrupt | Self.cancelledAccess) }
        }
    }

    /// Ends the current access: later ``interrupt(access:)`` calls for it do nothing, and its cancellation, if
    /// any, is forgotten.
    func endAccess() {
        target.withLock { target in
            target.access &+= 1
            if raised.load(ordering: .relaxed) & Self.cancelledAccess != 0 { raised.store(0, ordering: .relaxed) }
        }
    }
}

/// Whether the Swift task running the caller, if any, is cancelled: checked by the waits on every turn.
func currentTaskIsCancelled() -> Bool {
    withUnsafeCurrentTask { task in task?.isCancelled ?? false }
}
