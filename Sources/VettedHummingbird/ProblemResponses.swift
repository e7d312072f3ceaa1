#if Hummingbird  // the trait that brings in the framework (Package.swift)
public import Foundation
public import HTTPTypes
public import Hummingbird
import Logging
import NIOCore
public import Vetted

extension VettedProblem: HTTPResponseError {
    /// The problem's status: 413, 408, 415, 401, 400 (not well-formed), 422 (not the model's shape, or its rules broken) or 500.
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: details.status) }

    /// The problem as `application/problem+json`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(problem: details)
    }
}

extension Response {
    /// `details` as an `application/problem+json` response with its status.
    ///
    /// A 413 or 408 (a body refused before it was read whole) says `Connection: close`:
    /// the rest of that body is not worth reading, and ``VettedConnectionCloser`` ends the
    /// connection once the answer is written.
    public init(problem details: ProblemDetails) {
        let body = details.json
        var headers: HTTPFields = [.contentType: ProblemDetails.mediaType, .contentLength: String(body.count)]
        if details.status == 413 || details.status == 408 { headers[.connection] = "close" }
        self.init(
            status: HTTPResponse.Status(code: details.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// A response encoder that will not send what the server's own rules refuse.
///
/// It encodes a value as JSON with `encoder`, then reads the bytes back with
/// `checker` as the value's own type: every `@Vetted` rule at every depth runs
/// on exactly what would be sent. A value that breaks one is not sent; the
/// encoder throws ``Vetted/VettedProblem/responseBreaksRules(_:)`` (a 500 problem
/// naming each path and code), which Hummingbird logs and answers.
public struct VettedResponseEncoder: ResponseEncoder, Sendable {
    public let encoder: JSONEncoder
    public let checker: VettedJSONDecoder

    /// `encoder` defaults to ISO 8601 dates (as Hummingbird's), `checker` to a decoder with
    /// ISO 8601 dates: they must agree, so that a value reads back as it was.
    public init(encoder: JSONEncoder? = nil, checker: VettedJSONDecoder? = nil) {
        self.encoder = encoder ?? {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            return encoder
        }()
        self.checker = checker ?? {
            let decoder = VettedJSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return decoder
        }()
    }

    /// The value as `application/json`, once its rules hold.
    ///
    /// - Throws: ``Vetted/VettedProblem`` (status 500) when the encoded value breaks its rules; `EncodingError` as `JSONEncoder` throws it.
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        let bytes: [UInt8]
        do {
            bytes = try VettedResponseCheck.encode(value, with: encoder, checkedBy: checker)
        } catch let problem as VettedProblem {
            // The server's own defect: logged as an error, not only answered.
            context.logger.error("a response breaks the server's own rules; not sent", metadata: ["problem": "\(problem)"])
            throw problem
        }
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(bytes.count)],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
#endif
