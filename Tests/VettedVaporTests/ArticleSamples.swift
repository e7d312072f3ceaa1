#if Vapor  // the trait that brings in the framework (Package.swift)
// VettedVapor.docc's samples, compiled and run here, where Vapor is (DocSampleTests checks they match the article).
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import VaporTesting
import VettedMacros
import VettedVapor

// sample: VaporRequestBodies.md#1
@Vetted struct NewListing: Content {
    @Check(.range(1...Int(Int32.max))) var id: Int
    @Check(.length(1...200), .displaySafe()) var name: String
    @Check(.pattern("[0-9]+(\\.[0-9]{1,2})?", maximumLength: 32)) var price: String
}

func configure(_ app: Application) {
    ContentConfiguration.global.useVetted(json: VettedJSONDecoder(), propertyList: VettedPropertyListDecoder())
    app.middleware.use(VettedProblemMiddleware())
    app.middleware.use(VettedBodyMiddleware(maxBytes: 64 * 1024, timeout: .seconds(10)))
    // Off by default: without it, a head whose body never comes holds its connection for good.
    app.http.server.configuration.idleTimeout = .seconds(15)
    app.post("listings") { request async throws -> HTTPStatus in
        let listing = try request.content.decode(NewListing.self)
        request.logger.info("listing \(listing.id): \(listing.name) at \(listing.price)")
        return .created
    }
}
// end sample

// sample: VaporRequestBodies.md#2
func useSignatures(_ app: Application, clients: TrustedKeys, serverKey: SigningKey) {
    app.middleware.use(SignResponseMiddleware(HTTPResponseSigning(key: serverKey)))
    app.middleware.use(
        VerifyHTTPSignatureMiddleware(
            HTTPRequestVerification(
                trusting: clients,
                policy: HTTPSignaturePolicy(requiring: [.method, .path, .field("content-type")]),
                origin: "https://api.example.com")))
}
// end sample

extension VaporTests {
@Suite struct VaporArticleSamples {
    @Test func theArticlesAppAcceptsAValidListingAndAnswersAProblemOtherwise() async throws {
        try await withApp { app in
            configure(app)
            let json: HTTPHeaders = ["Content-Type": "application/json"]
            try await app.testing().test(.POST, "listings", headers: json, body: ByteBuffer(string: #"{"id":7,"name":"Lamp","price":"5.00"}"#)) { response in
                #expect(response.status == .created)
            }
            try await app.testing().test(.POST, "listings", headers: json, body: ByteBuffer(string: #"{"id":7,"name":"","price":"five"}"#)) { response in
                #expect(response.status == .unprocessableEntity)
                let problem = try VettedJSONDecoder().decode(ProblemDetails.self, from: Array(response.body.readableBytesView))
                #expect(problem.errors.map { "\($0.pointer) \($0.code)" } == ["/name empty", "/price patternMismatch"])
            }
        }
    }

    @Test func theSignaturesRefuseAnUnsignedRequestWithASignedProblem() async throws {
        let server = SigningKey.generate(.ed25519)
        try await withApp { app in
            configure(app)
            useSignatures(app, clients: try TrustedKeys([SigningKey.generate(.ed25519).verificationKey]), serverKey: server)
            let json: HTTPHeaders = ["Content-Type": "application/json"]
            try await app.testing().test(.POST, "listings", headers: json, body: ByteBuffer(string: #"{"id":7,"name":"Lamp","price":"5.00"}"#)) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers.first(name: "Signature") != nil)
            }
        }
    }
}
}
#endif
