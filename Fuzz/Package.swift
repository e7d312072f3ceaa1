// swift-tools-version: 6.2
import PackageDescription
import struct Foundation.URL

// The root package's identity is its folder's name, whatever the clone is called.
let vetted = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// Fuzz targets that need swift-crypto, built by SwiftPM (scripts/fuzz.sh raw):
// with -D FUZZING and --sanitize fuzzer the entry point is libFuzzer's; without,
// `fuzz-raw FILE…` replays inputs (crashers, seeds) through the same checks.
let package = Package(
    name: "VettedFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(name: "fuzz-raw", dependencies: [.product(name: "Vetted", package: vetted)], path: "Raw")
    ],
    swiftLanguageModes: [.v6]
)
