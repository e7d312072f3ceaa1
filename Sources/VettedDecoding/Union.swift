#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import VettedCore
import VettedRules

/// A tagged union marked `@Vetted(tag:)`: an enum whose cases each carry one
/// `@Vetted` struct, told apart by a tag member. Generated code only.
@_documentation(visibility: private)
public protocol _VettedUnion: _VettedArrayElement {
    /// The tag key, the content key, each case's tag and payload type.
    static var __vettedUnion: _VettedUnionTable { get }
    /// One value read as the bytes come: ``_VettedArraySource/beginUnion(_:)`` reads the
    /// tag and gives the case, whose payload the generated body then reads. Anything in
    /// doubt is a miss, and the decoder decodes the input again with `init(from:)`.
    init<Source: _VettedArraySource>(__vettedUnion source: inout Source) throws
}

/// What a tagged union's generated `init(from:)` and `encode(to:)` share: its
/// keys, its tags (looked up by hash: constant time in the number of cases)
/// and the checks of its declaration. Generated code only.
@_documentation(visibility: private)
public final class _VettedUnionTable: Sendable {
    /// The member that holds the tag.
    package let tag: String
    /// The member that holds the payload (adjacently tagged), or `nil` (internally tagged: the payload's members sit beside the tag).
    package let content: String?
    /// Each case's tag, in declaration order (the payload-carrying cases).
    package let tags: [String]
    /// Each tag's UTF-8 bytes.
    package let tagBytes: [[UInt8]]
    /// Each case's payload type (each a ``_VettedDecodable``).
    package let payloads: [Any.Type]
    /// Whether an unknown tag decodes as the `@UnknownTag` case instead of failing.
    package let hasFallback: Bool
    /// The keys' UTF-8 bytes.
    package let tagKeyBytes: [UInt8]
    package let contentKeyBytes: [UInt8]?
    /// Whether the declaration can work (no key is also a payload's field).
    package var isSound: Bool { conflict == nil }
    private let index: [String: Int]
    /// Why the declaration cannot work (a key that is also a payload's field), or `nil`.
    private let conflict: String?

    public init(tag: String, content: String?, tags: [String], payloads: [any _VettedDecodable.Type], fallback: Bool) {
        self.tag = tag
        self.content = content
        self.tags = tags
        self.payloads = payloads
        hasFallback = fallback
        tagBytes = tags.map { Array($0.utf8) }
        tagKeyBytes = Array(tag.utf8)
        contentKeyBytes = content.map { Array($0.utf8) }
        var index: [String: Int] = [:]
        for (position, name) in tags.enumerated() where index[name] == nil { index[name] = position }
        self.index = index
        var conflict: String?
        if content == nil {
            for payload in payloads {
                let fields = payload.__vettedFields
                if fields.spellings.contains(tag) {
                    conflict = "the tag key \"\(tag)\" is also a field of \(payload): internally tagged, the document could not say which is meant"
                }
            }
        }
        self.conflict = conflict
    }

    private var tagKey: _VettedKey { _VettedKey(tag) }

    /// The case whose tag is `name` (a hashed lookup, Strings compared as Strings), or `nil`.
    package func caseIndex(ofTag name: String) -> Int? { index[name] }

    /// The case of the tag in `container` (its position in ``tags``), or -1 for an
    /// unknown tag when the union has an `@UnknownTag` case.
    ///
    /// - Throws: `DecodingError.dataCorrupted` carrying `missingTag` (at the object) or
    ///   `unknownTag` (at the tag); the tag's own `typeMismatch` / `valueNotFound`; a
    ///   `VettedError` with `unionKeyIsPayloadField` for a union declared wrong.
    public func caseIndex(in container: KeyedDecodingContainer<_VettedKey>, of decoder: any Decoder) throws -> Int {
        if let conflict { throw VettedError(code: .unionKeyIsPayloadField, message: conflict) }
        // The declaration probe holds every key with stand-in values: it walks the first case.
        if let probe = DeclarationProbeKey.key, decoder.userInfo[probe] != nil { return 0 }
        guard container.contains(tagKey) else {
            throw DecodingError.vetted(.missingTag, at: container.codingPath, "no tag \"\(Excerpt.escape(tag, quotes: false))\" in the object")
        }
        let name = try container.decode(String.self, forKey: tagKey)
        if let position = caseIndex(ofTag: name) { return position }
        if hasFallback { return -1 }
        throw unknownTag(name, codingPath: container.codingPath + [tagKey])
    }

    /// `unknownTag` for `name` at `codingPath`, listing the known tags (escaped, at most ten).
    package func unknownTag(_ name: String, codingPath: [any CodingKey]) -> DecodingError {
        var known = tags.prefix(10).map { "\"" + Excerpt.escape($0, maximumBytes: 40, quotes: false) + "\"" }.joined(separator: ", ")
        if tags.count > 10 { known += ", … (\(tags.count) in all)" }
        return DecodingError.vetted(
            .unknownTag, at: codingPath, "unknown tag \"\(Excerpt.escape(name, maximumBytes: 40, quotes: false))\"; known tags: \(known)")
    }

    /// The payload of a case: the same object's members (internally tagged), or the content member's value.
    ///
    /// - Throws: what decoding the payload throws; `keyNotFound` for a missing content member.
    public func payload<P: _VettedDecodable>(_ type: P.Type, from decoder: any Decoder, _ container: KeyedDecodingContainer<_VettedKey>) throws -> P {
        guard let content else { return try decoder.singleValueContainer().decode(P.self) }
        return try container.decode(P.self, forKey: _VettedKey(content))
    }

    /// The tag of the `@UnknownTag` case.
    ///
    /// - Throws: the tag's `typeMismatch`.
    public func unknownTagName(in container: KeyedDecodingContainer<_VettedKey>) throws -> String {
        try container.decode(String.self, forKey: tagKey)
    }

    /// The `@UnknownTag` case written back: its tag alone.
    ///
    /// - Throws: what the encoder throws.
    public func encodeTag(_ name: String, to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _VettedKey.self)
        try container.encode(name, forKey: tagKey)
    }

    /// A case index ``caseIndex(in:of:)`` never gives: a defect, said loudly.
    public func invalidCase() -> VettedError {
        VettedError(code: .internalInvariantViolated, message: "a tagged union's tag gave no case")
    }

    /// Writes a case: its tag, then its payload beside it or under the content key.
    ///
    /// - Throws: what the encoder and the payload's `encode(to:)` throw.
    public func encode<P: Encodable>(_ payload: P, tag name: String, to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _VettedKey.self)
        try container.encode(name, forKey: tagKey)
        if let content {
            try container.encode(payload, forKey: _VettedKey(content))
        } else {
            try payload.encode(to: encoder)
        }
    }
}
