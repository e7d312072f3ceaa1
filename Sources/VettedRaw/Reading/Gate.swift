import Crypto
public import Foundation
public import VettedCore

/// Where the bytes come from.
public enum ByteSource: Sendable {
    /// Bytes already in memory.
    case bytes([UInt8])
    /// Bytes already in memory.
    case data(Data)
    /// A file: its size is checked from metadata before it is read. Only a
    /// regular file unless `acceptingPipes` (see ``BoundedReader/read(contentsOfFile:maxBytes:acceptingPipes:observe:)``).
    case file(path: String, acceptingPipes: Bool = false)
    /// A pipe, a socket, standard input: read up to the cap.
    case fileHandle(FileHandle)
}

/// What the gate checks before anything is parsed, and the parser's limits for after.
public struct GatePolicy: Sendable {
    /// How the signature arrives.
    public enum Signature: Sendable {
        /// A signature beside the bytes (a file, an HTTP header), by one of the trusted keys.
        case detached(DetachedSignature, trusting: TrustedKeys)
        /// The bytes are an ``Envelope``; its payload is what passes.
        case envelope(trusting: TrustedKeys)
    }

    /// Most bytes read; more is `inputSizeLimitExceeded`
    /// before the excess is kept.
    public var maxBytes: Int
    /// The digest the bytes must have (of the bytes as read: the whole envelope, for one).
    public var digest: ExpectedDigest?
    /// The signature the bytes must carry.
    public var signature: Signature?
    /// Limits for the parser that reads the bytes after the gate.
    public var limits: Limits
    /// For an asynchronous source (an HTTP body): the time the whole of it may take to
    /// arrive; later is `deadlineExceeded`, so a sender that trickles cannot hold the reader.
    public var timeout: Duration?

    /// `maxBytes` defaults to `limits.maxInputBytes`.
    public init(
        maxBytes: Int? = nil, digest: ExpectedDigest? = nil, signature: Signature? = nil, limits: Limits = .default,
        timeout: Duration? = nil
    ) {
        self.maxBytes = maxBytes ?? limits.maxInputBytes
        self.digest = digest
        self.signature = signature
        self.limits = limits
        self.timeout = timeout
    }
}

/// What the gate checked.
public struct GateReport: Sendable, Hashable {
    /// Bytes read (the whole envelope, for one).
    public let byteCount: Int
    /// The digest the bytes were checked against, if any.
    public let digest: ExpectedDigest?
    /// The trusted key whose signature checked out, if a signature was required.
    public let signedBy: KeyID?
    /// Whether the bytes came in an envelope.
    public let envelope: Bool

    public init(byteCount: Int, digest: ExpectedDigest?, signedBy: KeyID?, envelope: Bool) {
        self.byteCount = byteCount
        self.digest = digest
        self.signedBy = signedBy
        self.envelope = envelope
    }
}

/// Bytes that passed the gate: within the size limit, with the expected
/// digest and a trusted signature, as the policy asked.
///
/// Only the gate creates them, so a function that takes `VerifiedBytes`
/// cannot be handed bytes that skipped it.
public struct VerifiedBytes: Sendable {
    public let bytes: [UInt8]
    public let report: GateReport

    init(bytes: [UInt8], report: GateReport) {
        self.bytes = bytes
        self.report = report
    }
}

/// The raw-data stage: size, then digest, then signature — before a single byte is interpreted.
public enum Gate {
    /// Reads `source` under `policy` and checks it.
    ///
    /// - Throws: `VettedError`: `inputSizeLimitExceeded`, `digestMismatch`, `signatureMismatch`, `unknownKeyID`, `algorithmMismatch`, `malformedEnvelope`, `unreadableInput`, with the offset of the field at fault.
    public static func admit(_ source: ByteSource, policy: GatePolicy) throws(VettedError) -> VerifiedBytes {
        var hashers = Hashers(policy: policy)
        let bytes: [UInt8]
        switch source {
        case .bytes(let given):
            bytes = try BoundedReader.read(given, maxBytes: policy.maxBytes)
            hashers.update(bytes[...])
        case .data(let data):
            bytes = try BoundedReader.read(data, maxBytes: policy.maxBytes)
            hashers.update(bytes[...])
        case .file(let path, let acceptingPipes):
            bytes = try BoundedReader.read(contentsOfFile: path, maxBytes: policy.maxBytes, acceptingPipes: acceptingPipes) { hashers.update($0) }
        case .fileHandle(let handle):
            bytes = try BoundedReader.read(from: handle, maxBytes: policy.maxBytes) { hashers.update($0) }
        }
        return try check(bytes, hashers: hashers, policy: policy)
    }

    /// Reads an asynchronous sequence of chunks (an HTTP body) under `policy` and checks it.
    /// Errors of the sequence itself are rethrown as they are; every other is a `VettedError`.
    ///
    /// A policy with a ``GatePolicy/timeout`` needs a `Sendable` sequence (AsyncHTTPClient's
    /// body, `AsyncStream`), read in a task of its own; this overload refuses it
    /// (`deadlineUnenforceable`) rather than read without the deadline.
    ///
    /// - Throws: Errors of the sequence as they are; `VettedError` for everything the gate refuses (size, digest, signature).
    public static func admit<Chunks: AsyncSequence>(
        _ chunks: Chunks, policy: GatePolicy
    ) async throws -> VerifiedBytes where Chunks.Element: Collection<UInt8> {
        guard policy.timeout == nil else {
            throw VettedError(
                code: .deadlineUnenforceable,
                message: "a timeout needs a Sendable sequence of chunks, read in a task of its own; \(Chunks.self) is not Sendable")
        }
        return try await admitUntimed(chunks, policy: policy)
    }

    /// Reads a `Sendable` asynchronous sequence under `policy`, within its
    /// ``GatePolicy/timeout`` when it has one: at the deadline the read is
    /// cancelled and `deadlineExceeded` thrown. (The sequence must stop on
    /// cancellation, as AsyncHTTPClient's body and `AsyncStream` do.)
    ///
    /// - Throws: As the other `admit`, and `VettedError` (`deadlineExceeded`) at the deadline.
    public static func admit<Chunks: AsyncSequence & Sendable>(
        _ chunks: Chunks, policy: GatePolicy
    ) async throws -> VerifiedBytes where Chunks.Element: Collection<UInt8> {
        guard let timeout = policy.timeout else { return try await admitUntimed(chunks, policy: policy) }
        return try await Deadline.run(within: timeout, expired: "the bytes did not all arrive within \(timeout)") {
            try await admitUntimed(chunks, policy: policy)
        }
    }

    private static func admitUntimed<Chunks: AsyncSequence>(
        _ chunks: Chunks, policy: GatePolicy
    ) async throws -> VerifiedBytes where Chunks.Element: Collection<UInt8> {
        var hashers = Hashers(policy: policy)
        let bytes = try await BoundedReader.read(chunks, maxBytes: policy.maxBytes) { hashers.update($0) }
        return try check(bytes, hashers: hashers, policy: policy)
    }

    /// Bytes that need no check but the size cap (a policy with no digest and no signature).
    ///
    /// - Throws: `VettedError` `inputSizeLimitExceeded` when there are more than `maxBytes` bytes.
    public static func admit(_ bytes: [UInt8], maxBytes: Int) throws(VettedError) -> VerifiedBytes {
        try admit(.bytes(bytes), policy: GatePolicy(maxBytes: maxBytes))
    }

    private static func check(_ bytes: [UInt8], hashers: Hashers, policy: GatePolicy) throws(VettedError) -> VerifiedBytes {
        if let expected = policy.digest, let actual = hashers.expected?.finalize(), !expected.matches(actual) {
            throw VettedError(
                code: .digestMismatch,
                message: "the bytes' \(expected.algorithm) digest is not the expected one: they changed in storage or transit")
        }
        switch policy.signature {
        case nil:
            return VerifiedBytes(
                bytes: bytes, report: GateReport(byteCount: bytes.count, digest: policy.digest, signedBy: nil, envelope: false))
        case .detached(let signature, let keys)?:
            let payloadSHA256 = hashers.sha256Result?.finalize() ?? Array(SHA256.hash(data: bytes))
            let keyID = try signature.verify(payloadLength: bytes.count, payloadSHA256: payloadSHA256, trusting: keys)
            return VerifiedBytes(
                bytes: bytes, report: GateReport(byteCount: bytes.count, digest: policy.digest, signedBy: keyID, envelope: false))
        case .envelope(let keys)?:
            let (payload, keyID) = try Envelope.openPayload(bytes, trusting: keys)
            return VerifiedBytes(
                bytes: payload, report: GateReport(byteCount: bytes.count, digest: policy.digest, signedBy: keyID, envelope: true))
        }
    }

    /// The digests computed while reading: the expected one, and SHA-256 for a detached signature.
    private struct Hashers {
        var expected: StreamingDigest?
        var sha256: StreamingDigest?

        init(policy: GatePolicy) {
            expected = policy.digest.map { StreamingDigest($0.algorithm) }
            if case .detached? = policy.signature, policy.digest?.algorithm != .sha256 {
                sha256 = StreamingDigest(.sha256)
            }
        }

        mutating func update(_ chunk: ArraySlice<UInt8>) {
            expected?.update(chunk)
            sha256?.update(chunk)
        }

        /// SHA-256 of the bytes, shared with the expected digest when that is SHA-256 too.
        var sha256Result: StreamingDigest? { sha256 ?? (expected?.algorithm == .sha256 ? expected : nil) }
    }
}

/// Asynchronous work held to a deadline.
public enum Deadline {
    /// Runs `work` in a task of its own and returns its result, unless `timeout`
    /// passes first: then `work` is cancelled and `deadlineExceeded` thrown, with
    /// `expired` as the message. `work` must stop when cancelled (network reads,
    /// `AsyncStream` and `Task.sleep` do); its own errors are rethrown as they are.
    /// The gate uses it for ``GatePolicy/timeout``; Sell My Old Junk for a whole
    /// HTTP exchange and for a request body.
    ///
    /// - Throws: `VettedError` (`deadlineExceeded`) when `timeout` passes first, else what `work` throws.
    public static func run<T: Sendable>(
        within timeout: Duration, expired message: String, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw VettedError(code: .deadlineExceeded, message: message)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }
}
