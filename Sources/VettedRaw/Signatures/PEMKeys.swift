import Crypto
import CryptoExtras
import Foundation
public import VettedCore

/// How key files are written: Vetted's one-line format, or PEM, which OpenSSL
/// and every crypto library read (PKCS#8 private keys, SubjectPublicKeyInfo public keys).
public enum KeyFileFormat: String, Sendable, Hashable, CaseIterable {
    case vetted
    case pem
}

/// Reading and writing keys as PEM. A PEM file carries no key id: the id is
/// given, or derived from the key as for any Vetted key.
enum PEMKey {
    /// A PEM key file is small; anything longer is refused before it is decoded.
    static let maximumLength = 16_384

    /// The one key block in `text`: `PRIVATE KEY`, `EC PRIVATE KEY` or `PUBLIC KEY`.
    /// Other blocks (OpenSSL's `EC PARAMETERS`) are skipped; two key blocks are refused.
    static func keyBlock(_ text: String, labels: [String]) throws(VettedError) -> String {
        guard text.utf8.count <= maximumLength else {
            throw VettedError(code: .malformedKey, message: "a PEM key file has at most \(maximumLength) bytes")
        }
        var blocks: [String] = []
        var current: [Substring]?
        var label = ""
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("-----BEGIN "), trimmed.hasSuffix("-----") {
                label = String(trimmed.dropFirst("-----BEGIN ".count).dropLast(5))
                current = [Substring(trimmed)]
            } else if trimmed.hasPrefix("-----END "), var lines = current {
                lines.append(Substring(trimmed))
                if labels.contains(label) { blocks.append(lines.joined(separator: "\n") + "\n") }
                current = nil
            } else if current != nil {
                current?.append(Substring(trimmed))
            }
        }
        guard blocks.count == 1, let block = blocks.first else {
            throw VettedError(
                code: .malformedKey,
                message: blocks.isEmpty
                    ? "no \(labels.joined(separator: " or ")) block in the PEM text" : "more than one key in the PEM text")
        }
        return block
    }

    static func isPEM(_ text: String) -> Bool { text.contains("-----BEGIN ") }
}

extension SigningKey {
    /// An Ed25519 or P-256 private key from PEM: PKCS#8 (`PRIVATE KEY`) or, for
    /// P-256, SEC 1 (`EC PRIVATE KEY`). HMAC secrets have no PEM form.
    ///
    /// - Throws: `VettedError` for text that is not such a PEM key.
    public init(pemRepresentation text: String, keyID: KeyID? = nil) throws(VettedError) {
        let block = try PEMKey.keyBlock(text, labels: ["PRIVATE KEY", "EC PRIVATE KEY"])
        if let key = try? Curve25519.Signing.PrivateKey(pemRepresentation: block) {
            self.init(material: .ed25519(key), keyID: keyID)
        } else if let key = try? P256.Signing.PrivateKey(pemRepresentation: block) {
            self.init(material: .p256(key), keyID: keyID)
        } else {
            throw VettedError(code: .malformedKey, message: "the PEM private key is neither Ed25519 nor P-256")
        }
    }

    /// The private key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    public var pemRepresentation: String {
        get throws(VettedError) {
            switch material {
            case .ed25519(let key): return key.pemRepresentation
            case .p256(let key): return key.pemRepresentation
            case .hmac: throw VettedError(code: .unsupportedAlgorithm, message: "an HMAC secret has no PEM form")
            }
        }
    }
}

extension VerificationKey {
    /// An Ed25519 or P-256 public key from SubjectPublicKeyInfo PEM (`PUBLIC KEY`).
    ///
    /// - Throws: `VettedError` for text that is not such a PEM key.
    public init(pemRepresentation text: String, keyID: KeyID? = nil) throws(VettedError) {
        let block = try PEMKey.keyBlock(text, labels: ["PUBLIC KEY"])
        let material: Material
        if let key = try? Curve25519.Signing.PublicKey(pemRepresentation: block) {
            material = .ed25519(key)
        } else if let key = try? P256.Signing.PublicKey(pemRepresentation: block) {
            material = .p256(key)
        } else {
            throw VettedError(code: .malformedKey, message: "the PEM public key is neither Ed25519 nor P-256")
        }
        self.init(material: material, keyID: keyID ?? KeyID.derived(algorithm: material.algorithm, key: Self.rawBytes(of: material)))
    }

    /// The public key as SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`).
    public var pemRepresentation: String {
        get throws(VettedError) {
            switch material {
            case .ed25519(let key): return key.pemRepresentation
            case .p256(let key): return key.pemRepresentation
            case .hmac: throw VettedError(code: .unsupportedAlgorithm, message: "an HMAC secret has no PEM form")
            }
        }
    }
}
