import Foundation
import Testing
import VettedCore
import VettedRaw
import VettedTestSupport

/// Interoperability with an implementation Vetted did not write: PyPI's
/// `http-message-signatures` (RFC 9421) and `cryptography` (PEM keys), driven by
/// `scripts/interop/httpsig_peer.py`, and OpenSSL's `openssl pkey`.
@Suite(.enabled(if: Interop.pythonPeer, "needs python3 with `pip install http-message-signatures`"))
struct HTTPSignatureInteropTests {
    @Test(arguments: [SignatureAlgorithm.ed25519, .p256])
    func peerSignsVettedVerifies(algorithm: SignatureAlgorithm) throws {
        let folder = try Interop.folder()
        let key = SigningKey.generate(algorithm)
        try key.writeKeyFiles(privateKeyPath: folder + "/k.key.pem", publicKeyPath: folder + "/k.pub.pem", format: .pem)
        let keys = try TrustedKeys([VerificationKey(pemRepresentation: String(contentsOfFile: folder + "/k.pub.pem", encoding: .utf8), keyID: KeyID("peer"))])
        for kind in ["request", "response"] {
            let run = try Interop.run(["python3", Interop.peer, "sign", folder + "/k.key.pem", "peer", kind])
            #expect(run.status == 0, "\(run.output)")
            let message = try HTTPMessage.parse(Array(run.output.utf8))
            let policy =
                kind == "request"
                ? HTTPSignaturePolicy(requiring: [.method, .authority, .path, .query, .field("content-type")])
                : .response()
            let verified = try HTTPSignatures.verify(message, trusting: keys, policy: policy)
            #expect(verified.keyID.rawValue == "peer" && verified.algorithm == algorithm)
            #expect(verified.body?.bytes == message.body && !message.body.isEmpty)
            // And the peer's signature stops verifying once a covered byte changes.
            var tampered = message
            tampered.body[0] ^= 1
            #expect(thrownError { () throws(VettedError) in _ = try HTTPSignatures.verify(tampered, trusting: keys, policy: policy) }?.code == .digestMismatch)
        }
    }

    @Test(arguments: [SignatureAlgorithm.ed25519, .p256])
    func vettedSignsPeerVerifies(algorithm: SignatureAlgorithm) throws {
        let folder = try Interop.folder()
        let key = SigningKey.generate(algorithm)
        try key.writeKeyFiles(privateKeyPath: folder + "/k.key.pem", publicKeyPath: folder + "/k.pub.pem", format: .pem)
        var response = HTTPMessage(status: 200, fields: [.init(name: "Content-Type", value: "application/json")], body: Array(#"{"ok":true}"#.utf8))
        response.setContentDigest()
        try HTTPSignatures.sign(&response, covering: [.status, .field("content-type"), .field("content-digest")], with: key)
        var request = HTTPMessage(
            method: "POST", targetURI: "https://junk.example/listings?draft=1", fields: [.init(name: "Content-Type", value: "application/json")],
            body: Array(#"{"name":"lamp"}"#.utf8))
        request.setContentDigest()
        try HTTPSignatures.sign(&request, covering: [.method, .authority, .path, .query, .field("content-digest")], with: key)
        for (name, message, components) in [
            ("response", response, ["@status", "content-type", "content-digest"]),
            ("request", request, ["@method", "@authority", "@path", "@query", "content-digest"]),
        ] {
            let path = folder + "/\(name).http"
            try Data(message.wireBytes).write(to: URL(fileURLWithPath: path))
            let run = try Interop.run(["python3", Interop.peer, "verify", folder + "/k.pub.pem", key.keyID.rawValue, path] + components)
            #expect(run.status == 0 && run.output.hasPrefix("verified sig1 by \(key.keyID)"), "\(name): \(run.output)")
            // The peer refuses it too once the body changes.
            var tampered = message
            tampered.body[0] ^= 1
            try Data(tampered.wireBytes).write(to: URL(fileURLWithPath: path))
            let refused = try Interop.run(["python3", Interop.peer, "verify", folder + "/k.pub.pem", key.keyID.rawValue, path] + components)
            #expect(refused.status == 1, "\(name): \(refused.output)")
        }
    }

    /// Vetted's PEM files are read by Python's `cryptography`; keys OpenSSL makes are read by Vetted.
    @Test(arguments: [SignatureAlgorithm.ed25519, .p256])
    func pemBothWays(algorithm: SignatureAlgorithm) throws {
        let folder = try Interop.folder()
        let key = SigningKey.generate(algorithm)
        try key.writeKeyFiles(privateKeyPath: folder + "/v.key.pem", publicKeyPath: folder + "/v.pub.pem", format: .pem)
        let mode = try FileManager.default.attributesOfItem(atPath: folder + "/v.key.pem")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let loaded = try Interop.run(["python3", Interop.peer, "load-keys", folder + "/v.key.pem", folder + "/v.pub.pem"])
        #expect(loaded.status == 0, "\(loaded.output)")
        // And the other way: keys `cryptography` writes, read by Vetted, sign and verify each other's.
        let name = algorithm == .ed25519 ? "ed25519" : "p256"
        let generated = try Interop.run(["python3", Interop.peer, "gen-keys", name, folder + "/p.key.pem", folder + "/p.pub.pem"])
        #expect(generated.status == 0, "\(generated.output)")
        let theirs = try SigningKey(fileText: String(contentsOfFile: folder + "/p.key.pem", encoding: .utf8))
        let theirPublic = try VerificationKey(fileText: String(contentsOfFile: folder + "/p.pub.pem", encoding: .utf8))
        #expect(theirs.algorithm == algorithm && theirPublic.rawRepresentation == theirs.verificationKey.rawRepresentation)
        #expect(theirPublic.keyID == theirs.keyID)  // both derive the same id
    }

    @Test(.enabled(if: Interop.openssl, "needs the openssl command"), arguments: [SignatureAlgorithm.ed25519, .p256])
    func pemWithOpenSSL(algorithm: SignatureAlgorithm) throws {
        let folder = try Interop.folder()
        let key = SigningKey.generate(algorithm)
        try key.writeKeyFiles(privateKeyPath: folder + "/v.key.pem", publicKeyPath: folder + "/v.pub.pem", format: .pem)
        // OpenSSL reads Vetted's files, and derives the same public key from the private one.
        let derived = try Interop.run(["openssl", "pkey", "-in", folder + "/v.key.pem", "-pubout"])
        #expect(derived.status == 0)
        #expect(try VerificationKey(pemRepresentation: derived.output).rawRepresentation == key.verificationKey.rawRepresentation)
        #expect(try Interop.run(["openssl", "pkey", "-pubin", "-in", folder + "/v.pub.pem", "-noout"]).status == 0)
        // Vetted reads what OpenSSL writes: PKCS#8 from genpkey, and SEC 1 with parameters from ecparam.
        let generated =
            algorithm == .ed25519
            ? try Interop.run(["openssl", "genpkey", "-algorithm", "ed25519"])
            : try Interop.run(["openssl", "ecparam", "-name", "prime256v1", "-genkey"])
        #expect(generated.status == 0)
        let theirs = try SigningKey(fileText: generated.output)
        #expect(theirs.algorithm == algorithm)
        try Data(generated.output.utf8).write(to: URL(fileURLWithPath: folder + "/o.key.pem"))
        let theirPublic = try Interop.run(["openssl", "pkey", "-in", folder + "/o.key.pem", "-pubout"])
        #expect(try VerificationKey(fileText: theirPublic.output).rawRepresentation == theirs.verificationKey.rawRepresentation)
    }
}
