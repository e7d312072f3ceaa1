#if Hummingbird  // the trait that brings in the framework (Package.swift)
// `import VettedHummingbird` brings in Vetted and Hummingbird.
@_exported public import Hummingbird
@_exported public import Vetted
#else
/// Without the `Hummingbird` trait this module is empty: add it where you depend on Vetted,
/// `.package(url: "…", from: "…", traits: ["Hummingbird"])`, so that Hummingbird is resolved and built.
@available(*, unavailable, message: "enable Vetted's Hummingbird trait: .package(url: …, from: …, traits: [\"Hummingbird\"])")
public enum VettedHummingbirdNeedsItsTrait {}
#endif
