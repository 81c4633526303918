/// Memory that holds the text and blob values bound for one run of a statement, so that SQLite can use them in
/// place (`SQLITE_STATIC`) instead of allocating, copying and freeing each one (`SQLITE_TRANSIENT`).
///
/// A Swift string or array only lends its bytes for the length of a closure, and a statement steps after the
/// binding call has returned, so the bytes must live somewhere the statement controls. Copying them here costs a
/// `memcpy`; SQLite's own copy costs an allocation, its memory-statistics mutex and a free per value.
///
/// Lifetime: every pointer handed out stays valid until ``reset()``, which ``RawStatement/begin()`` calls at the
/// start of the next run (whose binds replace every old binding before the statement steps), and until `deinit`,
/// which runs after the statement is finalized. A chunk outgrown during a run is kept until that reset, since earlier bindings point
/// into it. Values above ``largestCopy`` bytes are left to SQLite (`SQLITE_TRANSIENT`): the arena never holds
/// more than a few pages between runs.
@usableFromInline
final class BindingArena {
    /// The largest value copied here; larger ones are copied by SQLite.
    @usableFromInline static let largestCopy = 16 * 1024

    @usableFromInline @exclusivity(unchecked) var chunk: UnsafeMutableRawPointer?
    @usableFromInline @exclusivity(unchecked) var capacity = 0
    @usableFromInline @exclusivity(unchecked) var used = 0
    /// Chunks outgrown during the current run, freed at the next reset.
    @usableFromInline @exclusivity(unchecked) var outgrown: [UnsafeMutableRawPointer] = []

    @usableFromInline init() {}

    deinit {
        chunk?.deallocate()
        for old in outgrown { old.deallocate() }
    }

    /// Whether a value of the run in progress lives here.
    @inlinable var isInUse: Bool { used > 0 }

    /// Copies `count` bytes (at most ``largestCopy``) and returns where they are now.
    @inlinable func copy(_ source: UnsafeRawPointer, count: Int) -> UnsafeRawPointer {
        let base: UnsafeMutableRawPointer
        if let chunk, capacity - used >= count { base = chunk } else { base = grow(toHold: count) }
        let destination = base + used
        destination.copyMemory(from: source, byteCount: count)
        used += count
        return UnsafeRawPointer(destination)
    }

    /// Starts a new chunk big enough for `count` more bytes, keeping the current one until the next reset.
    @usableFromInline func grow(toHold count: Int) -> UnsafeMutableRawPointer {
        if let chunk { outgrown.append(chunk) }
        capacity = max(1024, 2 * capacity, count)
        let fresh = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        chunk = fresh
        used = 0
        return fresh
    }

    /// Forgets the values of the previous run. The caller binds every parameter again before the next step, or
    /// has cleared the bindings that pointed here.
    @inlinable func reset() {
        used = 0
        if !outgrown.isEmpty { releaseOutgrown() }
    }

    @usableFromInline func releaseOutgrown() {
        for old in outgrown { old.deallocate() }
        outgrown.removeAll()
    }
}
