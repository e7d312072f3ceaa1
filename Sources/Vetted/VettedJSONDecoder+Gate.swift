import VettedCore
public import VettedJSON
public import VettedRaw

// The pipeline lives in the umbrella module, where the stages meet: VettedJSON
// itself does not depend on VettedRaw (nor on swift-crypto).

extension VettedJSONDecoder {
    /// Every stage in one call: the gate (size, digest, signature), then parse,
    /// decode and validate — so the easy path is the safe path.
    ///
    /// ```swift
    /// let policy = GatePolicy(
    ///     maxBytes: 1 << 20,
    ///     signature: .detached(try DetachedSignature(base64: header), trusting: keys),
    ///     limits: Limits(maxDepth: 16))
    /// let listings = try decoder.decode([Listing].self, from: .file(path: path), policy: policy)
    /// ```
    ///
    /// Nothing is parsed before the gate has passed the bytes. Failures say which
    /// stage caught them: the gate throws ``VettedCore/VettedError`` (`inputSizeLimitExceeded`,
    /// `digestMismatch`, `signatureMismatch`, …), the parser and the decoder
    /// `DecodingError` (as ``decode(_:from:)-(_,[UInt8])`` does), the rules ``ValidationErrors``.
    /// The parser runs under `policy.limits`.
    ///
    /// - Throws: `VettedError` when the gate refuses the input (`inputSizeLimitExceeded`, `digestMismatch`, `signatureMismatch`, …); then what `decode(_:from:)` throws for the bytes.
    public func decode<T: Decodable>(_ type: T.Type, from source: ByteSource, policy: GatePolicy) throws -> T {
        let verified = try Gate.admit(source, policy: policy)
        return try decode(type, from: verified.bytes, limits: policy.limits)
    }

    /// Every stage in one call, for bytes that arrive as chunks (an HTTP body):
    /// the cap stops the body as soon as it passes it.
    ///
    /// - Throws: `VettedError` from the gate (size, digest, signature, deadline), errors of the sequence itself as they are, then what ``decode(_:from:)-(_,Data)`` throws.
    public func decode<T: Decodable, Chunks: AsyncSequence>(
        _ type: T.Type, from chunks: Chunks, policy: GatePolicy
    ) async throws -> T where Chunks.Element: Collection<UInt8> {
        let verified = try await Gate.admit(chunks, policy: policy)
        return try decode(type, from: verified.bytes, limits: policy.limits)
    }

    /// Decodes bytes that already passed the gate, under ``limits``.
    ///
    /// - Throws: what `decode(_:from:)` throws for the verified bytes: `DecodingError`, `ValidationErrors`, or a declaration `VettedError`.
    public func decode<T: Decodable>(_ type: T.Type, from verified: VerifiedBytes) throws -> T {
        try decode(type, from: verified.bytes)
    }

}
