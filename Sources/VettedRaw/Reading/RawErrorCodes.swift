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

    /// An HTTP message (as read from bytes, or a field value to be signed) that does not follow HTTP's syntax.
    public static let malformedHTTPMessage = Self("malformedHTTPMessage")
    /// A `Signature-Input` or `Signature` field that is not what RFC 9421 prescribes.
    public static let malformedHTTPSignature = Self("malformedHTTPSignature")
    /// No `Signature-Input` or `Signature` field, or no member with the label asked for.
    public static let missingHTTPSignature = Self("missingHTTPSignature")
    /// A signature field longer than the limit, refused before it is parsed.
    public static let httpFieldTooLarge = Self("httpFieldTooLarge")
    /// More signatures in one message than the limit.
    public static let tooManyHTTPSignatures = Self("tooManyHTTPSignatures")
    /// More covered components in one signature than the limit.
    public static let tooManyCoveredComponents = Self("tooManyCoveredComponents")
    /// A covered component this library does not compute (or one that is not part of this kind of message).
    public static let unsupportedComponent = Self("unsupportedComponent")
    /// A covered header field that is not in the message.
    public static let missingComponent = Self("missingComponent")
    /// A component the policy requires that the signature does not cover.
    public static let uncoveredComponent = Self("uncoveredComponent")
    /// A signature without a parameter the verifier needs (`keyid`, `created`).
    public static let missingSignatureParameter = Self("missingSignatureParameter")
    /// A signature older than the policy's maximum age, or past its `expires`.
    public static let signatureExpired = Self("signatureExpired")
    /// A signature created later than now plus the allowed clock skew.
    public static let signatureNotYetValid = Self("signatureNotYetValid")
    /// A signature whose `tag` is not the one the policy expects.
    public static let unexpectedSignatureTag = Self("unexpectedSignatureTag")
    /// An asynchronous source did not deliver all its bytes within the policy's timeout.
    public static let deadlineExceeded = Self("deadlineExceeded")
    /// A timeout was asked for on a source it cannot be enforced on (a sequence that is not `Sendable`).
    public static let deadlineUnenforceable = Self("deadlineUnenforceable")
}
