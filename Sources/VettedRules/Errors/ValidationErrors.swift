#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import VettedCore

/// What a decoder does with rule violations.
public enum ValidationMode: Sendable, Hashable {
    /// Keep decoding and collect violations, at most `cap` (the rest are counted).
    case collect(upTo: Int)
    /// Throw the first violation.
    case failFast

    /// Collect up to 100.
    public static let collect = ValidationMode.collect(upTo: 100)
}

/// Every rule violation found while decoding, each with its path.
///
/// The stages of a decode fail with their own types:
/// - the raw gate throws ``VettedCore/VettedError``;
/// - the parser and the structure throw `DecodingError`, with the located
///   `VettedError` (code, `$`-path, offset, excerpt) as `underlyingError`
///   (`DecodingError.vettedError`);
/// - the rules throw `ValidationErrors`, when the whole document has the
///   model's shape: a structural failure is the call's answer whatever rules
///   failed before it, so one bad value reports one stage and one path;
/// - a rule declared wrong (a key the type never decodes, a rule of another
///   type than its field) throws a `VettedError` whose code
///   ``VettedCore/VettedError/Code/isRuleDeclaration`` is true: a
///   programmer's error, in every mode.
///
/// `VettedFailure(error)` reads any of them as one value: its stage and its located errors.
public struct ValidationErrors: Error, Sendable, CustomStringConvertible {
    public let errors: [VettedError]
    /// Violations beyond the cap, counted but not kept.
    public let omitted: Int

    public init(errors: [VettedError], omitted: Int = 0) {
        self.errors = errors
        self.omitted = omitted
    }

    public var description: String {
        var lines = errors.map { "\($0.path): \($0.code): \($0.message)" }
        if omitted > 0 { lines.append("… and \(omitted) more") }
        return lines.joined(separator: "\n")
    }

    /// The same failure as a `DecodingError`, for code that expects one: the
    /// first violation's path, and `self` as `underlyingError`.
    public var decodingError: DecodingError {
        let first = errors.first
        return .dataCorrupted(
            .init(
                codingPath: first?.path.components.map(PathKey.init) ?? [],
                debugDescription: first.map { "\($0.code): \($0.message)" } ?? "validation failed", underlyingError: self))
    }
}

extension ValidationErrors: LocalizedError {
    /// `3 values break their rules: $[0].id: outOfRange: must be between 1 and 2147483647; …`
    /// — at most three violations, each with its path and code; never a value.
    public var errorDescription: String? {
        let count = errors.count + omitted
        let shown = errors.prefix(3).map { "\($0.path): \($0.code): \($0.message)" }
        var text = count == 1 ? "1 value breaks its rules: " : "\(count) values break their rules: "
        text += shown.joined(separator: "; ")
        if count > shown.count { text += "; and \(count - shown.count) more" }
        return text
    }
}
