import CSQLiteSwiftly

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
