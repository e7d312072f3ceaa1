// The gate article's sample (TheGate), compiled and run on a signed file. Its
// declarations are private here (other samples declare a `Listing` too), so the
// sample is split into regions around those `private` lines.

import Foundation
import Testing
import Vetted

private
// sample: TheGate.md#1
struct Listing: Codable { var id: Int; var url: String }   // the fields this reader needs

// end sample
private
// sample: TheGate.md#1
/// The listings at `path`, read only if the file is at most 1 MiB, its SHA-256 is
/// `manifestDigest` (hex or base64) and `signatureHeader` is a signature of it by
/// the key in server.pub at `publicKeyPath`.
func signedListings(path: String, publicKeyPath: String, manifestDigest: String, signatureHeader: String) throws -> [Listing] {
    let keys = try TrustedKeys(fileText: String(contentsOfFile: publicKeyPath, encoding: .utf8))
    let policy = GatePolicy(
        maxBytes: 1 << 20,                                     // refused from the file's size, or at the cap
        digest: try ExpectedDigest(.sha256, hexOrBase64: manifestDigest),
        signature: .detached(try DetachedSignature(base64: signatureHeader), trusting: keys),
        limits: Limits(maxDepth: 16))                          // for the parser, after the gate
    return try VettedJSONDecoder().decode([Listing].self, from: .file(path: path), policy: policy)
    // also: from: .bytes(…), .data(…), .fileHandle(…), or any AsyncSequence of byte chunks (an HTTP body)
}
// end sample

@Suite struct GateSampleTests {
    /// A signed file with its digest passes the gate and decodes; one changed byte does not.
    @Test func gate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-gate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = SigningKey.generate(.ed25519)
        let publicKeyPath = folder.appendingPathComponent("server.pub").path
        try key.writeKeyFiles(privateKeyPath: folder.appendingPathComponent("server.key").path, publicKeyPath: publicKeyPath)
        let path = folder.appendingPathComponent("listings.json").path
        let bytes = Data(#"[{"id": 1, "url": "https://example.com/1"}]"#.utf8)
        try bytes.write(to: URL(fileURLWithPath: path))
        let manifestDigest = DigestAlgorithm.sha256.digest(of: bytes).map { String(format: "%02x", $0) }.joined()
        let signatureHeader = try DetachedSignature.sign(bytes, with: key).base64
        let listings = try signedListings(path: path, publicKeyPath: publicKeyPath, manifestDigest: manifestDigest, signatureHeader: signatureHeader)
        #expect(listings.map(\.id) == [1])

        try Data(#"[{"id": 2, "url": "https://example.com/1"}]"#.utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: VettedError.self) {
            try signedListings(path: path, publicKeyPath: publicKeyPath, manifestDigest: manifestDigest, signatureHeader: signatureHeader)
        }
        #expect(error?.code == .digestMismatch)
    }
}
