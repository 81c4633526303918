/// Memory that holds the text and blob values bound for one run of a statement, so that SQLite can use them in
/// place (`SQLITE_STATIC`) instead of allocating, copying and freeing each one (`SQLITE_TRANSIENT`).
///
/// A Swift string or array only lends its bytes for the length of a closure, and a statement steps after the
/// binding call has returned, so the bytes must live somewhere the statement controls. Copying them here costs a
/// `memcpy`; SQLite's own copy costs an allocation, its memory-statistics mutex and a free per value.
///
/// Lifetime: every pointer handed out stays valid until ``reset()``, which ``RawStatement/begin()`` calls at the
/// start of the next run (whose binds replace every old binding before the statement steps), and until
/// ``deallocate()``, which the statement's `deinit` calls after finalizing the statement. A chunk outgrown during a
/// run is kept until that reset, since earlier bindings point into it. Values above ``largestCopy`` bytes are left
/// to SQLite (`SQLITE_TRANSIENT`): the arena never holds more than a few pages between runs.
///
/// A struct stored in its ``RawStatement``, not an object of its own: a statement compiled for one run (one-off
/// SQL) then costs no extra allocation, and a bind reaches the arena without retaining anything. Only the
/// statement's stored arena is ever used or freed; it is not copied. (A noncopyable struct with a `deinit` would
/// say so in the type, but Swift 6.3 crashes compiling the inlinable setter of such a stored property.)
@usableFromInline
struct BindingArena {
    /// The largest value copied here; larger ones are copied by SQLite.
    @usableFromInline static let largestCopy = 16 * 1024

    @usableFromInline var chunk: UnsafeMutableRawPointer?
    @usableFromInline var capacity = 0
    @usableFromInline var used = 0
    /// Chunks outgrown during the current run, freed at the next reset.
    @usableFromInline var outgrown: [UnsafeMutableRawPointer] = []

    @usableFromInline init() {}

    /// Frees the memory. The statement calls it once, from its `deinit`, after `sqlite3_finalize`.
    mutating func deallocate() {
        chunk?.deallocate()
        chunk = nil
        releaseOutgrown()
    }

    /// Whether a value of the run in progress lives here.
    @inlinable var isInUse: Bool { used > 0 }

    /// Copies `count` bytes (at most ``largestCopy``) and returns where they are now.
    @inlinable mutating func copy(_ source: UnsafeRawPointer, count: Int) -> UnsafeRawPointer {
        let base: UnsafeMutableRawPointer
        if let chunk, capacity - used >= count { base = chunk } else { base = grow(toHold: count) }
        let destination = base + used
        destination.copyMemory(from: source, byteCount: count)
        used += count
        return UnsafeRawPointer(destination)
    }

    /// Starts a new chunk big enough for `count` more bytes, keeping the current one until the next reset.
    @usableFromInline mutating func grow(toHold count: Int) -> UnsafeMutableRawPointer {
        if let chunk { outgrown.append(chunk) }
        capacity = max(1024, 2 * capacity, count)
        let fresh = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        chunk = fresh
        used = 0
        return fresh
    }

    /// Forgets the values of the previous run. The caller binds every parameter again before the next step, or
    /// has cleared the bindings that pointed here.
    @inlinable mutating func reset() {
        used = 0
        if !outgrown.isEmpty { releaseOutgrown() }
    }

    @usableFromInline mutating func releaseOutgrown() {
        for old in outgrown { old.deallocate() }
        outgrown.removeAll()
    }
}
