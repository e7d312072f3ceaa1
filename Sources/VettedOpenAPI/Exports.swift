#if OpenAPI  // the trait that brings in swift-openapi-runtime and Yams (Package.swift)
// `import VettedOpenAPI` brings in Vetted, swift-openapi-runtime and its HTTP types.
@_exported public import HTTPTypes
@_exported public import OpenAPIRuntime
@_exported public import Vetted
#else
/// Without the `OpenAPI` trait this module is empty: add it where you depend on Vetted,
/// `.package(url: "…", from: "…", traits: ["OpenAPI"])`, so that swift-openapi-runtime and Yams are resolved and built.
@available(*, unavailable, message: "enable Vetted's OpenAPI trait: .package(url: …, from: …, traits: [\"OpenAPI\"])")
public enum VettedOpenAPINeedsItsTrait {}
#endif
