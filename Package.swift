// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "SQLiteSwiftly",
    platforms: [
        .macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2),
    ],
    products: [
        .library(name: "SQLiteSwiftly", targets: ["SQLiteSwiftly"]),
        .library(name: "SQLiteSwiftlyMacros", targets: ["SQLiteSwiftlyMacros"]),
        .executable(name: "planets", targets: ["planets"]),
        .executable(name: "sqliteswiftly-models", targets: ["sqliteswiftly-models"]),
    ],
    // The `Macros` trait, on by default, brings swift-syntax for the @Table macro. An app that uses only the
    // SQLiteSwiftly product can turn it off, `.package(path: ..., traits: [])`, and then SwiftPM does not even
    // fetch swift-syntax (see Benchmarks/README.md, "Build cost of the macro product").
    traits: [
        .trait(name: "Macros", description: "The @Table macro (the SQLiteSwiftlyMacros product), with swift-syntax."),
        .default(enabledTraits: ["Macros"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", "602.0.0"..<"604.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
    ],
    targets: [
        // The module is named after this package, so that an app can also depend on another package with a
        // `CSQLite` target: SwiftPM refuses two targets with one name in a package graph.
        .systemLibrary(
            name: "CSQLiteSwiftly",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(name: "SQLiteSwiftly", dependencies: ["CSQLiteSwiftly"]),
        .executableTarget(name: "planets", dependencies: ["SQLiteSwiftly"], path: "Examples/planets"),
        .target(
            name: "SQLiteSwiftlyModelGenerator",
            dependencies: ["SQLiteSwiftly", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(name: "sqliteswiftly-models", dependencies: ["SQLiteSwiftlyModelGenerator"]),
        .testTarget(
            name: "SQLiteSwiftlyModelGeneratorTests",
            dependencies: ["SQLiteSwiftly", "SQLiteSwiftlyModelGenerator", "ShopPublicModels"]
        ),
        // The generator's `--access public` output for the shop fixture, compiled as a library of its own, as an app
        // would keep shared models; the generator tests use it from another module.
        .target(name: "ShopPublicModels", dependencies: ["SQLiteSwiftly"], path: "Tests/ShopPublicModels"),
        .testTarget(
            name: "SQLiteSwiftlyTests",
            dependencies: [
                "SQLiteSwiftly", "CSQLiteSwiftly", .product(name: "PropertyBased", package: "swift-property-based"),
                "SQLiteSwiftlyMacros",  // the articles that continue from Getting Started declare models with @Table
            ]
        ),
        // A child process for the crash-safety tests: commits numbered transactions until it is killed.
        .executableTarget(name: "CrashWriter", dependencies: ["SQLiteSwiftly"], path: "Tests/CrashWriter"),
        // A child process for the contention tests: one of several writers committing short transactions.
        .executableTarget(name: "ContentionWriter", dependencies: ["SQLiteSwiftly"], path: "Tests/ContentionWriter"),
        // A child process for the changeset convergence test: one of two databases kept in step.
        .executableTarget(name: "SyncPeer", dependencies: ["SQLiteSwiftly"], path: "Tests/SyncPeer"),
        // The README's Swift blocks in order, as one program (generated; ReadmeWalkthroughTests checks and runs it).
        .executableTarget(
            name: "ReadmeWalkthrough", dependencies: ["SQLiteSwiftlyMacros"], path: "Tests/ReadmeWalkthrough"),
        // A child process for the memory-pressure test: SQLite's heap limit is global to a process.
        .executableTarget(
            name: "MemoryProbe", dependencies: ["SQLiteSwiftly", "CSQLiteSwiftly"], path: "Tests/MemoryProbe"),
        .macro(
            name: "SQLiteSwiftlyMacrosPlugin",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax", condition: .when(traits: ["Macros"])),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax", condition: .when(traits: ["Macros"])),
                .product(name: "SwiftSyntax", package: "swift-syntax", condition: .when(traits: ["Macros"])),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax", condition: .when(traits: ["Macros"])),
                .product(name: "SwiftDiagnostics", package: "swift-syntax", condition: .when(traits: ["Macros"])),
            ]
        ),
        .target(
            name: "SQLiteSwiftlyMacros",
            dependencies: [
                "SQLiteSwiftly", .target(name: "SQLiteSwiftlyMacrosPlugin", condition: .when(traits: ["Macros"])),
            ]
        ),
        .testTarget(
            name: "SQLiteSwiftlyMacrosTests",
            dependencies: [
                "SQLiteSwiftlyMacros", "SQLiteSwiftlyMacrosPlugin",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
