import Foundation
import RawStructuredFieldValues
public import VettedCore

/// A part of an HTTP message a signature covers (RFC 9421 §2): a derived
/// component (`@method`, `@status`, …) or a header field, by its lower-case name.
public struct HTTPComponent: Sendable, Hashable, CustomStringConvertible {
    /// `@method` or a lower-case field name such as `content-digest`.
    public let name: String

    private init(uncheckedName name: String) { self.name = name }

    /// A component by its identifier: a derived one (`@status`) or a field name (any case).
    /// Unknown derived names are `unsupportedComponent`; names that are not tokens, `malformedHTTPSignature`.
    ///
    /// - Throws: `VettedError` (`unsupportedComponent`) for an unknown derived component or a name that is not a field name.
    public init(_ identifier: String) throws(VettedError) {
        self = try .parsed(identifier.hasPrefix("@") ? identifier : identifier.lowercased(), path: [])
    }

    /// A header field, by name (any case; kept lower-case). A name that is not
    /// an HTTP token is refused (`malformedHTTPSignature`) when a message is
    /// signed with it; ``init(_:)`` checks it at once.
    public static func field(_ name: String) -> HTTPComponent { HTTPComponent(uncheckedName: name.lowercased()) }

    /// The request method (`POST`).
    public static let method = HTTPComponent(uncheckedName: "@method")
    /// The full target URI (`https://example.com/foo?x=1`).
    public static let targetURI = HTTPComponent(uncheckedName: "@target-uri")
    /// Host and port, lower-case, without the scheme's default port.
    public static let authority = HTTPComponent(uncheckedName: "@authority")
    /// `http` or `https`.
    public static let scheme = HTTPComponent(uncheckedName: "@scheme")
    /// Path and query as they appear on the request line.
    public static let requestTarget = HTTPComponent(uncheckedName: "@request-target")
    /// The target URI's absolute path (`/` when empty).
    public static let path = HTTPComponent(uncheckedName: "@path")
    /// The query with its leading `?` (`?` alone when there is none).
    public static let query = HTTPComponent(uncheckedName: "@query")
    /// A response's three-digit status code.
    public static let status = HTTPComponent(uncheckedName: "@status")

    static let derived: Set<String> = [
        "@method", "@target-uri", "@authority", "@scheme", "@request-target", "@path", "@query", "@status",
    ]

    public var isDerived: Bool { name.hasPrefix("@") }
    public var description: String { name }

    /// A component read from a `Signature-Input` field: a derived name this
    /// library computes, or a lower-case field name.
    static func parsed(_ name: String, path: DocumentPath) throws(VettedError) -> HTTPComponent {
        if name.hasPrefix("@") {
            guard derived.contains(name) else {
                throw VettedError(
                    code: .unsupportedComponent, path: path,
                    message: "the derived component \(Excerpt.escape(name)) is not one this library computes")
            }
        } else {
            guard !name.isEmpty, name.utf8.allSatisfy({ isTokenByte($0) && !(0x41...0x5A).contains($0) }) else {
                throw VettedError(
                    code: .malformedHTTPSignature, path: path,
                    message: "\(Excerpt.escape(name)) is not a lower-case field name")
            }
        }
        return HTTPComponent(uncheckedName: name)
    }
}

extension SignatureAlgorithm {
    /// The algorithm's name in RFC 9421's registry: `ed25519`, `ecdsa-p256-sha256`, `hmac-sha256`.
    public var httpSignatureName: String {
        switch self {
        case .ed25519: "ed25519"
        case .p256: "ecdsa-p256-sha256"
        case .hmacSHA256: "hmac-sha256"
        }
    }

    public init?(httpSignatureName name: String) {
        guard let match = Self.allCases.first(where: { $0.httpSignatureName == name }) else { return nil }
        self = match
    }
}

/// Bounds on the signature fields a verifier reads, checked before they are parsed.
public struct HTTPSignatureLimits: Sendable, Hashable {
    /// Largest value of `Signature-Input`, `Signature` or `Content-Digest`, all lines joined, in bytes.
    public var maxFieldBytes: Int
    /// Most signatures (labels) in one message.
    public var maxSignatures: Int
    /// Most components one signature covers.
    public var maxComponents: Int

    public init(maxFieldBytes: Int = 8_192, maxSignatures: Int = 8, maxComponents: Int = 32) {
        self.maxFieldBytes = maxFieldBytes
        self.maxSignatures = maxSignatures
        self.maxComponents = maxComponents
    }

    public static let `default` = HTTPSignatureLimits()
}

/// What a verifier demands of a signature before it believes it.
///
/// A signature proves only what it covers, so the policy names the components
/// that must be covered; with ``requireContentDigest`` (the default)
/// `content-digest` is one of them, and the body is checked against it.
public struct HTTPSignaturePolicy: Sendable {
    /// Components every accepted signature must cover (besides `content-digest` when required).
    public var requiredComponents: [HTTPComponent]
    /// Whether the signature must cover `content-digest` and the body must match it.
    public var requireContentDigest: Bool
    /// Only the signature with this label is considered; `nil`: the first one that verifies.
    public var label: String?
    /// The oldest `created` accepted, as an age; `nil` accepts any age (then `expires` alone limits replay).
    public var maximumAge: Duration?
    /// Allowed difference between the signer's clock and ours.
    public var clockSkew: Duration
    /// Whether a signature without `created` is refused.
    public var requireCreated: Bool
    /// When set, the signature's `tag` must be exactly this (an application's own signatures only).
    public var expectedTag: String?
    public var limits: HTTPSignatureLimits

    public init(
        requiring requiredComponents: [HTTPComponent],
        requireContentDigest: Bool = true,
        maximumAge: Duration? = .seconds(300),
        clockSkew: Duration = .seconds(60),
        requireCreated: Bool = true,
        expectedTag: String? = nil,
        label: String? = nil,
        limits: HTTPSignatureLimits = .default
    ) {
        self.requiredComponents = requiredComponents
        self.requireContentDigest = requireContentDigest
        self.maximumAge = maximumAge
        self.clockSkew = clockSkew
        self.requireCreated = requireCreated
        self.expectedTag = expectedTag
        self.label = label
        self.limits = limits
    }

    /// For responses: `@status`, `content-type` and `content-digest` covered, at most five minutes old.
    public static func response(
        maximumAge: Duration? = .seconds(300), expectedTag: String? = nil
    ) -> HTTPSignaturePolicy {
        HTTPSignaturePolicy(requiring: [.status, .field("content-type")], maximumAge: maximumAge, expectedTag: expectedTag)
    }

    /// Every component a signature must cover under this policy, without repeats.
    var allRequired: [HTTPComponent] {
        var all: [HTTPComponent] = []
        for component in requiredComponents + (requireContentDigest ? [.field("content-digest")] : []) where !all.contains(component) {
            all.append(component)
        }
        return all
    }
}

/// The parameters of one signature (RFC 9421 §2.3).
public struct HTTPSignatureParameters: Sendable, Hashable {
    /// When it was made, in seconds since 1970.
    public var created: Int64?
    /// When it stops being valid, in seconds since 1970.
    public var expires: Int64?
    public var keyID: String?
    /// The algorithm's registry name, when the signer stated it.
    public var algorithm: String?
    public var nonce: String?
    public var tag: String?

    public init(
        created: Int64? = nil, expires: Int64? = nil, keyID: String? = nil, algorithm: String? = nil, nonce: String? = nil,
        tag: String? = nil
    ) {
        self.created = created
        self.expires = expires
        self.keyID = keyID
        self.algorithm = algorithm
        self.nonce = nonce
        self.tag = tag
    }
}

/// A message whose signature verified under a policy.
public struct VerifiedHTTPMessage: Sendable {
    public let message: HTTPMessage
    /// The label of the signature that verified.
    public let label: String
    public let keyID: KeyID
    public let algorithm: SignatureAlgorithm
    /// What the signature covers, in its order.
    public let coveredComponents: [HTTPComponent]
    public let parameters: HTTPSignatureParameters
    /// The exact bytes the signature is over.
    public let signatureBase: String
    /// The body, checked against the covered `Content-Digest`; `nil` when the
    /// signature does not cover `content-digest` (then nothing vouches for the body).
    public let body: VerifiedBytes?

    /// ``body``, or `uncoveredComponent` when the signature does not cover
    /// `content-digest` (a policy with `requireContentDigest`, the default, never gets here).
    public var verifiedBody: VerifiedBytes {
        get throws(VettedError) {
            guard let body else {
                throw VettedError(
                    code: .uncoveredComponent, path: [.key("content-digest")],
                    message: "the signature does not cover content-digest: nothing vouches for the body")
            }
            return body
        }
    }
}
