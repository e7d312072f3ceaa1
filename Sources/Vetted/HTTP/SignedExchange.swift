public import Foundation
public import VettedRaw

/// What the adapters' RFC 9421 middleware checks of a request before its handler
/// runs: a signature by a trusted key that satisfies `policy` (with the body
/// checked against its covered `Content-Digest` when the policy requires one).
public struct HTTPRequestVerification: Sendable {
    public var keys: TrustedKeys
    public var policy: HTTPSignaturePolicy
    /// The scheme and authority clients sign (`https://api.example.com`), as the server's
    /// public address; `nil` takes them from the request (`http` when it names no scheme).
    public var origin: String?
    /// The most body bytes read to check the digest; more is 413.
    public var maxBodyBytes: Int

    public init(trusting keys: TrustedKeys, policy: HTTPSignaturePolicy, origin: String? = nil, maxBodyBytes: Int = 1 << 20) {
        self.keys = keys
        self.policy = policy
        self.origin = origin
        self.maxBodyBytes = maxBodyBytes
    }

    /// Verifies a request given by its parts.
    ///
    /// - Throws: ``VettedProblem`` (401) when no signature satisfies the policy, the key is not trusted or the body does not match its digest.
    public func verify(
        method: String, scheme: String?, authority: String?, pathAndQuery: String, fields: [HTTPMessage.Field], body: [UInt8],
        now: Date = Date()
    ) throws(VettedProblem) -> VerifiedHTTPMessage {
        let origin = origin ?? "\(scheme ?? "http")://\(authority ?? "")"
        let message = HTTPMessage(method: method, targetURI: origin + pathAndQuery, fields: fields, body: body)
        do {
            return try HTTPSignatures.verify(message, trusting: keys, policy: policy, now: now)
        } catch {
            throw VettedProblem(error)
        }
    }
}

/// How the adapters' RFC 9421 middleware signs a response: a SHA-256
/// `Content-Digest` of its body, then a signature by `key` over `components`.
public struct HTTPResponseSigning: Sendable {
    public var key: SigningKey
    public var label: String
    public var components: [HTTPComponent]
    public var tag: String?
    /// The most body bytes read to sign; a larger response is not sent (an error the server logs).
    public var maxBodyBytes: Int

    /// Covers `@status`, `content-type` and `content-digest` by default, what ``VettedRaw/HTTPSignaturePolicy/response(maximumAge:expectedTag:)`` requires.
    public init(
        key: SigningKey, label: String = "sig1", components: [HTTPComponent] = [.status, .field("content-type"), .field("content-digest")],
        tag: String? = nil, maxBodyBytes: Int = 16 << 20
    ) {
        self.key = key
        self.label = label
        self.components = components
        self.tag = tag
        self.maxBodyBytes = maxBodyBytes
    }

    /// The fields to add to a response with `status`, `fields` and `body`:
    /// `Content-Digest`, `Signature-Input` and `Signature`.
    ///
    /// - Throws: `VettedError` when the response lacks a covered component (a `Content-Type`, say).
    public func fields(status: Int, fields: [HTTPMessage.Field], body: [UInt8], now: Date = Date()) throws(VettedError) -> [HTTPMessage.Field] {
        var message = HTTPMessage(status: status, fields: fields.filter { !Self.replaced.contains($0.name.lowercased()) }, body: body)
        message.setContentDigest(.sha256)
        try HTTPSignatures.sign(&message, label: label, covering: components, with: key, created: now, tag: tag)
        return message.fields.filter { Self.replaced.contains($0.name.lowercased()) }
    }

    /// The fields signing writes (any the response had are replaced).
    static let replaced: Set<String> = ["content-digest", "signature-input", "signature"]
}
