/// An SQL text as a key of the statement cache, hashed once.
///
/// The text is hashed by its UTF-8 bytes, eight at a time, and two keys are equal when their bytes are: SQLite
/// compiles bytes, so two texts that Swift's `String` equality would call equal (the same letter composed in
/// two ways) are different statements here. The hash is not keyed against crafted collisions (a query console
/// may cache what its user types): colliding texts would only cost comparisons, and the cache holds 64 at most.
@usableFromInline
struct SQLKey: Hashable {
    let text: String
    let hash: Int

    @usableFromInline init(_ text: String) {
        self.text = text
        // A native string lends its bytes as they are; only a bridged or shared one is copied to contiguous UTF-8
        // (withUTF8 needs a mutable copy, and with it a retain and a release of the text).
        if let hash = text.utf8.withContiguousStorageIfAvailable({ Self.hash(UnsafeRawBufferPointer($0)) }) {
            self.hash = hash
        } else {
            var text = text
            hash = text.withUTF8 { Self.hash(UnsafeRawBufferPointer($0)) }
        }
    }

    private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var state = UInt64(truncatingIfNeeded: bytes.count) &* 0x9E37_79B9_7F4A_7C15
        var offset = 0
        while offset + 8 <= bytes.count {
            state = mix(state ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        if offset < bytes.count && bytes.count >= 8 {
            // The last eight bytes, overlapping the ones already mixed: one load instead of a loop.
            tail = bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
        } else {
            while offset < bytes.count {
                tail = tail << 8 | UInt64(bytes[offset])
                offset += 1
            }
        }
        return Int(truncatingIfNeeded: mix(state ^ tail))
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        let multiplied = value &* 0xFF51_AFD7_ED55_8CCD
        return multiplied ^ (multiplied >> 32)
    }

    @usableFromInline func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }

    @usableFromInline static func == (left: SQLKey, right: SQLKey) -> Bool {
        guard left.hash == right.hash else { return false }
        var (first, second) = (left.text, right.text)
        return first.withUTF8 { first in second.withUTF8 { StoredValue.same(first, $0) } }
    }
}
