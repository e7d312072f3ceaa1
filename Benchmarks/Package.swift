// swift-tools-version: 6.2
import PackageDescription
import struct Foundation.URL

// A path dependency is identified by its folder's name, which is whatever the
// clone is called: read it instead of assuming "Vetted".
let vetted = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// Nested package: library users never resolve these dependencies.
let package = Package(
    name: "VettedBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Both adapters' traits: adapter-server loads VettedHummingbird and VettedVapor.
        .package(path: "..", traits: ["Hummingbird", "Vapor"]),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The deterministic "listings" corpus of the talk's shape, any size.
        .target(
            name: "ListingsCorpus", dependencies: [.product(name: "Vetted", package: vetted)],
            swiftSettings: [.treatAllWarnings(as: .error)]),
        // `make-listings --bytes N [--seed S]` writes a corpus to standard output.
        .executableTarget(
            name: "make-listings",
            dependencies: [
                "ListingsCorpus",
                .product(name: "Vetted", package: vetted),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // `compare SUBCOMMAND INPUT`: Vetted against its Foundation peer, same bytes, one process.
        .executableTarget(
            name: "compare",
            dependencies: [
                .product(name: "Vetted", package: vetted),
                .product(name: "VettedMacros", package: vetted),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // package-benchmark suites: `swift package benchmark` (wall clock, instructions, allocations).
        // The servers `scripts/adapter-load.sh` loads with wrk: each framework's default decoding beside its adapter.
        .executableTarget(
            name: "adapter-server",
            dependencies: [
                .product(name: "Vetted", package: vetted),
                .product(name: "VettedHummingbird", package: vetted),
                .product(name: "VettedVapor", package: vetted),
                .product(name: "VettedMacros", package: vetted),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        .executableTarget(
            name: "JSONBenchmarks",
            dependencies: [
                "ListingsCorpus",
                .product(name: "Vetted", package: vetted),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/JSONBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
