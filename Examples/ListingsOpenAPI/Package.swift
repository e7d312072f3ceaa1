// swift-tools-version: 6.2
// The talk's listings API described by an OpenAPI document: swift-openapi-generator writes the
// server stubs, Hummingbird serves them, and VettedOpenAPIMiddleware enforces the document's
// constraints (which the generator ignores) before a handler runs. A nested package, so that
// Vetted's users never download the generator.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "ListingsOpenAPI",
    platforms: [.macOS(.v15)],
    products: [.executable(name: "listings-api", targets: ["listings-api"])],
    dependencies: [
        // The OpenAPI trait: VettedOpenAPI and its swift-openapi-runtime.
        .package(name: "Vetted", path: "../..", traits: ["OpenAPI"]),
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.0"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The document, the generated stubs (by the generator's build plugin), the handlers and the app.
        .target(
            name: "ListingsAPI",
            dependencies: [
                .product(name: "VettedOpenAPI", package: "Vetted"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            resources: [.copy("openapi.yaml")],
            swiftSettings: strictSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]),
        .executableTarget(
            name: "listings-api",
            dependencies: ["ListingsAPI", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ListingsAPITests",
            dependencies: ["ListingsAPI", .product(name: "HummingbirdTesting", package: "hummingbird")],
            swiftSettings: strictSettings),
    ]
)
