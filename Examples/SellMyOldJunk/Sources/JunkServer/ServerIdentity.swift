public import Foundation
public import Vetted

/// The server's Ed25519 key pair. Created on first run in the data directory:
/// `server.key` (the private key, mode 0600, written once, never overwritten),
/// `server.pub` (the public key, for clients to pin) and `server.pub.pem` (the
/// same public key as SubjectPublicKeyInfo PEM, for verifiers on other stacks).
///
/// The key id is derived from the public key, so a verifier that reads the PEM
/// file (which carries no id) derives the id the server's signatures name.
public struct ServerIdentity: Sendable {
    public let signingKey: SigningKey
    public var publicKey: VerificationKey { signingKey.verificationKey }

    public static let privateKeyFile = "server.key"
    public static let publicKeyFile = "server.pub"
    public static let publicPEMFile = "server.pub.pem"

    public init(signingKey: SigningKey) { self.signingKey = signingKey }

    /// Loads the key pair in `directory`, creating it when there is none.
    public static func loadOrCreate(in directory: URL) throws -> ServerIdentity {
        let privateURL = directory.appendingPathComponent(privateKeyFile)
        let publicURL = directory.appendingPathComponent(publicKeyFile)
        let files = FileManager.default
        if files.fileExists(atPath: privateURL.path) {
            let bytes = try BoundedReader.read(contentsOfFile: privateURL.path, maxBytes: 4096)
            let identity = ServerIdentity(signingKey: try SigningKey(fileText: String(decoding: bytes, as: UTF8.self)))
            if !files.fileExists(atPath: publicURL.path) {
                try Data(identity.publicKey.fileText.utf8).write(to: publicURL, options: .atomic)
            }
            try identity.writePEM(in: directory)
            return identity
        }
        let identity = ServerIdentity(signingKey: SigningKey.generate(.ed25519))
        // server.key is created 0600 before the key is written; neither file is ever overwritten.
        try identity.signingKey.writeKeyFiles(privateKeyPath: privateURL.path, publicKeyPath: publicURL.path)
        try identity.writePEM(in: directory)
        return identity
    }

    /// `server.pub.pem`, when it is not there.
    private func writePEM(in directory: URL) throws {
        let url = directory.appendingPathComponent(Self.publicPEMFile)
        guard !FileManager.default.fileExists(atPath: url.path) else { return }
        try Data(try publicKey.pemRepresentation.utf8).write(to: url, options: .atomic)
    }
}
