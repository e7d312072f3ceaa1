// The server behind `scripts/adapter-load.sh`: one Hummingbird application, the
// talk's `Listing` posted to two routes that differ only in how the body is read.
//
//   POST /default/listings  Hummingbird's default: Foundation's JSONDecoder
//                           (`request.decode(as:context:)`), then the talk's checks
//                           written by hand (`Listing.validateByHand()`); 400 on failure.
//   POST /vetted/listings   VettedHummingbird: Vetted's decoder as the context's
//                           RequestDecoder; rules checked while decoding; problems.
//
// Both answer 201 with an empty body for a listing they accept, and cap bodies at 64 KiB.
// VaporSides.swift has the same pair for Vapor 4 (`vapor-default`, `vapor-vetted`).
// Usage: adapter-server PORT SIDE   (SIDE: default, vetted, vapor-default, vapor-vetted)
import Foundation
import Hummingbird
import Logging
import Vetted
import VettedHummingbird

struct DefaultContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    var maxUploadSize: Int { 64 * 1024 }
}

struct VettedContext: VettedRequestContext {
    var coreContext: CoreRequestContextStorage
    init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    var maxUploadSize: Int { 64 * 1024 }
    var requestDecoder: VettedJSONDecoder { Self.decoder }
    static let decoder: VettedJSONDecoder = {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

/// The hand-written side's refusal: 400, as a handler would write it.
struct Refused: HTTPResponseError {
    var status: HTTPResponse.Status { .badRequest }
    func response(from request: Request, context: some RequestContext) throws -> Response { Response(status: .badRequest) }
}

let port = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 8080

let defaultRouter = Router(context: DefaultContext.self)
defaultRouter.post("default/listings") { request, context -> Response in
    let listing = try await request.decode(as: Listing.self, context: context)
    do { try listing.validateByHand() } catch { throw Refused() }
    return Response(status: .created)
}

let vettedRouter = Router(context: VettedContext.self)
vettedRouter.post("vetted/listings") { request, context -> Response in
    _ = try await request.decode(as: Listing.self, context: context)
    return Response(status: .created)
}

var logger = Logger(label: "adapter-server")
logger.logLevel = .error
let side = CommandLine.arguments.dropFirst(2).first ?? "default"
if side.hasPrefix("vapor-") {
    try await VaporSides.run(vetted: side == "vapor-vetted", port: port)
} else if side == "vetted" {
    try await Application(router: vettedRouter, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger).runService()
} else {
    try await Application(router: defaultRouter, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger).runService()
}
