import CSQLiteSwiftly
import Synchronization

/// A thread-safe way to interrupt whatever a ``Connection`` is running, from another thread or task.
///
/// A connection is used by one owner at a time, but a long query sometimes has to be stopped from outside:
/// a cancel button, a timeout. Get the handle from ``Connection/interruptHandle`` and call ``interrupt()``
/// from anywhere. The running statement fails with an ``SQLiteError`` whose code is ``ResultCode/interrupt``;
/// an open transaction is rolled back by SQLite and reported as such.
///
/// The handle does not keep the connection alive: once the connection is gone, ``interrupt()`` does nothing.
/// See <https://www.sqlite.org/c3ref/interrupt.html>.
public final class InterruptHandle: Sendable {
    /// The `sqlite3*` as an address (0 once the connection is gone). An integer, so that the mutex's value
    /// is plainly `Sendable`; it only ever goes back to a pointer for `sqlite3_interrupt`.
    private let target: TrackedMutex<UInt>

    init(_ database: OpaquePointer) {
        target = TrackedMutex(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(database))))
    }

    /// Makes the connection's running statement, if any, stop at its next opportunity.
    ///
    /// Safe to call from any thread at any time, even after the connection has been closed.
    public func interrupt() {
        target.withLock { address in
            if let database = OpaquePointer(bitPattern: address) { sqlite3_interrupt(database) }
        }
    }

    /// Called by the connection before it closes, so that no later call reaches a closed handle.
    func invalidate() {
        target.withLock { $0 = 0 }
    }
}

// MARK: - Interrupting when the Swift task is cancelled

extension Connection {
    /// Makes statements of this connection stop with ``ResultCode/interrupt`` when the Swift task running them
    /// is cancelled.
    ///
    /// Installs a progress handler (<https://www.sqlite.org/c3ref/progress_handler.html>) that SQLite calls every
    /// `instructions` virtual-machine instructions on the thread running the statement; it asks whether the
    /// current task, if any, is cancelled. Code that runs outside a task is never stopped. Used by
    /// ``SharedConnection``, whose bodies run synchronously inside the calling task.
    func interruptWhenTaskIsCancelled(every instructions: Int32 = 1000) {
        sqlite3_progress_handler(
            handle, instructions,
            { _ in
                withUnsafeCurrentTask { task in (task?.isCancelled ?? false) ? 1 : 0 }
            }, nil)
    }
}
