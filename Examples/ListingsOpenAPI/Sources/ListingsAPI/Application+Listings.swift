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
        let middlewares: [VettedOpenAPIMiddleware] =
            switch checking {
            case .full: [VettedOpenAPIMiddleware(contract: try OpenAPIContract(document), applyDefaults: true, validateResponses: true)]
            case .requests: [VettedOpenAPIMiddleware(contract: try OpenAPIContract(document))]
            case .off: []
            }
        try service.registerHandlers(on: router, middlewares: middlewares)
        return router
    }

    /// The server `listings-api` runs: the document enforced as `checking` says, listings kept in memory.
    public static func application(port: Int, checking: Checking = .full) throws -> some ApplicationProtocol {
        Application(
            router: try router(service: ListingsService(), checking: checking), configuration: .init(address: .hostname("127.0.0.1", port: port)))
    }
}
