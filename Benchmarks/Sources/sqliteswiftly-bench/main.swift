import RawC

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// sqliteswiftly-bench [--rows N] [--runs R] [--stream-rows M] [--quick] [--only TEXT] [--implementations TEXT]
//                     [--store memory|wal] [--script MEGABYTES]
//                     [--transactions N] [--synchronous N] [--observation] [--observation-idle]
//
// --only keeps the workloads whose name contains TEXT ("streaming" for the streaming table); --implementations
// keeps the implementations whose name contains TEXT (or one of several TEXTs separated by `|`), plus the raw C
// baseline.
//
// Prints, per workload and implementation, the median time of R runs and its ratio to the raw C API baseline
// measured in the same runs. Runs are interleaved (run 1 of every implementation, then run 2, ...) so that
// machine noise spreads evenly. --observation times observation instead (see ObservationBench.swift): --rows is
// then the number of write transactions.

struct Options {
    var rows = 100_000
    var runs = 15
    var streamRows = 1_000_000
    var only: String?
    var implementationFilter: String?
    var profile = false
    var stores = Store.allCases
    var streamChild: [String]?
    var functionsLifecycle: Int?
    var blobMemory: Int?
    var scriptMegabytes: Int?
    var transactions: Int?
    var synchronousCommits: Int?
    var observation = false
    var observationIdle = false
    var observationRows = false
    var commitChild: [String]?
    var rowsGiven = false
    var quick = false

    init(_ arguments: [String]) throws {
        var iterator = arguments.dropFirst().makeIterator()
        func value(_ flag: String) throws -> String {
            guard let value = iterator.next() else { throw BenchError("\(flag) needs a value") }
            return value
        }
        func integer(_ flag: String) throws -> Int {
            guard let number = Int(try value(flag)), number > 0 else { throw BenchError("\(flag) needs a number > 0") }
            return number
        }
        arguments: while let argument = iterator.next() {
            switch argument {
            case "--rows":
                rows = try integer(argument)
                rowsGiven = true
            case "--runs": runs = try integer(argument)
            case "--stream-rows": streamRows = try integer(argument)
            case "--quick":
                quick = true
                rows = 1_000
                runs = 1
                streamRows = 10_000
            case "--only": only = try value(argument)
            case "--implementations": implementationFilter = try value(argument)
            case "--profile": profile = true
            case "--observation": observation = true
            case "--observation-idle": observationIdle = true
            case "--observation-rows": observationRows = true
            case "--commit-child":
                commitChild = Array(iterator)
                break arguments
            case "--store":
                guard let store = Store(rawValue: try value(argument)) else { throw BenchError("--store memory|wal") }
                stores = [store]
            case "--blob-memory":
                blobMemory = Int(try value(argument)) ?? 1_000_000_000
            case "--script": scriptMegabytes = try integer(argument)
            case "--transactions": transactions = try integer(argument)
            case "--synchronous": synchronousCommits = try integer(argument)
            case "--functions-lifecycle":
                functionsLifecycle = Int(try value(argument)) ?? 100
            case "--stream-child":
                streamChild = Array(iterator)
                break arguments
            case "--help", "-h":
                print("usage: sqliteswiftly-bench [--rows N] [--runs R] [--stream-rows M] [--quick] [--only TEXT]")
                print("                           [--implementations TEXT] [--store memory|wal] [--observation]")
                print("                           [--observation-idle] [--observation-rows]")
                exit(0)
            default: throw BenchError("unknown argument \(argument)")
            }
        }
    }
}

enum Workloads {
    static var all: [Workload] {
        [
            Workload(
                name: "insert 10 INTEGER columns",
                implementations: [
                    Raw.insertInts, SwiftCAPI.insertInts, Ours.insertInts, Ours.insertIntsStatement,
                    OursOneRow.insertInts,
                    OursDerived.insertInts,
                    OursCodable.insertInts,
                    GRDBBench.insertIntsFast,
                    GRDBBench.insertIntsRecord,
                    GRDBBench.insertIntsCodable,
                ]),
            Workload(
                name: "fetch 10 INTEGER columns",
                implementations: [
                    Raw.fetchInts, Raw.fetchIntsChecked, SwiftCAPI.fetchInts, SwiftCAPI.fetchIntsChecked,
                    Ours.fetchInts,
                    OursDerived.fetchInts, OursCodable.fetchInts,
                    GRDBBench.fetchIntsFast,
                    GRDBBench.fetchIntsRecord,
                    GRDBBench.fetchIntsCodable,
                ]),
            Workload(
                name: "cursor over 10 INTEGER columns",
                implementations: [
                    Raw.cursorInts, Raw.cursorIntsChecked, SwiftCAPI.cursorInts, SwiftCAPI.cursorIntsChecked,
                    Ours.cursorInts,
                ]),
            Workload(
                name: "insert mixed row",
                implementations: [
                    Raw.insertMixed, SwiftCAPI.insertMixed, Ours.insertMixed, OursDerived.insertMixed,
                    OursOneRow.insertMixed,
                    OursBytes.insertMixed,
                    OursCodable.insertMixed,
                    GRDBBench.insertMixedFast,
                    GRDBBench.insertMixedRecord,
                    GRDBBench.insertMixedCodable,
                ]),
            Workload(
                name: "fetch mixed row",
                implementations: [
                    Raw.fetchMixed, SwiftCAPI.fetchMixed, Ours.fetchMixed, OursDerived.fetchMixed, OursBytes.fetchMixed,
                    OursCodable.fetchMixed,
                    GRDBBench.fetchMixedFast,
                    GRDBBench.fetchMixedRecord,
                    GRDBBench.fetchMixedCodable,
                ]),
            Workload(
                name: "point lookups by primary key",
                implementations: [
                    Raw.lookup, SwiftCAPI.lookup, Ours.lookupTyped, OursDerived.lookup, Ours.lookupStatement,
                    Ours.lookupReadOne,
                    OursOneRow.lookup,
                    OursCodable.lookup,
                    GRDBBench.lookupFast,
                    GRDBBench.lookupRecord,
                    GRDBBench.lookupCodable,
                ]),
            Workload(
                name: "fetch wide orders row",
                implementations: [Orders.fetchRaw, SwiftCAPI.fetchOrders, Orders.fetchOurs]),
            Workload(
                name: "one-off SQL (CPU time)", cpuTime: true,
                implementations: [OneOff.raw, SwiftCAPI.oneOff, OneOff.ours]),
        ] + FunctionBench.workloads + FullTextBench.workloads + RelationsBench.workloads
            + ChangesetBench.workloads
    }
}

func runTimed(_ options: Options, files: inout TemporaryFiles) throws {
    print("| workload | database | implementation | median | ratio to raw C |")
    print("| --- | --- | --- | ---: | ---: |")
    for var workload in Workloads.all where options.only.map({ workload.name.contains($0) }) ?? true {
        if let filter = options.implementationFilter {
            workload = Workload(
                name: workload.name, cpuTime: workload.cpuTime,
                implementations: workload.implementations.enumerated().filter {
                    (offset, implementation) in
                    offset == 0 || filter.split(separator: "|").contains { implementation.name.contains($0) }
                }
                .map(\.element))
        }
        for store in options.stores {
            var times = Array(repeating: [UInt64](), count: workload.implementations.count)
            var checksums = Array(repeating: Int64?.none, count: workload.implementations.count)
            for run in 0..<options.runs {
                // Profiling counts the last run only: earlier runs warm up, as the medians of timed runs do.
                let profiled = options.profile && run == options.runs - 1
                for (index, implementation) in workload.implementations.enumerated() {
                    let location = Location(store: store, path: store == .memory ? ":memory:" : files.next())
                    defer { if store == .wal { TemporaryFiles.remove(location.path) } }
                    let elapsed: UInt64
                    let checksum: Int64
                    do {
                        let body = try implementation.prepare(location, options.rows)
                        if profiled { rawc_profile_toggle() }
                        let clock = workload.cpuTime ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC
                        let start = now(clock)
                        checksum = try body()
                        elapsed = now(clock) - start
                        if profiled {
                            rawc_profile_toggle()
                            rawc_profile_dump("\(workload.name) | \(store.label) | \(implementation.name)")
                        }
                    }
                    times[index].append(elapsed)
                    if let previous = checksums[index], previous != checksum {
                        throw BenchError("\(implementation.name) returned different checksums across runs")
                    }
                    checksums[index] = checksum
                }
            }
            if Set(checksums.compactMap { $0 }).count > 1 {
                throw BenchError("\(workload.name): implementations disagree: \(checksums)")
            }
            let baseline = median(times[0])
            for (index, implementation) in workload.implementations.enumerated() {
                let time = median(times[index])
                print(
                    "| \(workload.name) | \(store.label) | \(implementation.name) | \(formatMilliseconds(time)) | "
                        + "\(formatRatio(time / baseline)) |")
            }
            fflush(nil)
        }
    }
}

let options: Options
do {
    options = try Options(CommandLine.arguments)
} catch {
    printError("sqliteswiftly-bench: \(error)")
    exit(2)
}

do {
    let schemas = try Ours.schemas()
    Dataset.intsSchema = schemas.ints
    Dataset.mixedSchema = schemas.mixed
    Orders.schema = try Orders.createSQL()
    if let bytes = options.blobMemory {
        try await FunctionBench.blobMemory(bytes: bytes)
        exit(0)
    }
    if let count = options.transactions {
        try TransactionBench.run(count: count)
        exit(0)
    }
    if let count = options.synchronousCommits {
        try await TransactionBench.synchronousModes(count: count)
        exit(0)
    }
    if let megabytes = options.scriptMegabytes {
        try ScriptBench.run(megabytes: megabytes)
        exit(0)
    }
    if let rounds = options.functionsLifecycle {
        try FunctionBench.lifecycle(rounds: rounds)
        exit(0)
    }
    if let child = options.commitChild {
        try ObservationIdleBench.commitChild(child)
        exit(0)
    }
    if options.observationIdle {
        var files = try TemporaryFiles()
        defer { files.removeDirectory() }
        try await ObservationIdleBench.run(
            commits: options.rowsGiven ? options.rows : options.quick ? 20 : 200, seconds: options.quick ? 1 : 20,
            files: &files)
        exit(0)
    }
    if let child = options.streamChild {
        try Streaming.child(child)
        exit(0)
    }
    var files = try TemporaryFiles()
    defer { files.removeDirectory() }
    print("sqliteswiftly-bench: \(options.rows) rows, median of \(options.runs) run(s)")
    for line in machineDescription() { print(line) }
    print("SQLite \(Raw.libversion) (sqlite3_libversion)")
    print("")
    if options.observation {
        try await ObservationBench.run(options, files: &files)
        exit(0)
    }
    if options.observationRows {
        try await RowRegionBench.run(options, files: &files)
        exit(0)
    }
    try runTimed(options, files: &files)
    if options.only.map({ "streaming".contains($0) }) ?? true {
        print("")
        try Streaming.run(options, files: &files)
    }
} catch {
    printError("sqliteswiftly-bench: \(error)")
    exit(1)
}
