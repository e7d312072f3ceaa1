import Foundation
import Hummingbird
import OpenAPIHummingbird
import VettedOpenAPI

/// The listings API as a Hummingbird application.
public enum ListingsApp {
    /// The OpenAPI document this server implements, as shipped with it.
    static func document() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw VettedError(code: .invalidOpenAPIDocument, message: "openapi.yaml is not among the server's resources")
        }
        return try Data(contentsOf: url)
    }

    /// How much of the document the server enforces.
    public enum Checking: Sendable {
        /// Requests checked, defaults filled in, responses checked: how the example serves.
        case full
        /// Requests checked only (the middleware's defaults).
        case requests
        /// No middleware: the generated stubs alone, to show what reaches the handlers without it.
        case off
    }

    /// A router serving `service` through the generated stubs, with `GET /openapi.yaml`.
    /// `checked: false` leaves the middleware out, to show what reaches the handlers without it.
    static func router(service: ListingsService, checked: Bool = true) throws -> Router<BasicRequestContext> {
        try router(service: service, checking: checked ? .full : .off)
    }

    static func router(service: ListingsService, checking: Checking) throws -> Router<BasicRequestContext> {
        let document = try document()
        let router = Router()
        router.get("openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: document)))
        }
        // The document compiled once, at start-up: a schema or $ref it cannot enforce stops the server here.
        let contract = try OpenAPIContract(document)
        let middlewares: [VettedOpenAPIMiddleware] =
            switch checking {
            case .full: [VettedOpenAPIMiddleware(contract: contract, applyDefaults: true, validateResponses: true)]
            case .requests: [VettedOpenAPIMiddleware(contract: contract)]
            case .off: []
            }
        if checking != .off { router.add(middleware: UndeclaredMethods(contract: contract)) }
        try service.registerHandlers(on: router, middlewares: middlewares)
        return router
    }

    /// The server `listings-api` runs: the document enforced as `checking` says, listings kept in memory.
    public static func application(port: Int, checking: Checking = .full) throws -> some ApplicationProtocol {
        Application(
            router: try router(service: ListingsService(), checking: checking), configuration: .init(address: .hostname("127.0.0.1", port: port)))
    }
}

/// A method the document does not list on a path it has (`TRACE /listings`) is 405 with `Allow`
/// (RFC 9110 §15.5.6); Hummingbird's router alone answers 404, as for a path that does not exist.
struct UndeclaredMethods<Context: RequestContext>: RouterMiddleware {
    let contract: OpenAPIContract

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            // Only once the router found no route: a request it serves pays nothing.
            guard request.method != .head, let allowed = contract.allowedMethods(forPath: request.uri.path),
                !allowed.contains(request.method.rawValue)
            else { throw error }
            let list = allowed.joined(separator: ", ")
            let detail = "\(Excerpt.escape(request.method.rawValue)) is not one of this path's methods (\(list))"
            let problem = ProblemDetails(
                type: "urn:listings:problem:method-not-allowed", title: "This path does not take this method", status: 405, detail: detail,
                errors: [ProblemDetails.Entry(pointer: "", path: "$", code: "methodNotAllowed", stage: "request", detail: detail)])
            return Response(
                status: .methodNotAllowed, headers: [.allow: list, .contentType: ProblemDetails.mediaType],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: problem.json)))
        }
    }
}
