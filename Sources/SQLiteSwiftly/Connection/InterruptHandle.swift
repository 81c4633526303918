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
    /// Raised by ``interrupt()``, lowered when a statement starts to run and when a wait for the writers' turn
    /// begins: SQLite forgets an interrupt when the next statement starts with none running, and so does this.
    /// Read by the Swift code SQLite calls, and by the waits, which cannot see SQLite's own flag (SQLite 3.40 has
    /// no `sqlite3_is_interrupted`).
    @usableFromInline let raised = Atomic<Bool>(false)

    init() {}

    /// Makes the connection's running statement, if any, stop at its next opportunity.
    ///
    /// Safe to call from any thread at any time, even after the connection has been closed.
    public func interrupt() {
        target.withLock { target in fire(target.address) }
    }

    /// Whether an interrupt arrived since the current statement or wait began.
    @inlinable var isRaised: Bool {
        raised.load(ordering: .relaxed)
    }

    /// Forgets an interrupt that arrived before the statement or wait that begins now.
    @inlinable func lower() {
        if raised.load(ordering: .relaxed) { raised.store(false, ordering: .relaxed) }
    }

    private func fire(_ address: UInt) {
        guard let database = OpaquePointer(bitPattern: address) else { return }
        raised.store(true, ordering: .relaxed)
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
    func interrupt(access: UInt64) {
        target.withLock { target in
            if target.access == access { fire(target.address) }
        }
    }

    /// Ends the current access: later ``interrupt(access:)`` calls for it do nothing.
    func endAccess() {
        target.withLock { $0.access &+= 1 }
    }
}

/// Whether the Swift task running the caller, if any, is cancelled: checked by the waits on every turn.
func currentTaskIsCancelled() -> Bool {
    withUnsafeCurrentTask { task in task?.isCancelled ?? false }
}
