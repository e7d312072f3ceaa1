#if Vapor  // the trait that brings in the framework (Package.swift)
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import Testing
import VaporTesting
import VettedTestSupport
import VettedVapor

extension VaporTests {
/// RFC 9421 at the door of a Vapor app, with PyPI's `http-message-signatures` as the other side.
///
/// The peer signs when the test starts, and on a busy 2-core runner a test's awaits can
/// wait minutes for a thread, so the policy here accepts signatures up to an hour old.
/// Ages themselves are tested against a fixed clock in `HTTPSignatureTests`.
@Suite(.enabled(if: Interop.pythonPeer, "needs python3 with `pip install http-message-signatures`"))
struct VaporSignatureTests {
    @Test func thePeersSignedRequestReachesTheRouteAndItsSignedAnswerVerifies() async throws {
        let peer = try SignaturePeer(peerAlgorithm: .p256)
        let (trusted, serverKey, request) = (peer.trusted, peer.serverKey, peer.request)
        let handled = Mutex(0)

        try await withApp { app in
            app.middleware.use(SignResponseMiddleware(HTTPResponseSigning(key: serverKey, tag: "junk")))
            app.middleware.use(
                VerifyHTTPSignatureMiddleware(
                    HTTPRequestVerification(
                        trusting: trusted, policy: HTTPSignaturePolicy(requiring: [.method, .authority, .path, .query, .field("content-type")], maximumAge: .seconds(3_600)),
                        origin: "https://junk.example")))
            app.post("listings") { _ async throws -> Response in
                handled.withLock { $0 += 1 }
                return Response(status: .ok, headers: ["Content-Type": "application/json"], body: .init(string: #"{"ok":true}"#))
            }
            let tester = try app.testing()

            let answer = try await send(request, tester)
            #expect(answer.start == .response(status: 200))
            let verified = try peer.verifies(answer)
            #expect(verified.hasPrefix("verified sig1 by \(serverKey.keyID)"), "\(verified)")

            var tampered = request
            tampered.body[0] ^= 1
            let refused = try await send(tampered, tester)
            #expect(refused.start == .response(status: 401))
            let details = try VettedJSONDecoder().decode(ProblemDetails.self, from: refused.body)
            #expect(details.errors.map { "\($0.stage) \($0.code)" } == ["input digestMismatch"])
            let keys = try TrustedKeys([serverKey.verificationKey])
            #expect(try HTTPSignatures.verify(refused, trusting: keys, policy: .response(expectedTag: "junk")).keyID == serverKey.keyID)
        }
        #expect(handled.withLock { $0 } == 1)
    }

    func send(_ message: HTTPMessage, _ tester: any TestingApplicationTester) async throws -> HTTPMessage {
        guard case .request(_, let target) = message.start, let uri = URLComponents(string: target) else {
            throw VettedError(code: .malformedHTTPMessage, message: "not a request")
        }
        var headers = HTTPHeaders()
        for field in message.fields where field.name.lowercased() != "host" { headers.add(name: field.name, value: field.value) }
        let path = uri.percentEncodedPath + (uri.percentEncodedQuery.map { "?" + $0 } ?? "")
        let response = try await tester.sendRequest(.POST, path, headers: headers, body: ByteBuffer(bytes: message.body))
        return HTTPMessage(
            status: Int(response.status.code), fields: response.headers.map { HTTPMessage.Field(name: $0.name, value: $0.value) },
            body: Array(response.body.readableBytesView))
    }
}
}
#endif
