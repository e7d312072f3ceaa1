#if Vapor  // the trait that brings in the framework (Package.swift)
import Foundation
import NIOCore
import NIOHTTP1
public import Vapor
public import Vetted

/// Verifies each request's RFC 9421 signature before its route runs: without
/// one that satisfies the policy the answer is a 401 problem and the route never
/// runs. The body is read first (within the cap and `timeout`) to check its `Content-Digest`.
public struct VerifyHTTPSignatureMiddleware: AsyncMiddleware {
    public let verification: HTTPRequestVerification
    public let timeout: Duration

    public init(_ verification: HTTPRequestVerification, timeout: Duration = .seconds(30)) {
        self.verification = verification
        self.timeout = timeout
    }

    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try await VettedBody.collect(request, maxBytes: verification.maxBodyBytes, timeout: timeout).get()
        let body = request.body.data.map { Array($0.readableBytesView) } ?? []
        let fields = request.headers.map { HTTPMessage.Field(name: $0.name, value: $0.value) }
        _ = try verification.verify(
            method: request.method.rawValue, scheme: request.url.scheme, authority: request.headers.first(name: .host),
            pathAndQuery: request.url.string, fields: fields, body: body)
        return try await next.respond(to: request)
    }
}

/// Signs every response, Vetted's problems included: a `Content-Digest` of its
/// body and an RFC 9421 signature, as ``Vetted/HTTPResponseSigning`` says.
/// A streamed body cannot be signed before it is sent, and is refused (500).
public struct SignResponseMiddleware: AsyncMiddleware {
    public let signing: HTTPResponseSigning

    public init(_ signing: HTTPResponseSigning) {
        self.signing = signing
    }

    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response: Response
        do {
            response = try await next.respond(to: request)
        } catch {
            guard let problem = VettedProblemMiddleware.problem(for: error) else { throw error }
            response = Response(problem: problem.details)
        }
        guard let buffer = response.body.buffer ?? (response.body.count == 0 ? ByteBuffer() : nil) else {
            throw VettedError(code: .unsupportedComponent, message: "a streamed response body cannot be signed")
        }
        guard buffer.readableBytes <= signing.maxBodyBytes else {
            throw VettedError(code: .inputSizeLimitExceeded, message: "the response body is over \(signing.maxBodyBytes) bytes: it is not signed")
        }
        let fields = response.headers.map { HTTPMessage.Field(name: $0.name, value: $0.value) }
        let added = try signing.fields(status: Int(response.status.code), fields: fields, body: Array(buffer.readableBytesView))
        for field in added { response.headers.replaceOrAdd(name: field.name, value: field.value) }
        return response
    }
}
#endif
