#if Hummingbird  // the trait that brings in the framework (Package.swift)
import HTTPTypes
public import Hummingbird
import NIOCore
public import Vetted

/// Verifies each request's RFC 9421 signature before the handler runs: a
/// request without one that satisfies the policy is answered 401 with a problem,
/// and its handler never runs. The body, read within the cap to check its
/// `Content-Digest`, is handed on to the handler as read.
public struct VerifyHTTPSignatureMiddleware<Context: RequestContext>: RouterMiddleware {
    public let verification: HTTPRequestVerification

    public init(_ verification: HTTPRequestVerification) {
        self.verification = verification
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request
        let body = try await VettedRequestBody.read(
            request, context: context, maxBytes: verification.maxBodyBytes, accepts: { _ in true }, expected: [])
        let fields = request.headers.map { HTTPMessage.Field(name: $0.name.canonicalName, value: $0.value) }
        _ = try verification.verify(
            method: request.method.rawValue, scheme: request.head.scheme, authority: request.head.authority,
            pathAndQuery: request.uri.description, fields: fields, body: body)
        request.body = RequestBody(buffer: ByteBuffer(bytes: body))
        return try await next(request, context)
    }
}

/// Signs every response (error responses too): a `Content-Digest` of its body
/// and an RFC 9421 signature, as ``Vetted/HTTPResponseSigning`` says.
public struct SignResponseMiddleware<Context: RequestContext>: RouterMiddleware {
    public let signing: HTTPResponseSigning

    public init(_ signing: HTTPResponseSigning) {
        self.signing = signing
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // Errors become responses here, so that they are signed too.
            response = try error.response(from: request, context: context)
        }
        let collector = BodyCollector(maxBytes: signing.maxBodyBytes)
        try await response.body.write(collector)
        let body = collector.bytes
        let fields = response.headers.map { HTTPMessage.Field(name: $0.name.canonicalName, value: $0.value) }
        let added = try signing.fields(status: Int(response.status.code), fields: fields, body: body)
        for field in added {
            // Content-Digest, Signature-Input, Signature: valid names; a failure here is Vetted's own defect.
            guard let name = HTTPField.Name(field.name) else {
                throw VettedError(code: .internalInvariantViolated, message: "signing wrote a field named \(field.name)")
            }
            response.headers[name] = field.value
        }
        response.body = ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        return response
    }
}

/// Collects a response body, at most `maxBytes` of it.
private final class BodyCollector: ResponseBodyWriter {
    let maxBytes: Int
    var bytes: [UInt8] = []

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    func write(_ buffer: ByteBuffer) async throws {
        guard buffer.readableBytes <= maxBytes - bytes.count else {
            throw VettedError(code: .inputSizeLimitExceeded, message: "the response body is over \(maxBytes) bytes: it is not signed")
        }
        bytes.append(contentsOf: buffer.readableBytesView)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
#endif
