import Foundation
public import VettedCore
public import VettedJSON

// What server and client agree on besides the model: paths, headers, limits.

public enum ListingsAPI {
    /// `Content-Digest: sha-256=:BASE64:` (RFC 9530) — the SHA-256 of the body.
    public static let digestHeader = "Content-Digest"
    /// A Vetted detached signature (`VSIG`) of the body, base64.
    public static let signatureHeader = "Vetted-Signature"
    /// The largest listing a client may POST.
    public static let maximumPostBytes = 64 * 1024
    /// The largest `GET /listings` response a client accepts by default.
    public static let maximumResponseBytes = 4 * 1024 * 1024

    /// Parser limits for listings, on both sides: shallow documents, bounded size.
    public static let parserLimits = Limits(maxInputBytes: maximumResponseBytes, maxDepth: 8)

    /// The decoder server and client share: the talk's ISO 8601 dates, ``parserLimits``,
    /// rule violations collected up to `maximumProblems`.
    public static func makeDecoder(maximumProblems: Int = 100) -> VettedJSONDecoder {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.limits = parserLimits
        decoder.validationMode = .collect(upTo: maximumProblems)
        return decoder
    }

    /// The header value for a SHA-256 digest given as base64.
    public static func digestHeaderValue(base64 digest: String) -> String { "sha-256=:\(digest):" }

    /// The base64 SHA-256 digest in a `Content-Digest` value, or nil when the value has no `sha-256` member.
    public static func sha256(fromDigestHeader value: String) -> String? {
        for member in value.split(separator: ",") {
            let trimmed = member.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("sha-256=:"), trimmed.hasSuffix(":"), trimmed.count > "sha-256=::".count else { continue }
            return String(trimmed.dropFirst("sha-256=:".count).dropLast())
        }
        return nil
    }
}
