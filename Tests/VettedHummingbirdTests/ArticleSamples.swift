#if Hummingbird  // the trait that brings in the framework (Package.swift)
// VettedHummingbird.docc's samples, compiled and run here, where Hummingbird is (DocSampleTests checks they match the article).
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import VettedHummingbird
import VettedMacros

// sample: HummingbirdRequestBodies.md#1
@Vetted struct NewListing: Codable {
    @Check(.range(1...Int(Int32.max))) var id: Int
    @Check(.length(1...200), .displaySafe()) var name: String
    @Check(.pattern("[0-9]+(\\.[0-9]{1,2})?", maximumLength: 32)) var price: String
}

struct AppContext: VettedRequestContext {
    var coreContext: CoreRequestContextStorage
    init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }

    var requestDecoder: VettedJSONDecoder { Self.decoder }
    var maxUploadSize: Int { 64 * 1024 }
    var bodyTimeout: Duration { .seconds(10) }

    static let decoder = VettedJSONDecoder()
}

// end sample

// sample: HummingbirdRequestBodies.md#3
func signedRouter(clients: TrustedKeys, serverKey: SigningKey) -> Router<AppContext> {
    let router = Router(context: AppContext.self)
    router.add(middleware: SignResponseMiddleware(HTTPResponseSigning(key: serverKey)))
    router.add(
        middleware: VerifyHTTPSignatureMiddleware(
            HTTPRequestVerification(
                trusting: clients,
                policy: HTTPSignaturePolicy(requiring: [.method, .path, .field("content-type")]),
                origin: "https://api.example.com")))
    router.post("listings") { request, context -> Response in
        _ = try await request.decode(as: NewListing.self, context: context)
        return Response(status: .created, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
    }
    return router
}
// end sample

/// Where the repository's files are, from this source file.
enum DocPaths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

@Suite struct HummingbirdArticleSamples {
    func articleRouter() -> Router<AppContext> {
        // sample: HummingbirdRequestBodies.md#1
        let router = Router(context: AppContext.self)
        router.post("listings") { request, context -> HTTPResponse.Status in
            let listing = try await request.decode(as: NewListing.self, context: context)
            print("listing \(listing.id): \(listing.name) at \(listing.price)")
            return .created
        }
        // end sample
        return router
    }

    func importRouter() -> Router<AppContext> {
        let router = Router(context: AppContext.self)
        // sample: HummingbirdRequestBodies.md#2
        router.post("listings/import") { request, context -> String in
            var imported = 0
            var refused: [ProblemDetails.Entry] = []
            let records = try request.decodeElements(of: NewListing.self, context: context, onError: .skip, maxTotalBytes: 64 << 20)
            for try await record in records {
                switch record.result {
                case .success(let listing):
                    print("storing listing \(listing.id)")
                    imported += 1
                case .failure(let error):
                    refused += ProblemDetails(error)?.errors ?? []
                }
            }
            return "imported \(imported); refused " + refused.map { "\($0.pointer) \($0.code)" }.joined(separator: ", ")
        }
        // end sample
        return router
    }

    @Test func theArticlesImportStoresEachValidRecordAndListsEachRefusedOne() async throws {
        let body = #"{"id":7,"name":"Lamp","price":"5.00"}"# + "\n" + #"{"id":8,"name":"Desk","price":"five"}"# + "\n"
        try await Application(router: importRouter()).test(.router) { client in
            try await client.execute(
                uri: "/listings/import", method: .post, headers: [.contentType: "application/x-ndjson"], body: ByteBuffer(string: body)
            ) { response in
                #expect(String(buffer: response.body) == "imported 1; refused /1/price patternMismatch")
            }
        }
    }

    @Test func theArticlesRouterAcceptsAValidListingAndAnswersAProblemOtherwise() async throws {
        let json: HTTPFields = [.contentType: "application/json"]
        try await Application(router: articleRouter()).test(.router) { client in
            try await client.execute(
                uri: "/listings", method: .post, headers: json, body: ByteBuffer(string: #"{"id":7,"name":"Lamp","price":"5.00"}"#)
            ) { response in
                #expect(response.status == .created)
            }
            try await client.execute(
                uri: "/listings", method: .post, headers: json, body: ByteBuffer(string: #"{"id":7,"name":"","price":"five"}"#)
            ) { response in
                #expect(response.status == .unprocessableContent)
                let problem = try VettedJSONDecoder().decode(ProblemDetails.self, from: Array(response.body.readableBytesView))
                #expect(problem.errors.map { "\($0.pointer) \($0.code)" } == ["/name empty", "/price patternMismatch"])
                // The article shows this very problem, each detail with its line and column.
                let article = try String(
                    contentsOf: DocPaths.root.appendingPathComponent("Sources/VettedHummingbird/VettedHummingbird.docc/HummingbirdRequestBodies.md"),
                    encoding: .utf8)
                let block = try #require(article.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "```").first)
                let shown = try JSONParser().parse(Array(block.utf8))
                let sent = try JSONParser().parse(Array(response.body.readableBytesView))
                #expect(shown == sent, "\(String(decoding: response.body.readableBytesView, as: UTF8.self))")
            }
        }
    }

    /// Signed by a key the server trusts: created, and the answer signed; unsigned: 401.
    @Test func theSignedRouterChecksRequestsAndSignsAnswers() async throws {
        let client = SigningKey.generate(.ed25519)
        let server = SigningKey.generate(.ed25519)
        var request = HTTPMessage(
            method: "POST", targetURI: "https://api.example.com/listings", fields: [.init(name: "Content-Type", value: "application/json")],
            body: Array(#"{"id":7,"name":"Lamp","price":"5.00"}"#.utf8))
        request.setContentDigest()
        let (unsigned, body) = (request, request.body)
        let router = signedRouter(clients: try TrustedKeys([client.verificationKey]), serverKey: server)
        try await Application(router: router).test(.router) { tester in
            // Signed here, just before it is sent: the policy accepts a signature at most 300 s
            // old, and on a busy 2-core runner the app's start-up once waited longer than that.
            var request = unsigned
            try HTTPSignatures.sign(&request, covering: [.method, .path, .field("content-type"), .field("content-digest")], with: client)
            var headers = HTTPFields()
            for field in request.fields { if let name = HTTPField.Name(field.name) { headers.append(HTTPField(name: name, value: field.value)) } }
            try await tester.execute(uri: "/listings", method: .post, headers: headers, body: ByteBuffer(bytes: body)) { response in
                #expect(response.status == .created)
                #expect(response.headers.contains { $0.name.canonicalName == "signature" })
            }
            try await tester.execute(
                uri: "/listings", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(bytes: body)
            ) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }
}
#endif
