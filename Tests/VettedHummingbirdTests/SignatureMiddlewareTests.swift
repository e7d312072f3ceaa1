#if Hummingbird  // the trait that brings in the framework (Package.swift)
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
import VettedHummingbird
import VettedTestSupport

/// RFC 9421 at the door, with PyPI's `http-message-signatures` as the other side
/// (`scripts/interop/httpsig_peer.py`): it signs requests the middleware verifies,
/// and verifies responses the middleware signs.
///
/// The peer signs when the test starts, and on a busy 2-core runner a test's awaits can
/// wait minutes for a thread, so the policy here accepts signatures up to an hour old.
/// Ages themselves are tested against a fixed clock in `HTTPSignatureTests`.
@Suite(.enabled(if: Interop.pythonPeer, "needs python3 with `pip install http-message-signatures`"))
struct HummingbirdSignatureTests {
    /// A router whose routes run only for requests signed by `keys`, and whose every answer `key` signs.
    func router(trusting keys: TrustedKeys, signingWith key: SigningKey, handled: Counter) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: SignResponseMiddleware(HTTPResponseSigning(key: key, tag: "junk")))
        router.add(
            middleware: VerifyHTTPSignatureMiddleware(
                HTTPRequestVerification(
                    trusting: keys, policy: HTTPSignaturePolicy(requiring: [.method, .authority, .path, .query, .field("content-type")], maximumAge: .seconds(3_600)),
                    origin: "https://junk.example")))
        router.post("listings") { _, _ -> Response in
            handled.add()
            return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"ok":true}"#)))
        }
        return router
    }

    @Test func thePeersSignedRequestReachesTheHandlerAndItsSignedAnswerVerifies() async throws {
        let peer = try SignaturePeer(peerAlgorithm: .ed25519)
        let (trusted, serverKey, request) = (peer.trusted, peer.serverKey, peer.request)
        let handled = Counter()
        try await Application(router: router(trusting: trusted, signingWith: serverKey, handled: handled)).test(.router) { client in
            // As signed: the handler runs, and the answer carries the server's signature.
            let answer = try await send(request, client)
            #expect(answer.start == .response(status: 200))
            let verified = try peer.verifies(answer)
            #expect(verified.hasPrefix("verified sig1 by \(serverKey.keyID)"), "\(verified)")

            // One body byte changed in transit: 401, the digest named, the handler not run.
            var tampered = request
            tampered.body[0] ^= 1
            let refused = try await send(tampered, client)
            #expect(refused.start == .response(status: 401))
            let details = try VettedJSONDecoder().decode(ProblemDetails.self, from: refused.body)
            #expect(details.errors.map { "\($0.stage) \($0.code)" } == ["input digestMismatch"])
            // The refusal is signed too, and Vetted's own verifier accepts it.
            let keys = try TrustedKeys([serverKey.verificationKey])
            #expect(try HTTPSignatures.verify(refused, trusting: keys, policy: .response(expectedTag: "junk")).keyID == serverKey.keyID)

            // No signature at all.
            var unsigned = request
            unsigned.removeFields(named: "Signature")
            unsigned.removeFields(named: "Signature-Input")
            let missing = try await send(unsigned, client)
            #expect(missing.start == .response(status: 401))
            #expect(try VettedJSONDecoder().decode(ProblemDetails.self, from: missing.body).errors.map(\.code) == ["missingHTTPSignature"])
        }
        #expect(handled.value == 1)
    }

    /// Sends `message` (the peer's request to `https://junk.example/…`) to the test server; its answer as a message.
    func send(_ message: HTTPMessage, _ client: some TestClientProtocol) async throws -> HTTPMessage {
        guard case .request(let method, let target) = message.start, let uri = URLComponents(string: target) else {
            throw VettedError(code: .malformedHTTPMessage, message: "not a request")
        }
        var headers = HTTPFields()
        for field in message.fields where field.name.lowercased() != "host" {
            if let name = HTTPField.Name(field.name) { headers.append(HTTPField(name: name, value: field.value)) }
        }
        let path = uri.percentEncodedPath + (uri.percentEncodedQuery.map { "?" + $0 } ?? "")
        return try await client.execute(uri: path, method: HTTPRequest.Method(method) ?? .post, headers: headers, body: ByteBuffer(bytes: message.body)) { response in
            HTTPMessage(
                status: Int(response.status.code), fields: response.headers.map { HTTPMessage.Field(name: $0.name.canonicalName, value: $0.value) },
                body: Array(response.body.readableBytesView))
        }
    }
}

/// How many times a handler ran.
final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
#endif
