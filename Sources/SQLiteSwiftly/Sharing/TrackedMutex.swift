import Synchronization

/// A `Mutex` whose hand-offs between threads ThreadSanitizer can see.
///
/// On Linux, a contended `Mutex` parks and wakes threads in the kernel (a priority-inheritance futex) from the
/// toolchain's prebuilt, uninstrumented `Synchronization` library. ThreadSanitizer then sees two critical
/// sections on different threads with nothing ordering them, and reports a data race that cannot happen. This
/// wrapper adds what the sanitizer can see: each critical section begins with an acquiring load of a counter
/// and ends with a releasing increment of it. Mutual exclusion already orders the sections; the counter only
/// makes that order visible, at the cost of two uncontended atomic operations per lock.
struct TrackedMutex<Value: ~Copyable>: ~Copyable {
    private let mutex: Mutex<Value>
    private let handoff = Atomic<Int>(0)

    init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    borrowing func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            _ = handoff.load(ordering: .acquiring)
            defer { handoff.wrappingAdd(1, ordering: .releasing) }
            return try body(&value)
        }
    }
}

extension TrackedMutex: Sendable where Value: ~Copyable {}
