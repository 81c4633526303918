import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One synchronous caller's turn on a ``ConnectionExecutor``: the executor's thread grants it and waits; the
/// caller waits for the grant, runs its work, and gives the executor back.
///
/// The semaphores order the two threads; the counter makes that order visible to ThreadSanitizer, which does not
/// see through the uninstrumented semaphores (as ``TrackedMutex`` does for a mutex).
final class Lease: Sendable {
    /// The borrowing thread (a ``ThreadIdentity`` value).
    let thread: UInt
    private let granted = DispatchSemaphore(value: 0)
    private let returned = DispatchSemaphore(value: 0)
    private let handoff = Atomic<Int>(0)

    init(thread: UInt) {
        self.thread = thread
    }

    /// On the executor's thread: lets the caller run.
    func grant() {
        handoff.wrappingAdd(1, ordering: .releasing)
        granted.signal()
    }

    /// On the caller's thread: waits until the executor's thread has parked for it.
    func waitForTurn() {
        granted.wait()
        _ = handoff.load(ordering: .acquiring)
    }

    /// On the caller's thread: gives the executor back.
    func giveBack() {
        handoff.wrappingAdd(1, ordering: .releasing)
        returned.signal()
    }

    /// On the executor's thread: waits until the caller is done.
    func waitForReturn() {
        returned.wait()
        _ = handoff.load(ordering: .acquiring)
    }
}

/// The calling thread, as a number, and whether it is running an access of a shared connection.
enum ThreadIdentity {
    /// The calling thread's `pthread_t`, as a number (never 0).
    static var current: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    /// Whether the calling thread runs accesses of a shared connection: an executor's thread, or a thread while it
    /// borrows one. A thread-local value, kept under a `pthread` key.
    static var isInsideAccess: Bool {
        get { pthread_getspecific(insideAccessKey) != nil }
        set { pthread_setspecific(insideAccessKey, newValue ? UnsafeRawPointer(bitPattern: 1) : nil) }
    }
}

/// The `pthread` key of ``ThreadIdentity/isInsideAccess``, created once.
private let insideAccessKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
