import Crypto
import Foundation
public import VettedCore

/// The signature algorithms the gate verifies. The raw value is the byte that
/// names the algorithm in signatures and envelopes.
public enum SignatureAlgorithm: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Ed25519 (RFC 8032): 32-byte keys, 64-byte signatures.
    case ed25519 = 1
    /// ECDSA on P-256 with SHA-256: signatures as 64 bytes, r then s.
    case p256 = 2
    /// HMAC-SHA256 with a shared secret: 32-byte tags.
    case hmacSHA256 = 3

    /// The name used in key files and on the command line.
    public var name: String {
        switch self {
        case .ed25519: "ed25519"
        case .p256: "p256"
        case .hmacSHA256: "hmac-sha256"
        }
    }

    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// Length of a signature in bytes.
    public var signatureLength: Int {
        switch self {
        case .ed25519, .p256: 64
        case .hmacSHA256: 32
        }
    }

    /// Whether the verifying key is secret too (HMAC).
    public var isSymmetric: Bool { self == .hmacSHA256 }

    public var description: String { name }
}

/// The name of a key inside signatures: 1 to 64 bytes of printable ASCII
/// without spaces, so a key can be rotated by adding one with a new id.
public struct KeyID: Sendable, Hashable, CustomStringConvertible {
    public static let maximumLength = 64
    public let rawValue: String

    /// A key id: at most ``maximumLength`` printable ASCII characters.
    ///
    /// - Throws: `VettedError` for an empty, too long or non-printable id.
    public init(_ rawValue: String) throws(VettedError) {
        try self.init(bytes: Array(rawValue.utf8))
    }

    init(bytes: [UInt8]) throws(VettedError) {
        guard (1...Self.maximumLength).contains(bytes.count), bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw VettedError(
                code: .invalidKeyID, message: "a key id is 1 to 64 printable ASCII characters without spaces",
                excerpt: Excerpt(before: [], after: bytes))
        }
        rawValue = String(decoding: bytes, as: UTF8.self)
    }

    var bytes: [UInt8] { Array(rawValue.utf8) }
    public var description: String { rawValue }

    /// The default id: the first 8 bytes of SHA-256 over the algorithm byte and the key, in hex.
    static func derived(algorithm: SignatureAlgorithm, key: [UInt8]) -> KeyID {
        var input = Array("vetted-key-id".utf8)
        input.append(algorithm.rawValue)
        input += key
        let digest = Array(SHA256.hash(data: input)).prefix(8)
        // Sixteen lowercase hex digits: always a valid id.
        return KeyID(validated: Hex.encode(digest))
    }

    private init(validated: String) { rawValue = validated }
}

/// A key that signs: an Ed25519 or P-256 private key, or an HMAC secret.
public struct SigningKey: Sendable {
    enum Material: Sendable {
        case ed25519(Curve25519.Signing.PrivateKey)
        case p256(P256.Signing.PrivateKey)
        case hmac([UInt8])
    }

    let material: Material
    public let keyID: KeyID

    public var algorithm: SignatureAlgorithm {
        switch material {
        case .ed25519: .ed25519
        case .p256: .p256
        case .hmac: .hmacSHA256
        }
    }

    /// A new random key; its id is derived from the public key (or secret) unless given.
    public static func generate(_ algorithm: SignatureAlgorithm, keyID: KeyID? = nil) -> SigningKey {
        let material: Material =
            switch algorithm {
            case .ed25519: .ed25519(Curve25519.Signing.PrivateKey())
            case .p256: .p256(P256.Signing.PrivateKey())
            case .hmacSHA256: .hmac((0..<32).map { _ in UInt8.random(in: 0...255) })  // the system generator: getrandom
            }
        return SigningKey(material: material, keyID: keyID)
    }

    init(material: Material, keyID: KeyID?) {
        self.material = material
        if let keyID {
            self.keyID = keyID
        } else {
            // Derived from what the verifier holds, so both ends derive the same id.
            let verifying = VerificationKey.Material(material)
            self.keyID = KeyID.derived(algorithm: verifying.algorithm, key: VerificationKey.rawBytes(of: verifying))
        }
    }

    /// A key from its raw bytes: 32 for Ed25519 and P-256, 16 to 1,024 for an HMAC secret.
    ///
    /// - Throws: `VettedError` for a length the algorithm does not take or bytes that are not a key.
    public init(_ algorithm: SignatureAlgorithm, rawRepresentation raw: [UInt8], keyID: KeyID? = nil) throws(VettedError) {
        let material: Material
        do {
            switch algorithm {
            case .ed25519: material = .ed25519(try Curve25519.Signing.PrivateKey(rawRepresentation: raw))
            case .p256: material = .p256(try P256.Signing.PrivateKey(rawRepresentation: raw))
            case .hmacSHA256: material = .hmac(try VerificationKey.secret(raw))
            }
        } catch {
            throw VettedError(code: .malformedKey, message: "not a valid \(algorithm) private key")
        }
        self.init(material: material, keyID: keyID)
    }

    /// The private key's (or secret's) bytes.
    public var rawRepresentation: [UInt8] {
        switch material {
        case .ed25519(let key): Array(key.rawRepresentation)
        case .p256(let key): Array(key.rawRepresentation)
        case .hmac(let key): key
        }
    }

    /// The key that verifies this key's signatures, with the same id. For HMAC it is the secret itself.
    public var verificationKey: VerificationKey { VerificationKey(material: .init(material), keyID: keyID) }

    /// Signs `message` (the gate signs `SignedMessage` (see the article Raw data) bytes, never a bare payload).
    ///
    /// - Throws: `VettedError` when the cryptographic library refuses to sign.
    public func signature(for message: [UInt8]) throws(VettedError) -> [UInt8] {
        do {
            switch material {
            case .ed25519(let key): return Array(try key.signature(for: message))
            case .p256(let key): return Array(try key.signature(for: message).rawRepresentation)
            case .hmac(let key): return Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
            }
        } catch {
            throw VettedError(code: "signingFailed", message: "the \(algorithm) key could not sign")
        }
    }

    /// One line: `vetted-private-key-v1 ALGORITHM KEYID BASE64` (`vetted-secret-key-v1` for HMAC).
    public var fileText: String {
        let kind = algorithm.isSymmetric ? KeyFile.secret : KeyFile.private
        return KeyFile.line(kind: kind, algorithm: algorithm, keyID: keyID, key: rawRepresentation)
    }

    /// A key from the text of a private or secret key file: Vetted's one line, or PEM (PKCS#8 or SEC 1).
    ///
    /// - Throws: `VettedError` for text that is not a key file of a private or secret key.
    public init(fileText: String) throws(VettedError) {
        if PEMKey.isPEM(fileText) {
            try self.init(pemRepresentation: fileText)
            return
        }
        let line = try KeyFile.parse(fileText, kinds: [KeyFile.private, KeyFile.secret])
        try self.init(line.algorithm, rawRepresentation: line.key, keyID: line.keyID)
    }
}

/// A key that verifies: an Ed25519 or P-256 public key, or an HMAC secret.
public struct VerificationKey: Sendable {
    enum Material: Sendable {
        case ed25519(Curve25519.Signing.PublicKey)
        case p256(P256.Signing.PublicKey)
        case hmac([UInt8])

        /// The verifying half of a signing key (for HMAC, the same secret).
        init(_ signing: SigningKey.Material) {
            switch signing {
            case .ed25519(let key): self = .ed25519(key.publicKey)
            case .p256(let key): self = .p256(key.publicKey)
            case .hmac(let key): self = .hmac(key)
            }
        }

        var algorithm: SignatureAlgorithm {
            switch self {
            case .ed25519: .ed25519
            case .p256: .p256
            case .hmac: .hmacSHA256
            }
        }
    }

    let material: Material
    public let keyID: KeyID

    init(material: Material, keyID: KeyID) {
        self.material = material
        self.keyID = keyID
    }

    public var algorithm: SignatureAlgorithm { material.algorithm }

    /// A key from its raw bytes: 32 for Ed25519, 64 (x then y) or 65 (X9.63) for P-256,
    /// 16 to 1,024 for an HMAC secret. The id is derived from the key unless given.
    ///
    /// - Throws: `VettedError` for a length the algorithm does not take or bytes that are not a key.
    public init(_ algorithm: SignatureAlgorithm, rawRepresentation raw: [UInt8], keyID: KeyID? = nil) throws(VettedError) {
        let material: Material
        do {
            switch algorithm {
            case .ed25519: material = .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: raw))
            case .p256:
                material = .p256(
                    raw.count == 65
                        ? try P256.Signing.PublicKey(x963Representation: raw) : try P256.Signing.PublicKey(rawRepresentation: raw))
            case .hmacSHA256: material = .hmac(try Self.secret(raw))
            }
        } catch {
            throw VettedError(code: .malformedKey, message: "not a valid \(algorithm) public key")
        }
        self.material = material
        self.keyID = keyID ?? KeyID.derived(algorithm: algorithm, key: Self.rawBytes(of: material))
    }

    static func secret(_ raw: [UInt8]) throws(VettedError) -> [UInt8] {
        guard (16...1_024).contains(raw.count) else {
            throw VettedError(code: .malformedKey, message: "an HMAC secret has 16 to 1,024 bytes")
        }
        return raw
    }

    /// The public key's bytes (Ed25519: 32; P-256: 64, x then y), or the HMAC secret.
    public var rawRepresentation: [UInt8] { Self.rawBytes(of: material) }

    static func rawBytes(of material: Material) -> [UInt8] {
        switch material {
        case .ed25519(let key): Array(key.rawRepresentation)
        case .p256(let key): Array(key.rawRepresentation)
        case .hmac(let key): key
        }
    }

    /// Whether `signature` is this key's signature of `message`. HMAC tags are compared in constant time.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard signature.count == algorithm.signatureLength else { return false }
        switch material {
        case .ed25519(let key):
            return key.isValidSignature(signature, for: message)
        case .p256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: message)
        case .hmac(let key):
            return HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: message, using: SymmetricKey(data: key))
        }
    }

    /// One line: `vetted-public-key-v1 ALGORITHM KEYID BASE64` (`vetted-secret-key-v1` for HMAC).
    public var fileText: String {
        let kind = algorithm.isSymmetric ? KeyFile.secret : KeyFile.public
        return KeyFile.line(kind: kind, algorithm: algorithm, keyID: keyID, key: rawRepresentation)
    }

    /// A key from the text of a public or secret key file: Vetted's one line, or
    /// SubjectPublicKeyInfo PEM (its id derived from the key).
    ///
    /// - Throws: `VettedError` for text that is not a key file of a public or secret key.
    public init(fileText: String) throws(VettedError) {
        if PEMKey.isPEM(fileText) {
            try self.init(pemRepresentation: fileText)
            return
        }
        let line = try KeyFile.parse(fileText, kinds: [KeyFile.public, KeyFile.secret])
        try self.init(line.algorithm, rawRepresentation: line.key, keyID: line.keyID)
    }
}

/// The keys a reader trusts, by id. Several keys allow rotation: sign with the
/// new key while readers trust both, then drop the old one.
public struct TrustedKeys: Sendable {
    private var keys: [KeyID: VerificationKey] = [:]
    /// The ids in the order the keys were given.
    public private(set) var keyIDs: [KeyID] = []

    /// Trusts `keys`, each by its id.
    ///
    /// - Throws: `VettedError` (`duplicateKeyID`) when two keys have the same id.
    public init(_ keys: [VerificationKey]) throws(VettedError) {
        for key in keys { try insert(key) }
    }

    /// Keys from a key ring: one key file line per line; blank lines and lines starting with `#` are skipped.
    ///
    /// A PEM public key file (`-----BEGIN PUBLIC KEY-----`) is read as one key, its id derived from the key.
    ///
    /// - Throws: `VettedError` for a line that is not a key file line (its number in the message), or two keys with one id (`duplicateKeyID`).
    public init(fileText: String) throws(VettedError) {
        if PEMKey.isPEM(fileText) {
            try insert(try VerificationKey(pemRepresentation: fileText))
            return
        }
        for (number, line) in fileText.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            do {
                try insert(try VerificationKey(fileText: String(line)))
            } catch {
                var located = error
                located.message = "line \(number + 1): " + error.message
                throw located
            }
        }
    }

    /// Trusts one more key.
    ///
    /// - Throws: `VettedError` (`duplicateKeyID`) when a trusted key already has its id.
    public mutating func insert(_ key: VerificationKey) throws(VettedError) {
        guard keys[key.keyID] == nil else {
            throw VettedError(code: .duplicateKeyID, message: "two trusted keys have the id \(Excerpt.escape(key.keyID.rawValue))")
        }
        keys[key.keyID] = key
        keyIDs.append(key.keyID)
    }

    public subscript(id: KeyID) -> VerificationKey? { keys[id] }
    public var isEmpty: Bool { keys.isEmpty }
}

/// The one-line key file format. Key material never appears in an error.
enum KeyFile {
    static let `private` = "vetted-private-key-v1"
    static let `public` = "vetted-public-key-v1"
    static let secret = "vetted-secret-key-v1"
    /// A key line is short; anything longer is refused before it is split.
    static let maximumLength = 4_096

    static func line(kind: String, algorithm: SignatureAlgorithm, keyID: KeyID, key: [UInt8]) -> String {
        "\(kind) \(algorithm.name) \(keyID.rawValue) \(Data(key).base64EncodedString())\n"
    }

    static func parse(
        _ text: String, kinds: [String]
    ) throws(VettedError) -> (algorithm: SignatureAlgorithm, keyID: KeyID, key: [UInt8]) {
        guard text.utf8.count <= maximumLength else {
            throw VettedError(code: .malformedKey, message: "a key file is one line of at most \(maximumLength) bytes")
        }
        var body = Substring(text)
        if body.hasSuffix("\n") { body = body.dropLast() }
        if body.hasSuffix("\r") { body = body.dropLast() }
        let fields = body.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 4 else {
            throw VettedError(code: .malformedKey, message: "a key file line has four fields: kind, algorithm, key id, base64 key")
        }
        guard kinds.contains(String(fields[0])) else {
            throw VettedError(
                code: .malformedKey,
                message: "expected a key of kind \(kinds.joined(separator: " or ")), found \(Excerpt.escape(String(fields[0])))")
        }
        guard let algorithm = SignatureAlgorithm(name: String(fields[1])) else {
            throw VettedError(code: .unsupportedAlgorithm, message: "unknown algorithm \(Excerpt.escape(String(fields[1])))")
        }
        if (fields[0] == secret) != algorithm.isSymmetric {
            throw VettedError(code: .malformedKey, message: "\(fields[0]) does not go with \(algorithm)")
        }
        let keyID = try KeyID(String(fields[2]))
        guard let key = Data(base64Encoded: String(fields[3])) else {
            throw VettedError(code: .malformedKey, message: "the key is not valid base64")
        }
        return (algorithm, keyID, Array(key))
    }
}

extension SigningKey {
    /// Writes this key's file at `privateKeyPath` and, for a key pair, the
    /// public key's file at `publicKeyPath` (an HMAC secret has no public half).
    ///
    /// Neither file may exist: keys are never overwritten (`keyFileExists`).
    /// The private key's file is created with mode 0600 before the key is
    /// written, and synced; the public key's is 0644. In ``KeyFileFormat/pem``
    /// the private key is PKCS#8 and the public key SubjectPublicKeyInfo (HMAC
    /// secrets have no PEM form: `unsupportedAlgorithm`).
    ///
    /// - Throws: `VettedError` when a file exists already or cannot be written.
    public func writeKeyFiles(privateKeyPath: String, publicKeyPath: String, format: KeyFileFormat = .vetted) throws(VettedError) {
        let paths = algorithm.isSymmetric ? [privateKeyPath] : [privateKeyPath, publicKeyPath]
        for path in paths where FileManager.default.fileExists(atPath: path) {
            throw VettedError(code: .keyFileExists, message: "\(path) exists; not overwriting it")
        }
        switch format {
        case .vetted:
            try Self.write(fileText, to: privateKeyPath, mode: 0o600)
            if !algorithm.isSymmetric { try Self.write(verificationKey.fileText, to: publicKeyPath, mode: 0o644) }
        case .pem:
            let privateText = try pemRepresentation
            let publicText = try verificationKey.pemRepresentation
            try Self.write(privateText, to: privateKeyPath, mode: 0o600)
            try Self.write(publicText, to: publicKeyPath, mode: 0o644)
        }
    }

    /// Creates the file empty with `mode` first, then writes: key material never sits in a wider-open file.
    private static func write(_ text: String, to path: String, mode: Int) throws(VettedError) {
        let files = FileManager.default
        do {
            guard files.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: mode]) else {
                throw VettedError(code: .unwritableKeyFile, message: "cannot create \(path)")
            }
            try files.setAttributes([.posixPermissions: mode], ofItemAtPath: path)  // whatever the umask
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            try handle.write(contentsOf: Data(text.utf8))
            try handle.synchronize()
        } catch let error as VettedError {
            throw error
        } catch {
            throw VettedError(code: .unwritableKeyFile, message: "cannot write \(path)")
        }
    }
}
