#if Hummingbird  // the trait that brings in the framework (Package.swift)
public import Hummingbird
import NIOCore
import Logging
import VettedCore
public import Vetted

/// A request context that says how long a request body may take to arrive.
///
/// Vetted's request decoders read a body within the context's `maxUploadSize`
/// and within ``bodyTimeout``; a context that does not adopt this protocol gets
/// ``VettedRequestBody/defaultTimeout``.
public protocol VettedRequestContext: RequestContext {
    /// How long a request body may take to arrive, however slowly it trickles in; later is 408.
    var bodyTimeout: Duration { get }
}

extension VettedRequestContext {
    public var bodyTimeout: Duration { VettedRequestBody.defaultTimeout }
}

/// How Vetted's request decoders read a Hummingbird request body: the media type
/// first (without reading), then the declared length, then the body chunk by chunk,
/// refused at the first chunk that passes the cap and cut off at the deadline.
public enum VettedRequestBody {
    /// The deadline for a body when the context does not give one: 30 seconds.
    public static let defaultTimeout = Duration.seconds(30)

    /// The body's bytes, read as described above.
    ///
    /// - Throws: ``Vetted/VettedProblem``: 415 for a media type `accepts` refuses, 413 past
    ///   `min(context.maxUploadSize, maxBytes)` (declared or read), 408 past the deadline.
    ///   Errors of the body stream itself (a connection that closed) as they are.
    public static func read(
        _ request: Request, context: some RequestContext, maxBytes: Int, accepts: (String?) -> Bool, expected: [String]
    ) async throws -> [UInt8] {
        let contentType = request.headers[.contentType]
        guard accepts(contentType) else { throw VettedProblem.unsupportedMediaType(contentType, expected: expected) }
        let cap = min(context.maxUploadSize, maxBytes)
        let timeout = (context as? any VettedRequestContext)?.bodyTimeout ?? defaultTimeout
        do {
            return try await BoundedReader.read(
                request.body.map { $0.readableBytesView }, maxBytes: cap, within: timeout,
                declaredLength: request.headers[.contentLength].flatMap { Int64($0) })
        } catch let error as VettedError {
            throw VettedProblem(error)
        }
    }
}

extension RequestDecoder where Self: VettedBodyDecoder {
    /// Decodes a request body with this decoder's rules and limits, read through
    /// ``VettedRequestBody`` (the media type first, then the cap and the deadline).
    ///
    /// - Throws: ``Vetted/VettedProblem``, an `HTTPResponseError` that answers
    ///   `application/problem+json`: 415, 413, 408 before decoding, then 400 for syntax,
    ///   422 for a well-formed body that does not fit the model's shape or breaks its rules,
    ///   500 for a rule declared wrong.
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let bytes = try await VettedRequestBody.read(
            request, context: context, maxBytes: limits.maxInputBytes, accepts: Self.reads, expected: [Self.mediaTypeName])
        do {
            return try decodeBody(type, from: bytes)
        } catch let problem as VettedProblem where problem.details.status >= 500 {
            // The server's own defect (a rule declared wrong): logged as an error, with what the
            // client is not told; the client sees a generic problem.
            context.logger.error("a rule of the server's is declared wrong", metadata: ["error": "\(problem.underlying)"])
            throw problem
        }
    }
}

extension Request {
    /// The records of a streamed body (a bulk import, an event feed), decoded and validated
    /// one by one as the handler asks for them, never holding the body.
    ///
    /// Hummingbird spells a body's decoding `request.decode(as:context:)`; a stream of records
    /// is `request.decodeElements(of:context:)`, the name of
    /// ``Vetted/VettedJSONDecoder/elements(of:from:framing:onError:)-(_,Chunks,_,_)``.
    /// The framing follows the `Content-Type`: `application/x-ndjson` or `application/jsonl`
    /// (JSON Lines), `application/json-seq` (RFC 7464), `application/json` (the elements of one
    /// top-level array); another type is refused (415) before a byte is read.
    ///
    /// The body cap becomes a per-record cap, the decoder's `limits.maxRecordBytes`, plus
    /// `maxTotalBytes` when given (the context's `maxUploadSize` is for whole bodies and does
    /// not apply). The context's ``VettedRequestContext/bodyTimeout`` applies between records:
    /// each record must arrive within it of the handler asking for it.
    ///
    /// <doc:HummingbirdRequestBodies#Streams-of-records> shows a route that stores each valid
    /// record and lists each refused one.
    ///
    /// - Parameters:
    ///   - decoder: the decoder and options for each record; `nil` uses the context's
    ///     `requestDecoder` when it is a ``Vetted/VettedJSONDecoder``, else a default one.
    ///   - onError: `.stop` (the sequence throws the first failing record's problem) or
    ///     `.skip` (each failure is an element).
    ///   - maxTotalBytes: the most the whole body may hold; `nil` for no total.
    /// - Throws: ``Vetted/VettedProblem`` (415) for a media type that is not a stream of JSON
    ///   records. The sequence throws the problems ``Vetted/VettedBodyElements`` lists.
    public func decodeElements<T: Decodable, Context: RequestContext>(
        of type: T.Type, context: Context, decoder: VettedJSONDecoder? = nil,
        onError: VettedJSONDecoder.StreamErrorPolicy = .stop, maxTotalBytes: Int? = nil
    ) throws -> VettedBodyElements<T> {
        let contentType = headers[.contentType]
        guard let framing = VettedMediaType.streamFraming(contentType) else {
            throw VettedProblem.unsupportedMediaType(contentType, expected: VettedMediaType.streamTypes)
        }
        let timeout = (context as? any VettedRequestContext)?.bodyTimeout ?? VettedRequestBody.defaultTimeout
        return VettedBodyElements(
            of: type, decoder: decoder ?? (context.requestDecoder as? VettedJSONDecoder) ?? VettedJSONDecoder(),
            body: body.map { $0.readableBytesView }, framing: framing, onError: onError, maxTotalBytes: maxTotalBytes,
            declaredLength: headers[.contentLength].flatMap { Int64($0) }, timeout: timeout)
    }
}

/// `application/json` and `application/…+json` bodies.
extension VettedJSONDecoder: RequestDecoder {}

/// `application/x-plist` bodies, binary or XML.
extension VettedPropertyListDecoder: RequestDecoder {}
#endif
