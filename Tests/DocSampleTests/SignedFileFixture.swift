import Foundation
import Vetted

/// A temporary folder holding a key pair and a file signed by it, as the gate samples read them.
struct SignedFileFixture {
    let folder: URL
    /// The public key file (`TrustedKeys(fileText:)` reads it).
    let publicKeyPath: String
    /// The signed file.
    let path: String
    let bytes: Data
    /// The detached signature of `bytes`, base64, as an HTTP header would carry it.
    let signatureHeader: String

    /// `bytes` written to `listings.json` in a new folder named after `name`, signed by a new `algorithm` key.
    init(_ name: String, algorithm: SignatureAlgorithm, bytes: Data) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = SigningKey.generate(algorithm)
        publicKeyPath = folder.appendingPathComponent("server.pub").path
        try key.writeKeyFiles(privateKeyPath: folder.appendingPathComponent("server.key").path, publicKeyPath: publicKeyPath)
        path = folder.appendingPathComponent("listings.json").path
        self.bytes = bytes
        try bytes.write(to: URL(fileURLWithPath: path))
        signatureHeader = try DetachedSignature.sign(bytes, with: key).base64
    }

    /// The SHA-256 of `bytes`, hex.
    var manifestDigest: String { DigestAlgorithm.sha256.digest(of: bytes).map { String(format: "%02x", $0) }.joined() }

    /// Replaces the file's contents (the signature and digest stay those of `bytes`).
    func overwrite(with data: Data) throws { try data.write(to: URL(fileURLWithPath: path)) }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}
