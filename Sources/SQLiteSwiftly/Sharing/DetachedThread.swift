#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a detached POSIX thread that runs one closure: the executor of a shared connection, the file watcher of
/// an observation hub. The closure, and what it captures, live until it returns.
enum DetachedThread {
    /// The closure, boxed so that its address can travel through `pthread_create`'s context pointer.
    private final class Body {
        let run: @Sendable () -> Void

        init(_ run: @escaping @Sendable () -> Void) {
            self.run = run
        }
    }

    /// Runs `body` on a new detached thread; `false` when the system refuses to create one (`body` is then
    /// released without running).
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let code = pthread_create(
            &thread, &attributes,
            { context in
                guard let context else { return nil }
                Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, context)
        if code != 0 { Unmanaged<Body>.fromOpaque(context).release() }
        return code == 0
    }
}
