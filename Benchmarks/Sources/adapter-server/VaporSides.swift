// The Vapor 4 pair of `adapter-server`'s sides, each in its own process (Vapor's
// content configuration is one for the process):
//
//   POST /vapor-default/listings  Vapor's default: `req.content.decode` with Foundation's
//                                 JSONDecoder, then `Listing.validateByHand()`; 400 on failure.
//   POST /vapor-vetted/listings   VettedVapor: `useVetted`, VettedProblemMiddleware and
//                                 VettedBodyMiddleware (64 KiB, 30 s); problems on failure.
import Foundation
import Vapor
import Vetted
import VettedVapor

extension Listing: Content {}

enum VaporSides {
    static func run(vetted: Bool, port: Int) async throws {
        let app = try await Application.make(.production)
        app.logger.logLevel = .error
        app.routes.defaultMaxBodySize = "64kb"
        if vetted {
            ContentConfiguration.global.useVetted(json: VettedContext.decoder)
            app.middleware.use(VettedProblemMiddleware())
            app.middleware.use(VettedBodyMiddleware(maxBytes: 64 * 1024, timeout: .seconds(30)))
            app.post("vapor-vetted", "listings") { request async throws -> HTTPStatus in
                _ = try request.content.decode(Listing.self)
                return .created
            }
        } else {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            ContentConfiguration.global.use(decoder: decoder, for: .json)
            app.post("vapor-default", "listings") { request async throws -> HTTPStatus in
                let listing = try request.content.decode(Listing.self)
                do { try listing.validateByHand() } catch { throw Abort(.badRequest) }
                return .created
            }
        }
        try await app.server.start(address: .hostname("127.0.0.1", port: port))
        while true { try await Task.sleep(for: .seconds(3_600)) }
    }
}
