import Foundation
import VettedCore
public import VettedRaw

/// Both sides of an RFC 9421 exchange for the adapters' middleware tests: PyPI's
/// `http-message-signatures` (through `scripts/interop/httpsig_peer.py`) signs a request
/// to `https://junk.example/listings?draft=1`, and verifies the answers a server signs.
public struct SignaturePeer: Sendable {
    /// Where the keys and answers are written.
    public let folder: String
    /// The peer's public key, as the server trusts it (key id `peer`).
    public let trusted: TrustedKeys
    /// The server's key; the peer verifies with its public half.
    public let serverKey: SigningKey
    /// The request the peer signed: `@method`, `@authority`, `@path`, `@query`, `content-type`, `content-digest`.
    public let request: HTTPMessage

    public init(peerAlgorithm: SignatureAlgorithm) throws {
        folder = try Interop.folder()
        let peerKey = SigningKey.generate(peerAlgorithm)
        try peerKey.writeKeyFiles(privateKeyPath: folder + "/p.key.pem", publicKeyPath: folder + "/p.pub.pem", format: .pem)
        trusted = try TrustedKeys([
            VerificationKey(pemRepresentation: String(contentsOfFile: folder + "/p.pub.pem", encoding: .utf8), keyID: KeyID("peer"))
        ])
        serverKey = SigningKey.generate(.ed25519)
        try serverKey.writeKeyFiles(privateKeyPath: folder + "/s.key.pem", publicKeyPath: folder + "/s.pub.pem", format: .pem)
        let signed = try Interop.run(["python3", Interop.peer, "sign", folder + "/p.key.pem", "peer", "request"])
        guard signed.status == 0 else { throw VettedError(code: .malformedHTTPMessage, message: "the peer did not sign: \(signed.output)") }
        request = try HTTPMessage.parse(Array(signed.output.utf8))
    }

    /// What the peer says of an answer the server signed: `verified sig1 by KEY-ID: …` when it verifies.
    public func verifies(_ answer: HTTPMessage) throws -> String {
        let path = folder + "/answer.http"
        try Data(answer.wireBytes).write(to: URL(fileURLWithPath: path))
        return try Interop.run(
            ["python3", Interop.peer, "verify", folder + "/s.pub.pem", serverKey.keyID.rawValue, path, "@status", "content-type", "content-digest"]
        ).output
    }
}
