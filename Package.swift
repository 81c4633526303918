// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "SQLiteSwiftly",
    platforms: [
        .macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2),
    ],
    products: [
        .library(name: "SQLiteSwiftly", targets: ["SQLiteSwiftly"]),
        .executable(name: "planets", targets: ["planets"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(name: "SQLiteSwiftly", dependencies: ["CSQLite"]),
        .executableTarget(name: "planets", dependencies: ["SQLiteSwiftly"], path: "Examples/planets"),
        .testTarget(name: "SQLiteSwiftlyTests", dependencies: ["SQLiteSwiftly", "CSQLite"]),
    ],
    swiftLanguageModes: [.v6]
)
