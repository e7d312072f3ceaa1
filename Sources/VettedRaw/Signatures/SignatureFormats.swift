import Crypto
public import Foundation
public import VettedCore

/// What every signature covers: the format version, the algorithm, the key id,
/// the payload's length and its SHA-256 digest.
///
/// ```
/// "VSIG" | version (1 byte) | algorithm (1) | key id length K (1) | key id (K)
///        | payload length (8, big-endian) | SHA-256 of the payload (32)
/// ```
///
/// Signing the digest rather than the payload lets a large payload be hashed
/// as it streams in, once, and checked before any of it is parsed.
enum SignedMessage {
    static func bytes(algorithm: SignatureAlgorithm, keyID: KeyID, payloadLength: UInt64, payloadSHA256: [UInt8]) -> [UInt8] {
        header(magic: DetachedSignature.magic, algorithm: algorithm, keyID: keyID, payloadLength: payloadLength) + payloadSHA256
    }

    /// The fields every format starts with: magic, version, algorithm, key id, payload length.
    static func header(magic: [UInt8], algorithm: SignatureAlgorithm, keyID: KeyID, payloadLength: UInt64) -> [UInt8] {
        var bytes = magic
        bytes.append(DetachedSignature.currentVersion)
        bytes.append(algorithm.rawValue)
        let id = keyID.bytes
        bytes.append(UInt8(truncatingIfNeeded: id.count))  // 1...64, checked by KeyID
        bytes += id
        bytes += BigEndian.bytes(payloadLength)
        return bytes
    }
}

/// A signature kept apart from the bytes it signs (a `.sig` file, an HTTP header).
///
/// Byte layout, version 1:
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | magic `VSIG` |
/// | 4 | 1 | version, 1 |
/// | 5 | 1 | algorithm: 1 Ed25519, 2 ECDSA P-256, 3 HMAC-SHA256 |
/// | 6 | 1 | key id length K, 1…64 |
/// | 7 | K | key id, printable ASCII |
/// | 7+K | 8 | payload length, big-endian |
/// | 15+K | 1 | signature length S: 64, 64 or 32 by algorithm |
/// | 16+K | S | signature over `SignedMessage` (see the article Raw data) |
///
/// Nothing may follow. Total: 16 + K + S bytes.
public struct DetachedSignature: Sendable, Hashable {
    static let magic = Array("VSIG".utf8)
    /// The one version this library writes and reads.
    public static let currentVersion: UInt8 = 1

    public let algorithm: SignatureAlgorithm
    public let keyID: KeyID
    public let payloadLength: UInt64
    public let signature: [UInt8]

    /// Signs `payload` with `key`.
    ///
    /// - Throws: `VettedError` when the cryptographic library refuses to sign.
    public static func sign(_ payload: some DataProtocol, with key: SigningKey) throws(VettedError) -> DetachedSignature {
        let message = SignedMessage.bytes(
            algorithm: key.algorithm, keyID: key.keyID, payloadLength: UInt64(payload.count), payloadSHA256: Array(SHA256.hash(data: payload)))
        return DetachedSignature(
            algorithm: key.algorithm, keyID: key.keyID, payloadLength: UInt64(payload.count),
            signature: try key.signature(for: message))
    }

    init(algorithm: SignatureAlgorithm, keyID: KeyID, payloadLength: UInt64, signature: [UInt8]) {
        self.algorithm = algorithm
        self.keyID = keyID
        self.payloadLength = payloadLength
        self.signature = signature
    }

    /// Reads the binary form. Every field is checked; errors carry the offset of the bad field.
    ///
    /// - Throws: `VettedError` at the offset of the first malformed field.
    public init(parsing bytes: [UInt8]) throws(VettedError) {
        var reader = FieldReader(bytes: bytes, code: .malformedSignature, what: "signature")
        let header = try reader.header(magic: Self.magic)
        let length = try reader.signatureLength(for: header.algorithm)
        let signature = try reader.take(length, "signature")
        try reader.expectEnd()
        self.init(algorithm: header.algorithm, keyID: header.keyID, payloadLength: header.payloadLength, signature: signature)
    }

    /// Reads the base64 of the binary form (as sent in an HTTP header).
    ///
    /// - Throws: `VettedError` for text that is not base64, then as ``init(parsing:)``.
    public init(base64: String) throws(VettedError) {
        guard base64.utf8.count <= 1_024, let data = Data(base64Encoded: base64) else {
            throw VettedError(code: .malformedSignature, message: "the signature is not valid base64")
        }
        try self.init(parsing: Array(data))
    }

    /// The binary form.
    public var bytes: [UInt8] {
        var bytes = SignedMessage.header(magic: Self.magic, algorithm: algorithm, keyID: keyID, payloadLength: payloadLength)
        bytes.append(UInt8(truncatingIfNeeded: signature.count))
        bytes += signature
        return bytes
    }

    /// The base64 of ``bytes``.
    public var base64: String { Data(bytes).base64EncodedString() }

    /// Checks that this signature, by a trusted key, covers `payload`.
    ///
    /// - Throws: `VettedError` when no trusted key has the signature's id, the algorithm differs, or the signature does not verify.
    public func verify(_ payload: some DataProtocol, trusting keys: TrustedKeys) throws(VettedError) -> KeyID {
        try verify(payloadLength: payload.count, payloadSHA256: Array(SHA256.hash(data: payload)), trusting: keys)
    }

    /// Checks the signature against a payload already hashed (the gate hashes while reading).
    func verify(payloadLength: Int, payloadSHA256: [UInt8], trusting keys: TrustedKeys) throws(VettedError) -> KeyID {
        let key = try Self.trustedKey(keyID, algorithm: algorithm, in: keys)
        guard UInt64(payloadLength) == self.payloadLength else {
            throw VettedError(
                code: .payloadLengthMismatch,
                message: "the signature covers \(self.payloadLength) bytes, the payload has \(payloadLength)")
        }
        let message = SignedMessage.bytes(
            algorithm: algorithm, keyID: keyID, payloadLength: self.payloadLength, payloadSHA256: payloadSHA256)
        guard key.isValidSignature(signature, for: message) else {
            throw VettedError(code: .signatureMismatch, message: "the \(algorithm) signature by key \(keyID) does not verify")
        }
        return keyID
    }

    /// The trusted key with `id`, if its algorithm is `algorithm`.
    static func trustedKey(_ id: KeyID, algorithm: SignatureAlgorithm, in keys: TrustedKeys) throws(VettedError) -> VerificationKey {
        guard let key = keys[id] else {
            throw VettedError(code: .unknownKeyID, message: "no trusted key has the id \(Excerpt.escape(id.rawValue))")
        }
        // The trusted key decides the algorithm, never the signature: no algorithm confusion.
        guard key.algorithm == algorithm else {
            throw VettedError(
                code: .algorithmMismatch,
                message: "the signature says \(algorithm), the trusted key \(id) is \(key.algorithm)")
        }
        return key
    }
}

/// A payload together with its signature, in one self-describing blob.
///
/// Byte layout, version 1:
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | magic `VENV` |
/// | 4 | 1 | version, 1 |
/// | 5 | 1 | algorithm: 1 Ed25519, 2 ECDSA P-256, 3 HMAC-SHA256 |
/// | 6 | 1 | key id length K, 1…64 |
/// | 7 | K | key id, printable ASCII |
/// | 7+K | 8 | payload length N, big-endian |
/// | 15+K | N | payload |
/// | 15+K+N | 1 | signature length S: 64, 64 or 32 by algorithm |
/// | 16+K+N | S | signature over `SignedMessage` (see the article Raw data) |
///
/// Nothing may follow. Total: 16 + K + N + S bytes. The payload is handed
/// out, as ``VerifiedBytes``, only after the signature checks out.
public enum Envelope {
    static let magic = Array("VENV".utf8)

    /// Wraps `payload` with a signature by `key`.
    ///
    /// - Throws: `VettedError` when the cryptographic library refuses to sign.
    public static func seal(_ payload: [UInt8], with key: SigningKey) throws(VettedError) -> [UInt8] {
        let detached = try DetachedSignature.sign(payload, with: key)
        var bytes = SignedMessage.header(magic: magic, algorithm: key.algorithm, keyID: key.keyID, payloadLength: UInt64(payload.count))
        bytes += payload
        bytes.append(UInt8(truncatingIfNeeded: detached.signature.count))
        bytes += detached.signature
        return bytes
    }

    /// Checks the envelope's structure and signature; returns its payload.
    ///
    /// - Throws: `VettedError` for a malformed envelope or a signature that does not verify.
    public static func open(_ envelope: [UInt8], trusting keys: TrustedKeys) throws(VettedError) -> VerifiedBytes {
        let (payload, keyID) = try openPayload(envelope, trusting: keys)
        return VerifiedBytes(
            bytes: payload,
            report: GateReport(byteCount: envelope.count, digest: nil, signedBy: keyID, envelope: true))
    }

    static func openPayload(_ envelope: [UInt8], trusting keys: TrustedKeys) throws(VettedError) -> ([UInt8], KeyID) {
        var reader = FieldReader(bytes: envelope, code: .malformedEnvelope, what: "envelope")
        let header = try reader.header(magic: magic)
        let payloadStart = reader.offset
        // The length is checked against the bytes actually there before anything is sliced.
        guard header.payloadLength <= UInt64(envelope.count - payloadStart) else {
            throw reader.error(at: payloadStart - 8, "the payload length \(header.payloadLength) runs past the end of the envelope")
        }
        let payload = try reader.take(Int(header.payloadLength), "payload")
        let length = try reader.signatureLength(for: header.algorithm)
        let signature = try reader.take(length, "signature")
        try reader.expectEnd()
        let detached = DetachedSignature(
            algorithm: header.algorithm, keyID: header.keyID, payloadLength: header.payloadLength, signature: signature)
        let keyID = try detached.verify(payload, trusting: keys)
        return (payload, keyID)
    }
}

/// Reads the fixed fields of the two formats with every bound checked.
struct FieldReader {
    let bytes: [UInt8]
    let code: VettedError.Code
    let what: String
    private(set) var offset = 0

    init(bytes: [UInt8], code: VettedError.Code, what: String) {
        self.bytes = bytes
        self.code = code
        self.what = what
    }

    func error(at offset: Int, _ message: String) -> VettedError {
        VettedError(code: code, offset: offset, message: message, excerpt: SourceText(bytes).excerpt(at: offset))
    }

    mutating func take(_ count: Int, _ field: String) throws(VettedError) -> [UInt8] {
        guard count >= 0, count <= bytes.count - offset else {
            throw error(at: offset, "the \(what) ends inside its \(field)")
        }
        let slice = Array(bytes[offset..<offset + count])
        offset += count
        return slice
    }

    mutating func byte(_ field: String) throws(VettedError) -> UInt8 {
        guard offset < bytes.count else { throw error(at: offset, "the \(what) ends before its \(field)") }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Magic, version, algorithm, key id and payload length.
    mutating func header(
        magic: [UInt8]
    ) throws(VettedError) -> (algorithm: SignatureAlgorithm, keyID: KeyID, payloadLength: UInt64) {
        guard try take(magic.count, "magic") == magic else {
            throw error(at: 0, "not a Vetted \(what): it does not start with \(String(decoding: magic, as: UTF8.self))")
        }
        let versionOffset = offset
        let version = try byte("version")
        guard version == DetachedSignature.currentVersion else {
            throw VettedError(
                code: .unsupportedVersion, offset: versionOffset, message: "\(what) version \(version) is not supported (only 1)")
        }
        let algorithmOffset = offset
        let rawAlgorithm = try byte("algorithm")
        guard let algorithm = SignatureAlgorithm(rawValue: rawAlgorithm) else {
            throw VettedError(
                code: .unsupportedAlgorithm, offset: algorithmOffset, message: "unknown signature algorithm \(rawAlgorithm)")
        }
        let idOffset = offset
        let idLength = Int(try byte("key id length"))
        let idBytes = try take(idLength, "key id")
        let keyID: KeyID
        do {
            keyID = try KeyID(bytes: idBytes)
        } catch {
            throw VettedError(code: .invalidKeyID, offset: idOffset, message: error.message)
        }
        let length = try take(8, "payload length")
        return (algorithm, keyID, BigEndian.value(length))
    }

    mutating func signatureLength(for algorithm: SignatureAlgorithm) throws(VettedError) -> Int {
        let lengthOffset = offset
        let length = Int(try byte("signature length"))
        guard length == algorithm.signatureLength else {
            throw error(at: lengthOffset, "a \(algorithm) signature has \(algorithm.signatureLength) bytes, not \(length)")
        }
        return length
    }

    func expectEnd() throws(VettedError) {
        guard offset == bytes.count else {
            throw error(at: offset, "\(bytes.count - offset) bytes follow the end of the \(what)")
        }
    }
}

enum BigEndian {
    static func bytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
    }

    static func value(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
