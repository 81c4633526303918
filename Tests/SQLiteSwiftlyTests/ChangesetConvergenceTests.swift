import Foundation
import SQLiteSwiftly
import Testing

/// The SyncPeer executable, built next to the test bundle.
let syncPeerPath = builtExecutable("SyncPeer")

/// A SyncPeer child process: its database, and a command line in, an answer line out.
private final class Peer {
    let name: String
    let path: String
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var pending = Data()

    init(_ name: String, executable: String, directory: TemporaryDirectory, seed: UInt64) throws {
        self.name = name
        path = directory.path("\(name).sqlite")
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [path, "\(seed)"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let ready = try readLine()
        try #require(ready == "ready", "peer \(name) did not start: \(ready)")
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    func send(_ command: String) {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
    }

    /// The next line the peer prints; an `error` line throws.
    func readLine() throws -> String {
        while !pending.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            try #require(!chunk.isEmpty, "peer \(name) exited")
            pending += chunk
        }
        let end = try #require(pending.firstIndex(of: 0x0A))
        let line = String(decoding: pending[..<end], as: UTF8.self)
        pending = Data(pending[(end + 1)...])
        if line.hasPrefix("error ") { throw PeerFailure(description: "peer \(name): \(line.dropFirst(6))") }
        return line
    }

    func quit() {
        send("quit")
        process.waitUntilExit()
    }
}

private struct PeerFailure: Error, CustomStringConvertible {
    var description: String
}

/// Two databases in two processes make random edits to the same rows, exchange changesets both ways under a
/// documented rule (Tests/SyncPeer/main.swift: the round's primary peer wins every conflict), and end identical.
///
/// CI runs 60 rounds from a fixed seed (a few seconds). `SQLITESWIFTLY_SYNC_ROUNDS=n` runs n rounds and
/// `SQLITESWIFTLY_SYNC_SEED=s` starts from another seed; a failure prints the seed and the round.
@Suite struct ChangesetConvergenceTests {
    @Test("two databases in two processes edit the same rows and end identical after every exchange")
    func converge() async throws {
        try await offPool {
            let executable = try #require(syncPeerPath, "the SyncPeer executable was not built next to the tests")
            let environment = ProcessInfo.processInfo.environment
            let rounds = environment["SQLITESWIFTLY_SYNC_ROUNDS"].flatMap { Int($0) } ?? 60
            let seed = environment["SQLITESWIFTLY_SYNC_SEED"].flatMap { UInt64($0) } ?? 0x5EED_2030
            let directory = try TemporaryDirectory()
            let peers = [
                try Peer("a", executable: executable, directory: directory, seed: seed),
                try Peer("b", executable: executable, directory: directory, seed: seed),
            ]
            defer { for peer in peers { peer.quit() } }
            try expectIdentical(peers, note: "at the start (seed \(seed))")
            var random = SplitMix(state: seed)
            var conflicts = 0
            var changes = 0
            for round in 0..<rounds {
                let note = "after round \(round) of seed \(seed) (SQLITESWIFTLY_SYNC_SEED=\(seed))"
                for (index, peer) in peers.enumerated() {
                    let edits = Int.random(in: 1...12, using: &random)
                    peer.send("edit \(random.next()) \(edits) \(directory.path("changes-\(index)"))")
                }
                for peer in peers { changes += Int(try peer.readLine().split(separator: " ").last ?? "") ?? 0 }
                // The primary alternates, so that each process both rebases and merges.
                let primary = round % 2
                peers[primary].send("rebase \(directory.path("changes-\(1 - primary)"))")
                peers[1 - primary].send("merge \(directory.path("changes-\(primary)"))")
                for peer in peers {
                    let counts = try peer.readLine().split(separator: " ").dropFirst().compactMap { Int($0) }
                    conflicts += counts.dropFirst().reduce(0, +)
                }
                guard try expectIdentical(peers, note: note) else { break }
            }
            // The edits overlap: some rounds must have met conflicts, or the rule was never exercised.
            #expect(changes > rounds && conflicts > 0, "changes \(changes), conflicts \(conflicts)")
        }
    }

    /// Compares the two databases row by row; records the first difference.
    @discardableResult
    private func expectIdentical(_ peers: [Peer], note: String) throws -> Bool {
        let contents = try peers.map { peer in
            try ChangesetFixture.contents(of: Connection(opening: peer.path, readOnly: true))
        }
        guard contents[0] != contents[1] else { return true }
        let difference = zip(contents[0], contents[1]).first { $0 != $1 }
        Issue.record(
            "the databases differ \(note): first difference \(difference.map { "\($0.0) / \($0.1)" } ?? "in length")")
        return false
    }
}
