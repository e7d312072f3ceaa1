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
        let file = try SignedFileFixture("gate", algorithm: .ed25519, bytes: Data(#"[{"id": 1, "url": "https://example.com/1"}]"#.utf8))
        defer { file.remove() }
        let read = { try signedListings(path: file.path, publicKeyPath: file.publicKeyPath, manifestDigest: file.manifestDigest, signatureHeader: file.signatureHeader) }
        #expect(try read().map(\.id) == [1])

        try file.overwrite(with: Data(#"[{"id": 2, "url": "https://example.com/1"}]"#.utf8))
        let error = #expect(throws: VettedError.self) { try read() }
        #expect(error?.code == .digestMismatch)
    }
}
