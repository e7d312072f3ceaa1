#if OpenAPI  // the trait that brings in swift-openapi-runtime and Yams (Package.swift)
import Foundation
public import HTTPTypes
public import Logging
public import OpenAPIRuntime
import Vetted

/// A swift-openapi-runtime `ServerMiddleware` that holds each request to its operation in
/// the OpenAPI document before the generated handler runs.
///
/// ```swift
/// let contract = try OpenAPIContract(Data(contentsOf: documentURL))
/// try handler.registerHandlers(on: router, middlewares: [VettedOpenAPIMiddleware(contract: contract)])
/// ```
///
/// Before `next`, it reads the body within ``OpenAPIContract/Options/maxBodyBytes`` and
/// ``OpenAPIContract/Options/bodyDeadline``, validates it and the parameters in one pass,
/// and on failure answers `application/problem+json` itself without calling the handler:
/// 400 for bytes that are not JSON, 413 too large, 408 too slow, 415 a media type the
/// operation does not take, 422 a body or parameter that breaks the document's constraints,
/// with one entry per error (`pointer`, `code` the keyword, `parameters` with the schema's
/// values and its `schemaLocation`). A valid body is handed on as read.
///
/// With `applyDefaults`, an absent property with a `default` is filled in before the
/// handler decodes the body. With `validateResponses`, each response is checked against
/// the document too: a status the operation does not list, a media type it does not
/// declare or a JSON body that breaks its schema is logged at error level and answered as
/// a 500 problem that tells the client nothing of it.
public struct VettedOpenAPIMiddleware: ServerMiddleware {
    public let contract: OpenAPIContract
    public let applyDefaults: Bool
    public let validateResponses: Bool
    let logger: Logger

    public init(contract: OpenAPIContract, applyDefaults: Bool = false, validateResponses: Bool = false, logger: Logger = Logger(label: "VettedOpenAPI")) {
        self.contract = contract
        self.applyDefaults = applyDefaults
        self.validateResponses = validateResponses
        self.logger = logger
    }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var bytes: [UInt8]?
        if let body {
            do {
                bytes = try await Self.read(body, upTo: contract.options.maxBodyBytes, within: contract.options.bodyDeadline)
            } catch let error as VettedError {
                return Self.answer(VettedProblem(error))
            }
        }
        let handedOn: [UInt8]?
        switch contract.check(operationID: operationID, request: request, pathParameters: metadata.pathParameters, body: bytes, applyDefaults: applyDefaults) {
        case .failure(let problem):
            if problem.details.status >= 500 {
                logger.error("VettedOpenAPI refused a request for the server's fault", metadata: ["operation": "\(operationID)", "error": "\(problem.underlying)"])
            }
            return Self.answer(problem)
        case .success(let checked):
            handedOn = checked
        }
        var forwarded = request
        if let handedOn, handedOn.count != bytes?.count {
            forwarded.headerFields[.contentLength] = String(handedOn.count)
        }
        let (response, responseBody) = try await next(forwarded, body == nil ? nil : HTTPBody(handedOn ?? []), metadata)
        guard validateResponses else { return (response, responseBody) }
        return await checked(response, responseBody, operationID: operationID)
    }

    /// The response, or a 500 problem if it breaks the document (logged, never shown).
    private func checked(_ response: HTTPResponse, _ body: HTTPBody?, operationID: String) async -> (HTTPResponse, HTTPBody?) {
        var bytes: [UInt8]?
        if let body {
            do {
                bytes = try await Self.read(body, upTo: contract.options.maxResponseBytes, within: contract.options.bodyDeadline)
            } catch {
                logger.error("VettedOpenAPI could not read a response to check it", metadata: ["operation": "\(operationID)", "error": "\(error)"])
                return Self.answer(VettedProblem(details: .serverFault, underlying: error))
            }
        }
        if let failure = contract.checkResponse(operationID: operationID, response: response, body: bytes) {
            logger.error(
                "VettedOpenAPI: a response breaks the OpenAPI document",
                metadata: ["operation": "\(operationID)", "status": "\(response.status.code)", "error": "\(failure)"])
            return Self.answer(VettedProblem(details: .serverFault, underlying: failure))
        }
        return (response, bytes.map { HTTPBody($0) })
    }

    /// `body`'s bytes within `limit` (413 without reading when its declared length is over it)
    /// and `deadline` (408, the read cancelled); the transport's own errors pass through.
    static func read(_ body: HTTPBody, upTo limit: Int, within deadline: Duration) async throws -> [UInt8] {
        let declared: Int64? = if case .known(let length) = body.length { length } else { nil }
        return try await BoundedReader.read(body, maxBytes: limit, within: deadline, declaredLength: declared)
    }

    /// A problem as the response, `application/problem+json` with its status.
    static func answer(_ problem: VettedProblem) -> (HTTPResponse, HTTPBody?) {
        let json = problem.details.json
        var fields = HTTPFields()
        fields[.contentType] = ProblemDetails.mediaType
        fields[.contentLength] = String(json.count)
        if problem.details.status == 413 || problem.details.status == 408 { fields[.connection] = "close" }
        return (HTTPResponse(status: .init(code: problem.details.status), headerFields: fields), HTTPBody(json))
    }
}

#endif
