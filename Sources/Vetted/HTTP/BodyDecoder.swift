import Foundation
public import VettedCore

/// Vetted's two decoders as the framework adapters use them: the media type each
/// reads, its limits, and a decode of bytes with per-call `userInfo`.
public protocol VettedBodyDecoder: Sendable {
    /// Limits for the parser; a body over `limits.maxInputBytes` is refused (413).
    var limits: Limits { get }
    /// The media type named in a refusal: `application/json`, `application/x-plist`.
    static var mediaTypeName: String { get }
    /// Whether a `Content-Type` value names a media type this decoder reads.
    static func reads(_ contentType: String?) -> Bool
    /// Decodes `type`, with `userInfo` added for this call only.
    func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], userInfo: [CodingUserInfoKey: any Sendable]) throws -> T
}

extension VettedJSONDecoder: VettedBodyDecoder {
    public static var mediaTypeName: String { "application/json" }
    /// `application/json` and `application/…+json`.
    public static func reads(_ contentType: String?) -> Bool { VettedMediaType.isJSON(contentType) }
}

extension VettedPropertyListDecoder: VettedBodyDecoder {
    public static var mediaTypeName: String { "application/x-plist" }
    /// `application/x-plist` (binary or XML).
    public static func reads(_ contentType: String?) -> Bool { VettedMediaType.isPropertyList(contentType) }
}

extension VettedBodyDecoder {
    /// Decodes `type` from a body already read, or throws the problem that refuses it:
    /// 413 over the limits, then 400, 422 or 500 as ``ProblemDetails`` says.
    ///
    /// - Throws: ``VettedProblem`` for every refusal of Vetted's; any other error as it is.
    public func decodeBody<T: Decodable>(_ type: T.Type, from bytes: [UInt8], userInfo: [CodingUserInfoKey: any Sendable] = [:]) throws -> T {
        guard bytes.count <= limits.maxInputBytes else {
            throw VettedProblem(
                VettedError(code: .inputSizeLimitExceeded, message: "the body is \(bytes.count) bytes, over the limit of \(limits.maxInputBytes)"))
        }
        do {
            return try decode(type, from: bytes, userInfo: userInfo)
        } catch {
            throw VettedProblem(error) ?? error
        }
    }
}
