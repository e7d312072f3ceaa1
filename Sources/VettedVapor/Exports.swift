#if Vapor  // the trait that brings in the framework (Package.swift)
// `import VettedVapor` brings in Vetted and Vapor.
@_exported public import Vapor
@_exported public import Vetted
#else
/// Without the `Vapor` trait this module is empty: add it where you depend on Vetted,
/// `.package(url: "…", from: "…", traits: ["Vapor"])`, so that Vapor is resolved and built.
@available(*, unavailable, message: "enable Vetted's Vapor trait: .package(url: …, from: …, traits: [\"Vapor\"])")
public enum VettedVaporNeedsItsTrait {}
#endif
