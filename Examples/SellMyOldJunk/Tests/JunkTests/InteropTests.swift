import AsyncHTTPClient
import Foundation
import JunkClient
import JunkDemo
import JunkModel
import JunkServer
import NIOCore
import NIOHTTP1
import Testing
import Vetted

/// A verifier Vetted did not write — PyPI's `http-message-signatures`, through
/// `scripts/interop/httpsig_peer.py` — checks live `junk-server` responses with
/// the public key the server wrote as `server.pub.pem`.
@Suite(.enabled(if: Peer.available, "needs python3 with `pip install http-message-signatures`"))
struct InteropTests {
    @Test func pythonVerifiesALiveResponse() async throws {
        try await LiveServer.with { server, _, root in
            let http = ListingsClient.makeHTTPClient()
            let folder = try temporaryFolder("interop")
            let pem = root.appendingPathComponent("server").appendingPathComponent(ServerIdentity.publicPEMFile).path
            let keyID = server.service.identity.publicKey.keyID.rawValue
            for (path, status) in [("/listings", 200), ("/listings?tag=nonsense", 400)] {
                let response = try await http.execute(HTTPClientRequest(url: server.baseURL + path), timeout: .seconds(10))
                #expect(Int(response.status.code) == status)
                let body = try await response.body.collect(upTo: 1 << 20)
                let message = HTTPMessage(
                    status: Int(response.status.code), fields: response.headers.map { HTTPMessage.Field(name: $0.name, value: $0.value) },
                    body: Array(body.readableBytesView))
                let file = folder.appendingPathComponent("response.http")
                try Data(message.wireBytes).write(to: file)
                let verified = try await run(
                    URL(fileURLWithPath: "/usr/bin/env"),
                    ["python3", Peer.script, "verify", pem, keyID, file.path, "@status", "content-type", "content-digest"])
                #expect(verified.status == 0 && verified.stdout.hasPrefix("verified junk by \(keyID)"), "\(verified.stdout)\(verified.stderr)")
                // One changed byte of the body, and the peer refuses it.
                var tampered = message
                tampered.body[tampered.body.count / 2] ^= 1
                try Data(tampered.wireBytes).write(to: file)
                let refused = try await run(
                    URL(fileURLWithPath: "/usr/bin/env"), ["python3", Peer.script, "verify", pem, keyID, file.path, "@status"])
                #expect(refused.status == 1, "\(refused.stdout)")
            }
            try await http.shutdown()
        }
    }
}

enum Peer {
    /// `scripts/interop/httpsig_peer.py` in the Vetted checkout this example sits in.
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/interop/httpsig_peer.py").path
    static let available: Bool =
        (try? runBlocking(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import http_message_signatures"]).status) == 0
}
