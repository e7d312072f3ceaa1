#if Vapor  // the trait that brings in the framework (Package.swift)
public import Foundation
public import NIOCore
public import NIOHTTP1
public import Vapor
public import Vetted

extension ContentDecoder where Self: VettedBodyDecoder {
    /// Decodes a body with this decoder's rules and limits.
    ///
    /// - Throws: ``Vetted/VettedProblem`` (an `AbortError`): 413 past `limits.maxInputBytes`, 400 syntax and structure, 422 rules.
    public func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders) throws -> D {
        try decode(decodable, from: body, headers: headers, userInfo: [:])
    }

    /// Decodes a body with this decoder's rules and limits, `userInfo` added for this call
    /// (Vapor passes it for `req.content.get(at:)` and `Validatable`). This decoder reads it:
    /// no other decoder is made, so no path around Vetted exists.
    ///
    /// - Throws: ``Vetted/VettedProblem`` (an `AbortError`), as the other overload.
    public func decode<D: Decodable>(
        _ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders, userInfo: [CodingUserInfoKey: any Sendable]
    ) throws -> D {
        try decodeBody(decodable, from: Array(body.readableBytesView), userInfo: userInfo)
    }
}

extension Request {
    /// The records of a streamed body (a bulk import, an event feed), decoded and validated
    /// one by one as the handler asks for them, never holding the body.
    ///
    /// Vapor spells a body's decoding `req.content.decode(_:)`; a stream of records is
    /// `req.decodeElements(of:)`, the name of
    /// ``Vetted/VettedJSONDecoder/elements(of:from:framing:onError:)-(_,Chunks,_,_)``. Register
    /// the route with `body: .stream` (and ``VettedBodyMiddleware`` with `leavingStreamsUnread`),
    /// or Vapor collects the body first. The framing follows the `Content-Type`:
    /// `application/x-ndjson` or `application/jsonl` (JSON Lines), `application/json-seq`
    /// (RFC 7464), `application/json` (the elements of one top-level array); another type is
    /// refused (415) before a byte is read.
    ///
    /// The body cap becomes a per-record cap, the decoder's `limits.maxRecordBytes`, plus
    /// `maxTotalBytes` when given. `timeout` applies between records: each record must arrive
    /// within it of the handler asking for it.
    ///
    /// - Parameters:
    ///   - decoder: the decoder and options for each record; `nil` uses the JSON decoder of
    ///     `ContentConfiguration.global` when it is a ``Vetted/VettedJSONDecoder``, else a default one.
    ///   - onError: `.stop` (the sequence throws the first failing record's problem) or
    ///     `.skip` (each failure is an element).
    ///   - maxTotalBytes: the most the whole body may hold; `nil` for no total.
    ///   - timeout: how long each record may take to arrive once asked for.
    /// - Throws: ``Vetted/VettedProblem`` (415) for a media type that is not a stream of JSON
    ///   records. The sequence throws the problems ``Vetted/VettedBodyElements`` lists.
    public func decodeElements<T: Decodable>(
        of type: T.Type, decoder: VettedJSONDecoder? = nil, onError: VettedJSONDecoder.StreamErrorPolicy = .stop,
        maxTotalBytes: Int? = nil, timeout: Duration = .seconds(30)
    ) throws -> VettedBodyElements<T> {
        let contentType = headers.first(name: .contentType)
        guard let framing = VettedMediaType.streamFraming(contentType) else {
            throw VettedProblem.unsupportedMediaType(contentType, expected: VettedMediaType.streamTypes)
        }
        let configured = (try? ContentConfiguration.global.requireDecoder(for: .json)) as? VettedJSONDecoder
        return VettedBodyElements(
            of: type, decoder: decoder ?? configured ?? VettedJSONDecoder(), body: body.map { $0.readableBytesView },
            framing: framing, onError: onError, maxTotalBytes: maxTotalBytes,
            declaredLength: headers.first(name: .contentLength).flatMap { Int64($0) }, timeout: timeout)
    }
}

/// JSON bodies.
extension VettedJSONDecoder: ContentDecoder {}

/// Property-list bodies (binary or XML).
extension VettedPropertyListDecoder: ContentDecoder {}

extension HTTPMediaType {
    /// `application/x-plist`, the media type ``Vetted/VettedPropertyListDecoder`` reads.
    public static let propertyList = HTTPMediaType(type: "application", subType: "x-plist")
}

extension ContentConfiguration {
    /// Registers Vetted's decoders for JSON and property lists, and ``VettedContentEncoder``
    /// for JSON responses.
    ///
    /// Register ``Vetted/VettedJSONDecoder`` itself, never its `asJSONDecoder` face: Vapor's
    /// `JSONDecoder` conformance makes a fresh Foundation decoder whenever a request carries
    /// `userInfo`, which would read the body without Vetted.
    ///
    /// Vapor's own decoders for `text/plain`, `application/x-www-form-urlencoded` and
    /// `multipart/form-data` are replaced by a refusal (415): they would read a model
    /// without its rules, and a plain-text body read as a model is a type mismatch, not
    /// the media-type error it is.
    public mutating func useVetted(
        json: VettedJSONDecoder, propertyList: VettedPropertyListDecoder? = nil, encoder: VettedContentEncoder? = nil
    ) {
        for type in [HTTPMediaType.plainText, .urlEncodedForm, .formData] {
            use(decoder: VettedRefusingDecoder(reads: propertyList == nil ? ["application/json"] : ["application/json", "application/x-plist"]), for: type)
        }
        use(decoder: json, for: .json)
        if let propertyList { use(decoder: propertyList, for: .propertyList) }
        use(encoder: encoder ?? VettedContentEncoder(checker: json), for: .json)
    }
}

/// The decoder ``ContentConfiguration/useVetted(json:propertyList:encoder:)`` registers for
/// media types Vetted does not read: every body is refused with 415, unread.
struct VettedRefusingDecoder: ContentDecoder {
    let reads: [String]

    func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders) throws -> D {
        throw VettedProblem.unsupportedMediaType(headers.first(name: .contentType), expected: reads)
    }
}

/// A content encoder that will not send what the server's own rules refuse: it
/// encodes as JSON, then reads the bytes back as the value's type, so every
/// `@Vetted` rule runs on exactly what would be sent.
///
/// - Throws: ``Vetted/VettedProblem/responseBreaksRules(_:)`` (a 500 problem) for a value that breaks its rules.
public struct VettedContentEncoder: ContentEncoder {
    public let encoder: JSONEncoder
    public let checker: VettedJSONDecoder

    public init(encoder: JSONEncoder = JSONEncoder(), checker: VettedJSONDecoder = VettedJSONDecoder()) {
        self.encoder = encoder
        self.checker = checker
    }

    public func encode<E: Encodable>(_ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders) throws {
        headers.contentType = .json
        body.writeBytes(try VettedResponseCheck.encode(encodable, with: encoder, checkedBy: checker))
    }
}
#endif
