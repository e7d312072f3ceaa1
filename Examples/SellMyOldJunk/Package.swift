// swift-tools-version: 6.2
// Sell My Old Junk: the example app of "Data You Can Trust" (WWDC 2018), built on Vetted.
// A nested package, so that Vetted's users never download its server and database dependencies.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "SellMyOldJunk",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "junk", targets: ["junk"]),
        .executable(name: "junk-server", targets: ["junk-server"]),
    ],
    dependencies: [
        // The Hummingbird trait: the server reads request bodies with VettedHummingbird.
        .package(name: "Vetted", path: "../..", traits: ["Hummingbird"]),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // The talk's model types and their rules: one definition for server, client, tests and Vetted's own tests.
        .target(
            name: "JunkModel",
            dependencies: [
                .product(name: "VettedCore", package: "Vetted"), .product(name: "VettedRules", package: "Vetted"),
                .product(name: "VettedJSON", package: "Vetted"), .product(name: "VettedArchive", package: "Vetted"),
                .product(name: "VettedMacros", package: "Vetted"), .product(name: "VettedRaw", package: "Vetted"),
                .product(name: "Vetted", package: "Vetted"),
            ],
            swiftSettings: strictSettings),
        // The listings server: Hummingbird routes, GRDB storage, signed responses.
        .target(
            name: "JunkServer",
            dependencies: [
                "JunkModel",
                .product(name: "Vetted", package: "Vetted"),
                .product(name: "VettedMacros", package: "Vetted"),
                .product(name: "VettedHummingbird", package: "Vetted"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings),
        // The validating client and the offline purchase history.
        .target(
            name: "JunkClient",
            dependencies: [
                "JunkModel",
                .product(name: "Vetted", package: "Vetted"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings),
        // The demo and its tamper tour, and the load generator.
        .target(
            name: "JunkDemo",
            dependencies: [
                "JunkServer", "JunkClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings),
        .executableTarget(
            name: "junk",
            dependencies: ["JunkDemo", "JunkClient", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSettings),
        .executableTarget(
            name: "junk-server",
            dependencies: ["JunkServer", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSettings),
        .testTarget(
            name: "JunkTests",
            dependencies: [
                "JunkDemo", "JunkServer", "JunkClient", "JunkModel",
                .product(name: "Vetted", package: "Vetted"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
