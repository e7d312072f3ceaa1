import Crypto
public import Foundation
public import VettedCore

/// The SHA-2 digests the gate checks.
public enum DigestAlgorithm: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case sha256, sha384, sha512

    /// Digest length in bytes.
    public var byteCount: Int {
        switch self {
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    public var description: String { rawValue.uppercased().replacingOccurrences(of: "SHA", with: "SHA-") }

    /// The digest of `bytes` in one call.
    public func digest(of bytes: some DataProtocol) -> [UInt8] {
        var hasher = StreamingDigest(self)
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of a file, hashed in chunks of ``BoundedReader/chunkSize``
    /// bytes: the file is never held in memory. Refuses files over `maxBytes`.
    ///
    /// - Throws: `VettedError`: the file cannot be opened or read, or holds more than `maxBytes`.
    public func digest(ofFile path: String, maxBytes: Int = .max) throws(VettedError) -> [UInt8] {
        let opened = try BoundedReader.open(path, maxBytes: maxBytes)
        defer { try? opened.handle.close() }
        return try digest(of: opened.handle, maxBytes: maxBytes)
    }

    /// The digest of everything a handle delivers (standard input, a pipe), hashed
    /// chunk by chunk; refuses more than `maxBytes`.
    ///
    /// - Throws: `VettedError`: a read fails, or more than `maxBytes` arrive.
    public func digest(of handle: FileHandle, maxBytes: Int = .max) throws(VettedError) -> [UInt8] {
        var hasher = StreamingDigest(self)
        try BoundedReader.forEachChunk(of: handle, maxBytes: maxBytes) { hasher.update($0) }
        return hasher.finalize()
    }
}

/// A digest computed chunk by chunk, so large input is hashed as it streams by.
public struct StreamingDigest: Sendable {
    private enum State: Sendable {
        case sha256(SHA256)
        case sha384(SHA384)
        case sha512(SHA512)
    }

    public let algorithm: DigestAlgorithm
    private var state: State

    public init(_ algorithm: DigestAlgorithm) {
        self.algorithm = algorithm
        switch algorithm {
        case .sha256: state = .sha256(SHA256())
        case .sha384: state = .sha384(SHA384())
        case .sha512: state = .sha512(SHA512())
        }
    }

    public mutating func update(_ bytes: some DataProtocol) {
        switch state {
        case .sha256(var hasher):
            hasher.update(data: bytes)
            state = .sha256(hasher)
        case .sha384(var hasher):
            hasher.update(data: bytes)
            state = .sha384(hasher)
        case .sha512(var hasher):
            hasher.update(data: bytes)
            state = .sha512(hasher)
        }
    }

    public func finalize() -> [UInt8] {
        switch state {
        case .sha256(let hasher): Array(hasher.finalize())
        case .sha384(let hasher): Array(hasher.finalize())
        case .sha512(let hasher): Array(hasher.finalize())
        }
    }
}

/// The digest the bytes must have, from a trusted channel (a manifest, a header
/// signed elsewhere, configuration).
public struct ExpectedDigest: Sendable, Hashable, CustomStringConvertible {
    public let algorithm: DigestAlgorithm
    public let bytes: [UInt8]

    /// A digest of the algorithm's length.
    ///
    /// - Throws: `VettedError` when `bytes` is not the algorithm's length.
    public init(_ algorithm: DigestAlgorithm, bytes: [UInt8]) throws(VettedError) {
        guard bytes.count == algorithm.byteCount else {
            throw VettedError(
                code: .malformedDigest,
                message: "a \(algorithm) digest has \(algorithm.byteCount) bytes, this one has \(bytes.count)")
        }
        self.algorithm = algorithm
        self.bytes = bytes
    }

    /// A digest written in hexadecimal (either case; nothing else, not even spaces).
    ///
    /// - Throws: `VettedError` for text that is not hexadecimal of the algorithm's length.
    public init(_ algorithm: DigestAlgorithm, hex: String) throws(VettedError) {
        guard let bytes = Hex.decode(hex) else {
            throw VettedError(
                code: .malformedDigest,
                message: "a \(algorithm) digest in hex is \(algorithm.byteCount * 2) hexadecimal digits",
                excerpt: Excerpt(before: [], after: Array(hex.utf8)))
        }
        try self.init(algorithm, bytes: bytes)
    }

    /// A digest written in base64 (standard alphabet, with padding).
    ///
    /// - Throws: `VettedError` for text that is not base64 of the algorithm's length.
    public init(_ algorithm: DigestAlgorithm, base64: String) throws(VettedError) {
        guard let data = Data(base64Encoded: base64) else {
            throw VettedError(
                code: .malformedDigest, message: "the \(algorithm) digest is not valid base64",
                excerpt: Excerpt(before: [], after: Array(base64.utf8)))
        }
        try self.init(algorithm, bytes: Array(data))
    }

    /// A digest written in hex or in base64, whichever `text` is.
    ///
    /// - Throws: `VettedError` for text that is neither, at the algorithm's length.
    public init(_ algorithm: DigestAlgorithm, hexOrBase64 text: String) throws(VettedError) {
        if let bytes = Hex.decode(text) {
            try self.init(algorithm, bytes: bytes)
        } else if text.utf8.count <= 256, let data = Data(base64Encoded: text) {
            try self.init(algorithm, bytes: Array(data))
        } else {
            throw VettedError(
                code: .malformedDigest,
                message: "a \(algorithm) digest is \(algorithm.byteCount * 2) hex digits or the base64 of \(algorithm.byteCount) bytes",
                excerpt: Excerpt(before: [], after: Array(text.utf8)))
        }
    }

    /// `sha256:` and the digest in hex.
    public var description: String { "\(algorithm.rawValue):\(Hex.encode(bytes))" }

    /// Whether `actual` is this digest, compared in constant time.
    public func matches(_ actual: [UInt8]) -> Bool { ConstantTime.equals(bytes, actual) }
}

/// Comparison whose time does not depend on where two byte strings differ.
public enum ConstantTime {
    /// `true` when `a` and `b` are equal. Lengths are public; contents are compared in full.
    public static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}

/// Hexadecimal text.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Lowercase hex of `bytes`.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of an even-length hex string, or `nil` if it has any other character.
    public static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
