// swift-tools-version: 6.2
import PackageDescription
import struct Foundation.URL

// The root package's identity is its folder's name, whatever the clone is called.
let vetted = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// Fuzz targets that need swift-crypto or Yams, built by SwiftPM (scripts/fuzz.sh raw, scripts/fuzz.sh openapi):
// with -D FUZZING and --sanitize fuzzer the entry point is libFuzzer's; without,
// `fuzz-raw FILE…` replays inputs (crashers, seeds) through the same checks.
let package = Package(
    name: "VettedFuzz",
    // The OpenAPI trait: VettedOpenAPI, with swift-openapi-runtime and Yams (a C library, hence SwiftPM).
    dependencies: [.package(path: "..", traits: ["OpenAPI"])],
    targets: [
        .executableTarget(name: "fuzz-raw", dependencies: [.product(name: "Vetted", package: vetted)], path: "Raw"),
        .executableTarget(name: "fuzz-openapi", dependencies: [.product(name: "VettedOpenAPI", package: vetted)], path: "OpenAPI"),
    ],
    swiftLanguageModes: [.v6]
)
