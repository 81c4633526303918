// swift-tools-version: 6.0
import Foundation
import PackageDescription

// The benchmarks live in their own package so that `swift test` at the root never builds GRDB.
// A path dependency's identity is its directory's name, which depends on how the repository was cloned.
let rootIdentity = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent

let package = Package(
    name: "SQLiteSwiftlyBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // The raw C API baseline. It links the same system libsqlite3 as SQLiteSwiftly and GRDB.
        .target(name: "RawC", linkerSettings: [.linkedLibrary("sqlite3")]),
        .executableTarget(
            name: "sqliteswiftly-bench",
            dependencies: [
                "RawC",
                .product(name: "SQLiteSwiftly", package: rootIdentity),
                .product(name: "SQLiteSwiftlyMacros", package: rootIdentity),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
