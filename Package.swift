// swift-tools-version: 6.2
import CompilerPluginSupport
import PackageDescription

/// Settings every Vetted target shares: Swift 6 mode comes from
/// `swiftLanguageModes`; warnings are errors; unsafe constructs must be marked.
let strictSettings: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
    .strictMemorySafety(),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Vetted",
    products: [
        .library(name: "Vetted", targets: ["Vetted"]),
        // Each stage on its own, for code that needs only one (and keeps swift-crypto out unless it uses VettedRaw).
        .library(name: "VettedCore", targets: ["VettedCore"]),
        .library(name: "VettedRules", targets: ["VettedRules"]),
        .library(name: "VettedRaw", targets: ["VettedRaw"]),
        .library(name: "VettedJSON", targets: ["VettedJSON"]),
        .library(name: "VettedPlist", targets: ["VettedPlist"]),
        .library(name: "VettedArchive", targets: ["VettedArchive"]),
        // JSON Schema 2020-12 and draft 7: any JSON against a schema, no Swift type needed.
        .library(name: "VettedJSONSchema", targets: ["VettedJSONSchema"]),
        // `@Vetted` and `@Check`: the only product that builds swift-syntax.
        .library(name: "VettedMacros", targets: ["VettedMacros"]),
        // Framework adapters, each with its trait (see `traits`); without it the product is empty.
        .library(name: "VettedHummingbird", targets: ["VettedHummingbird"]),
        .library(name: "VettedVapor", targets: ["VettedVapor"]),
        // An OpenAPI document's constraints checked before swift-openapi-generator's handlers run.
        .library(name: "VettedOpenAPI", targets: ["VettedOpenAPI"]),
        .executable(name: "vet", targets: ["vet"]),
    ],
    // The adapters' frameworks are behind traits, off unless asked for: a package that depends
    // on Vetted without them neither resolves nor builds Hummingbird or Vapor (5 packages
    // resolved instead of 32). Ask with `.package(url: …, from: …, traits: ["Hummingbird"])`.
    traits: [
        .trait(name: "Hummingbird", description: "VettedHummingbird: Vetted at the door of a Hummingbird 2 server."),
        .trait(name: "Vapor", description: "VettedVapor: Vetted at the door of a Vapor 4 server."),
        .trait(
            name: "OpenAPI",
            description: "VettedOpenAPI: an OpenAPI 3.0/3.1 document's schemas enforced by a swift-openapi-runtime ServerMiddleware."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // 4.x: CryptoExtras reads and writes Ed25519 keys as PKCS#8 / SubjectPublicKeyInfo.
        .package(url: "https://github.com/apple/swift-crypto", "4.0.0"..<"5.0.0"),
        // RFC 8941/9651 structured fields, for RFC 9421 HTTP message signatures.
        .package(url: "https://github.com/apple/swift-http-structured-headers", from: "1.1.0"),
        // For VettedMacros only. The plugin builds, and the macro and doc-sample tests pass,
        // against 600.0.1, 602.0.0 and 603.0.1 (each tried once); a range this wide lets
        // Vetted resolve beside other macro packages.
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.1"..<"604.0.0"),
        // For the adapters only (VettedHummingbird, VettedVapor), each used only under its trait.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        // Both frameworks' own; the Hummingbird adapter times request bodies on NIO's event loops.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // NIO's HTTP parts in swift-http-types' terms, as Hummingbird's channel passes them (VettedConnectionCloser).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // For VettedOpenAPI only, under its trait: the generator's runtime (ServerMiddleware, HTTPBody),
        // its HTTP types, and Yams for documents written in YAML (the generator's own range, 6.x).
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.7.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // Limits, the one error vocabulary, and the single place raw bytes are scanned.
        .target(name: "VettedCore", swiftSettings: strictSettings),
        // Format-agnostic validation rules: ranges, lengths, patterns, URLs, dates.
        .target(name: "VettedRules", dependencies: ["VettedCore"], swiftSettings: strictSettings),
        // The raw stage: bounded reads, digests, signatures, envelopes, HTTP message signatures, PEM keys.
        .target(
            name: "VettedRaw",
            dependencies: [
                "VettedCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "RawStructuredFieldValues", package: "swift-http-structured-headers"),
            ],
            swiftSettings: strictSettings),
        // What both decoders share: the field source `@Vetted`'s one generated body reads.
        .target(name: "VettedDecoding", dependencies: ["VettedCore", "VettedRules"], swiftSettings: strictSettings),
        // The strict JSON parser, JSONValue, the writer and the decoder.
        .target(name: "VettedJSON", dependencies: ["VettedCore", "VettedRules", "VettedDecoding"], swiftSettings: strictSettings),
        // A JSON Schema validator (2020-12 and draft 7) on the strict parser: bounded, located, no network.
        .target(name: "VettedJSONSchema", dependencies: ["VettedCore", "VettedRules", "VettedJSON"], swiftSettings: strictSettings),
        // Binary and XML property lists, read and write.
        .target(name: "VettedPlist", dependencies: ["VettedCore", "VettedRules", "VettedDecoding"], swiftSettings: strictSettings),
        // Secure keyed archives: NSKeyedArchiver's format with NSSecureCoding's semantics.
        .target(name: "VettedArchive", dependencies: ["VettedCore", "VettedRules", "VettedPlist"], swiftSettings: strictSettings),
        // Umbrella module: re-exports every stage, and joins them (the gate → decode pipeline).
        .target(
            name: "Vetted", dependencies: ["VettedCore", "VettedRules", "VettedRaw", "VettedJSON", "VettedPlist", "VettedArchive", "VettedJSONSchema"],
            swiftSettings: strictSettings),
        // The compiler plugin behind `@Vetted` and `@Check` (runs at build time, on the host).
        .macro(
            name: "VettedMacrosPlugin",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                // LinearPattern: a literal `.pattern("…")` is compiled at build time, so one that does not compile is a compile error.
                "VettedRules",
            ],
            swiftSettings: strictSettings),
        // `@Vetted` / `@Check` and what their expansions call. No core product depends on it.
        .target(name: "VettedMacros", dependencies: ["VettedMacrosPlugin", "VettedCore", "VettedRules", "VettedDecoding", "VettedJSON", "VettedPlist"], swiftSettings: strictSettings),
        // Hummingbird 2: Vetted's decoders as its RequestDecoder, problem details, RFC 9421 middleware.
        .target(
            name: "VettedHummingbird",
            dependencies: [
                "Vetted", .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Hummingbird"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Hummingbird"])),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: .when(traits: ["Hummingbird"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Hummingbird"])),
            ],
            swiftSettings: strictSettings),
        // Vapor 4: Vetted's decoders as its ContentDecoder, problem details, RFC 9421 middleware.
        .target(
            name: "VettedVapor",
            dependencies: ["Vetted", .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"]))],
            swiftSettings: strictSettings),
        // OpenAPI 3.0/3.1: a document's request schemas checked in front of swift-openapi-generator's handlers.
        .target(
            name: "VettedOpenAPI",
            dependencies: [
                "Vetted",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: ["OpenAPI"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["OpenAPI"])),
                .product(name: "Yams", package: "Yams", condition: .when(traits: ["OpenAPI"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["OpenAPI"])),
            ],
            swiftSettings: strictSettings),
        .executableTarget(
            name: "vet",
            dependencies: [
                "Vetted",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // Helpers shared by the test targets: exact-error capture, seeded randomness.
        .target(
            name: "VettedTestSupport", dependencies: ["VettedCore", "VettedRules", "VettedRaw", "VettedPlist", "VettedArchive", "VettedMacros"],
            path: "Tests/VettedTestSupport",
            swiftSettings: strictSettings),
        .testTarget(name: "VettedCoreTests", dependencies: ["VettedCore", "VettedTestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "VettedArchiveTests", dependencies: ["VettedArchive", "VettedPlist", "VettedRules", "VettedTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "VettedRawTests", dependencies: ["Vetted", "VettedTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "VettedRulesTests", dependencies: ["VettedRules", "VettedTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "VettedJSONTests", dependencies: ["VettedJSON", "VettedTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "VettedJSONSchemaTests", dependencies: ["VettedJSONSchema", "VettedJSON", "VettedTestSupport"], swiftSettings: strictSettings),
        // Foundation's PropertyListDecoder in a process of its own, for tests that show it crash.
        .executableTarget(name: "foundation-plist-probe", path: "Tests/FoundationPlistProbe", swiftSettings: strictSettings),
        .testTarget(
            name: "VettedPlistTests", dependencies: ["VettedPlist", "VettedJSON", "VettedTestSupport", "foundation-plist-probe"],
            swiftSettings: strictSettings),
        .testTarget(name: "VetCLITests", dependencies: ["vet", "Vetted", "VettedTestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "VettedMacrosTests",
            dependencies: [
                "VettedMacros", "VettedMacrosPlugin", "VettedJSON", "VettedJSONSchema", "VettedPlist", "VettedTestSupport",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "VettedHummingbirdTests",
            dependencies: [
                "VettedHummingbird", "VettedMacros", "VettedTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "VettedVaporTests",
            dependencies: [
                "VettedVapor", "VettedMacros", "VettedTestSupport", .product(name: "VaporTesting", package: "vapor", condition: .when(traits: ["Vapor"])),
            ],
            swiftSettings: strictSettings),
        .testTarget(name: "VettedOpenAPITests", dependencies: ["VettedOpenAPI", "VettedTestSupport"], swiftSettings: strictSettings),
        // Every Swift sample in the README and the DocC articles, compiled and run.
        .testTarget(name: "DocSampleTests", dependencies: ["Vetted", "VettedMacros"], swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
