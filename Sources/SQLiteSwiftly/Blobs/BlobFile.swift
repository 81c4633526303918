import CSQLiteSwiftly

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The C library's calls, named apart from the methods below.
private func posixClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// A file read or written by the blob streams, through its file descriptor.
final class BlobFile {
    let path: String
    private var descriptor: Int32

    init(_ path: String, writing: Bool) throws(SQLiteError) {
        self.path = path
        // Closing this descriptor would drop SQLite's locks if the file were an open database or one of its side files.
        try OpenDatabaseFiles.refuseDatabaseFile(
            path, for: writing ? "the file a blob is copied to" : "a blob's source")
        descriptor =
            writing ? open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.failure(writing ? "create" : "open", path) }
    }

    deinit {
        if descriptor >= 0 { _ = posixClose(descriptor) }
    }

    func size() throws(SQLiteError) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.failure("read the size of", path) }
        return Int(status.st_size)
    }

    /// Reads exactly `count` bytes, or throws when the file ends before.
    func read(into buffer: UnsafeMutableRawBufferPointer, count: Int) throws(SQLiteError) -> Int {
        var done = 0
        while done < count, let base = buffer.baseAddress {
            let got = posixRead(descriptor, base + done, count - done)
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw Self.failure("read (it ended early or changed) from", path) }
            done += got
        }
        return done
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(SQLiteError) {
        var done = 0
        while done < bytes.count, let base = bytes.baseAddress {
            let wrote = posixWrite(descriptor, base + done, bytes.count - done)
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { throw Self.failure("write to", path) }
            done += wrote
        }
    }

    func close() throws(SQLiteError) {
        let code = posixClose(descriptor)
        descriptor = -1
        guard code == 0 else { throw Self.failure("close", path) }
    }

    func remove() {
        if descriptor >= 0 { _ = posixClose(descriptor) }
        descriptor = -1
        unlink(path)
    }

    static func failure(_ verb: String, _ path: String) -> SQLiteError {
        var error = SQLiteError(.misuse, message: "could not \(verb) the file (errno \(errno))")
        error.path = path
        return error
    }
}
