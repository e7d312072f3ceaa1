public import VettedCore

extension VettedError.Code {
    /// An expected digest that is not well-formed hex or base64, or has the wrong length.
    public static let malformedDigest = Self("malformedDigest")
    /// The bytes do not have the expected digest: they changed.
    public static let digestMismatch = Self("digestMismatch")
    /// A key (or key file) that cannot be read as a key of its algorithm.
    public static let malformedKey = Self("malformedKey")
    /// A key id that is empty, longer than 64 bytes, or not printable ASCII.
    public static let invalidKeyID = Self("invalidKeyID")
    /// The same key id twice in one set of trusted keys.
    public static let duplicateKeyID = Self("duplicateKeyID")
    /// A detached signature whose bytes do not follow the format.
    public static let malformedSignature = Self("malformedSignature")
    /// An envelope whose bytes do not follow the format.
    public static let malformedEnvelope = Self("malformedEnvelope")
    /// A signature or envelope format version this library does not know.
    public static let unsupportedVersion = Self("unsupportedVersion")
    /// A signature algorithm this library does not know.
    public static let unsupportedAlgorithm = Self("unsupportedAlgorithm")
    /// The signature names a key id that is not among the trusted keys.
    public static let unknownKeyID = Self("unknownKeyID")
    /// The signature's algorithm is not the algorithm of the trusted key with its id.
    public static let algorithmMismatch = Self("algorithmMismatch")
    /// The signature does not verify: the bytes, the signature or the key are not the ones signed.
    public static let signatureMismatch = Self("signatureMismatch")
    /// The signed payload length is not the length of the bytes.
    public static let payloadLengthMismatch = Self("payloadLengthMismatch")
    /// A key file that is already there: keys are never overwritten.
    public static let keyFileExists = Self("keyFileExists")
    /// A key file that could not be created or written.
    public static let unwritableKeyFile = Self("unwritableKeyFile")
}
