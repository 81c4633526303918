// swift-tools-version: 6.0
import Foundation
import PackageDescription

// A package that has its own target named `CSQLite`, as many SQLite packages do, and depends on SQLiteSwiftly.
// SwiftPM refuses a package graph in which two targets share a name, so this builds only if SQLiteSwiftly's
// system-library module has a name of its own. CI builds and runs it (`.ci/run`).
//
// A path dependency's identity is its directory's name, which depends on how the repository was cloned.
let rootIdentity = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "CSQLiteClash",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../../..")],
    targets: [
        .target(name: "CSQLite"),
        .executableTarget(
            name: "clash",
            dependencies: ["CSQLite", .product(name: "SQLiteSwiftly", package: rootIdentity)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
