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
// Usage: adapter-server PORT   (prints "ready" once it listens)
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

if CommandLine.arguments.dropFirst().first == "micro" {
    let valid = Array(#"{"id":1,"name":"Lamp","description":"A desk lamp","price":"10.50","sold":false,"url":"https://example.com/1","tags":["electric"],"created":"2018-05-01T10:39:04Z","last_updated":"2018-05-02T10:39:04Z"}"#.utf8)
    let data = Data(valid)
    let foundation = JSONDecoder()
    foundation.dateDecodingStrategy = .iso8601
    let clock = ContinuousClock()
    if CommandLine.arguments.count > 2 {
        for _ in 0..<20_000 { _ = try! VettedContext.decoder.decode(Listing.self, from: valid) }
        exit(0)
    }
    for _ in 0..<2 {
        let f = clock.measure { for _ in 0..<100_000 { let l = try! foundation.decode(Listing.self, from: data); try! l.validateByHand() } }
        let v = clock.measure { for _ in 0..<100_000 { _ = try! VettedContext.decoder.decode(Listing.self, from: valid) } }
        print("foundation", f / 100_000, "vetted", v / 100_000)
    }
    exit(0)
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
print("ready", side)
if side == "vetted" {
    try await Application(router: vettedRouter, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger).runService()
} else {
    try await Application(router: defaultRouter, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger).runService()
}
