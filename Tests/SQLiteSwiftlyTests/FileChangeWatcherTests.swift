#if os(Linux)
    import Foundation
    import Synchronization
    import Testing

    @testable import SQLiteSwiftly

    /// The inotify watcher itself: which files it reports, and how it merges a burst of writes.
    @Suite struct FileChangeWatcherTests {
        /// Counts a watcher's notices: the changes it reports, and the checks it says are due.
        private final class Reports: Sendable {
            private let changes = Atomic<Int>(0)
            private let checks = Atomic<Int>(0)
            /// Each due check's `since`, and when it came.
            let dueChecks = Mutex<[(since: ContinuousClock.Instant, at: ContinuousClock.Instant)]>([])

            var value: Int { changes.load(ordering: .relaxed) }
            var checksDue: Int { checks.load(ordering: .relaxed) }

            func take(_ notice: FileChangeWatcher.Notice) {
                switch notice {
                case .changed: changes.add(1, ordering: .relaxed)
                case .checkDue(let since):
                    let now = ContinuousClock.now
                    dueChecks.withLock { $0.append((since, now)) }
                    checks.add(1, ordering: .relaxed)
                }
            }

            /// Waits until the count of changes exceeds `value`; `false` after a minute.
            func wait(above value: Int) -> Bool {
                let deadline = ContinuousClock.now + .seconds(60)
                while self.value <= value {
                    guard ContinuousClock.now < deadline else { return false }
                    usleep(1000)
                }
                return true
            }
        }

        /// Runs `body`, on a thread of its own, with an empty database file `name` (and an empty WAL, if asked) in a
        /// new directory, watched by a watcher that counts its notices; stops the watcher after.
        private func watching(
            _ name: String, withWAL: Bool = false,
            _ body: (_ path: String, TemporaryDirectory, Reports) throws -> Void
        ) async throws {
            try await offPool {
                let directory = try TemporaryDirectory()
                let path = directory.path(name)
                #expect(FileManager.default.createFile(atPath: path, contents: Data()))
                if withWAL { #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data())) }
                let reports = Reports()
                let watcher = try #require(FileChangeWatcher.start(databasePath: path) { reports.take($0) })
                defer { watcher.stop() }
                try body(path, directory, reports)
            }
        }

        @Test("a burst of writes to the WAL is reported a few times, not at each write, and a later write at once")
        func burstIsMerged() async throws {
            try await watching("burst.sqlite", withWAL: true) { path, _, reports in
                let wal = try #require(FileHandle(forWritingAtPath: path + "-wal"))
                defer { try? wal.close() }
                // Half a second of writes, as fast as they go: with rests of 1 ms that would be about 450 reports;
                // with rests that grow to 9 ms while events keep coming, about 55.
                let start = ContinuousClock.now
                var writes = 0
                while ContinuousClock.now - start < .milliseconds(500) {
                    try wal.write(contentsOf: Data([UInt8(truncatingIfNeeded: writes)]))
                    writes += 1
                }
                #expect(reports.wait(above: 0))
                usleep(50_000)  // the last rest ends, and its events are reported
                let burst = reports.value
                #expect(writes > 1000)
                #expect(burst <= 150, "\(burst) reports of \(writes) writes in 500 ms")
                // After a quiet spell a lone write is reported: the rest is short again.
                usleep(100_000)
                let before = reports.value
                try wal.write(contentsOf: Data([1]))
                #expect(reports.wait(above: before))
            }
        }

        @Test("one change makes checks due: after the settle time, then at doubling intervals for five seconds")
        func checksAfterOneChange() async throws {
            try await watching("tail.sqlite") { path, _, reports in
                #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data([1])))
                #expect(reports.wait(above: 0))
                // Due at 1 ms, then 10, 30, 70, 150, 310, 630, 1270 and 2550 ms after that: nine, fewer when the
                // thread runs late, none after the five seconds.
                usleep(500_000)
                let early = reports.checksDue
                #expect((2...6).contains(early), "\(early) checks due in the first 500 ms")
                usleep(5_500_000)
                let all = reports.checksDue
                #expect(all > early && all <= 9, "\(all) checks due in all")
                usleep(500_000)
                #expect(reports.checksDue == all, "checks came due after the five seconds")
                #expect(reports.value == 1)
                // A check of the tail asks for a check from its own time on: one started for the notice before it
                // (a millisecond after the event, maybe too early for a commit that shows late) does not count.
                let due = reports.dueChecks.withLock { $0 }
                for check in due.dropFirst() {
                    #expect(check.at - check.since < .milliseconds(5), "a check due since \(check.at - check.since)")
                }
            }
        }

        @Test("writes to files other than the database's are not reported; its journal and the file itself are")
        func onlyTheDatabaseFiles() async throws {
            try await watching("files.sqlite") { path, directory, reports in
                #expect(FileManager.default.createFile(atPath: directory.path("other.sqlite-wal"), contents: Data([1])))
                #expect(FileManager.default.createFile(atPath: path + "-shm", contents: Data([1])))
                usleep(100_000)
                #expect(reports.value == 0)
                #expect(FileManager.default.createFile(atPath: path + "-journal", contents: Data([1])))
                #expect(reports.wait(above: 0))
                usleep(50_000)
                let before = reports.value
                let file = try #require(FileHandle(forWritingAtPath: path))
                try file.write(contentsOf: Data([1]))
                try file.close()
                #expect(reports.wait(above: before))
            }
        }
    }
#endif
