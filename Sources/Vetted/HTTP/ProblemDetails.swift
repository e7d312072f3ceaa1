import Foundation
import VettedJSON
public import VettedCore
public import VettedRules
import VettedRaw

/// An RFC 9457 problem details object (`application/problem+json`): what a
/// server answers when Vetted refuses a request body, the same for every framework.
///
/// ```json
/// {"type":"urn:vetted:problem:rules","title":"The body breaks the rules","status":422,
///  "detail":"2 errors","errors":[{"pointer":"/price","path":"$.price","code":"patternMismatch",
///  "stage":"rules","detail":"…","parameters":{"pattern":"[0-9]+(\\.[0-9]{1,2})?"}}]}
/// ```
///
/// Each entry of ``errors`` names where (an RFC 6901 JSON Pointer and Vetted's
/// `$`-path), what (Vetted's stable code), which stage refused it, and the
/// broken rule's parameters (`minimum`, `maximum`, `unit`, …). Its
/// `detail` is Vetted's message: the input appears in it only as the decoder's
/// short, escaped excerpt, never as the body itself.
///
/// The status follows the stage: 413 too large, 408 too slow, 415 not the media
/// type, 401 a signature or digest that does not check out, 400 bytes that are not
/// well-formed, 422 a well-formed body that does not fit the model (a missing field,
/// a wrong type, an unknown tag) or breaks its rules; 500 for a rule declared wrong
/// (the server's fault).
public struct ProblemDetails: Sendable, Hashable, Codable {
    /// One thing wrong, where and at which stage.
    public struct Entry: Sendable, Hashable, Codable {
        /// RFC 6901 JSON Pointer to the value: `/items/3/tags/1`; `""` for the whole body.
        public var pointer: String
        /// Vetted's path to the value: `$.items[3].tags[1]`.
        public var path: String
        /// Vetted's stable error code (`VettedError.Code`), such as `lengthOutOfRange`.
        public var code: String
        /// The stage that refused it: `input`, `syntax`, `structure`, `rules`, `declaration` (``VettedRules/FailureStage``).
        public var stage: String
        /// For a person; the input only as an escaped, capped excerpt.
        public var detail: String
        /// The broken rule's parameters (`minimum`, `maximum`, `unit`, `allowed`, …), for a
        /// client to act on and word in its own language; empty for other errors.
        public var parameters: [String: RuleParameter]

        public init(
            pointer: String, path: String, code: String, stage: String, detail: String, parameters: [String: RuleParameter] = [:]
        ) {
            self.pointer = pointer
            self.path = path
            self.code = code
            self.stage = stage
            self.detail = detail
            self.parameters = parameters
        }

        private enum CodingKeys: String, CodingKey {
            case pointer, path, code, stage, detail, parameters
        }

        /// Reads an entry; `parameters` may be absent (a problem written before they were).
        ///
        /// - Throws: `DecodingError` for a missing or mistyped member.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            pointer = try container.decode(String.self, forKey: .pointer)
            path = try container.decode(String.self, forKey: .path)
            code = try container.decode(String.self, forKey: .code)
            stage = try container.decode(String.self, forKey: .stage)
            detail = try container.decode(String.self, forKey: .detail)
            parameters = try container.decodeIfPresent([String: RuleParameter].self, forKey: .parameters) ?? [:]
        }
    }

    /// Identifies the kind of problem (`urn:vetted:problem:rules`, …): a name, not a link.
    public var type: String
    public var title: String
    /// The HTTP status code.
    public var status: Int
    public var detail: String
    public var errors: [Entry]

    /// `application/problem+json`.
    public static let mediaType = "application/problem+json"

    public init(type: String, title: String, status: Int, detail: String, errors: [Entry] = []) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.errors = errors
    }

    /// The problem a failure of Vetted's stands for, or `nil` for an error that is not
    /// Vetted's (a connection that closed, a framework's own error): that one is the framework's to answer.
    ///
    /// Reads `VettedError`, `ValidationErrors`, a `DecodingError` (Vetted's decoders
    /// locate theirs; Foundation's are given by coding path, without their description,
    /// which can quote the input), ``VettedRules/VettedFailure`` and ``VettedProblem``.
    public init?(_ error: any Error) {
        switch error {
        case let problem as VettedProblem:
            self = problem.details
            return
        case is VettedError, is ValidationErrors, is DecodingError, is VettedFailure:
            break
        default:
            return nil
        }
        self.init(failure: VettedFailure(error))
    }

    /// The problem for a failure read by ``VettedRules/VettedFailure``.
    init(failure: VettedFailure) {
        let kind = Kind(failure)
        var entries = failure.errors.map { Entry($0, stage: failure.stage) }
        if let decoding = failure.underlying as? DecodingError, decoding.vettedError == nil {
            // Not from a Vetted decoder: its description can quote the input, so it is not used.
            entries = entries.map { Entry(pointer: $0.pointer, path: $0.path, code: $0.code, stage: $0.stage, detail: Self.plainDetail($0.code)) }
        }
        if failure.omitted > 0 {
            entries.append(
                Entry(
                    pointer: "", path: "$", code: "moreErrors", stage: failure.stage.rawValue,
                    detail: "\(failure.omitted) more errors not listed"))
        }
        if kind == .declaration {
            // The server's own defect: the client learns that much and nothing of the declaration
            // (no pointer, path or code: they name the server's types). The adapters log the error.
            self.init(kind, errors: [], detail: "The server could not handle this request; the fault is the server's, not the body's.")
            return
        }
        self.init(kind, errors: entries)
    }

    /// What a `DecodingError` of this code means, in words that quote nothing.
    static func plainDetail(_ code: String) -> String {
        switch VettedError.Code(code) {
        case .typeMismatch: "the value is not of the expected type"
        case .valueNotFound: "null where a value is required"
        case .keyNotFound: "a required key is missing"
        default: "not a valid value here"
        }
    }

    /// A problem of one of Vetted's kinds.
    init(_ kind: Kind, errors: [Entry], detail: String? = nil) {
        let summary: String
        switch errors.count {
        case 0: summary = kind.title
        case 1: summary = errors[0].detail
        default: summary = "\(errors.count) errors"
        }
        self.init(type: "urn:vetted:problem:\(kind.rawValue)", title: kind.title, status: kind.status, detail: detail ?? summary, errors: errors)
    }

    /// This problem as `application/problem+json` bytes: the members in the order RFC 9457 lists them.
    ///
    /// Written straight into bytes (every refusal pays for this): the same text as
    /// `JSONWriter` gives for the problem as a `JSONValue`, parameters in name order.
    public var json: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(160 + errors.count * 200)
        // Member names with their punctuation are written as bytes made once: most of a refusal's strings are these.
        output.append(contentsOf: Keys.type)
        JSONWriter.writeString(type, into: &output)
        output.append(contentsOf: Keys.title)
        JSONWriter.writeString(title, into: &output)
        output.append(contentsOf: Keys.status)
        output.append(contentsOf: String(status).utf8)
        output.append(contentsOf: Keys.detail)
        JSONWriter.writeString(detail, into: &output)
        output.append(contentsOf: Keys.errors)
        for (index, entry) in errors.enumerated() {
            output.append(contentsOf: index == 0 ? Keys.firstPointer : Keys.nextPointer)
            JSONWriter.writeString(entry.pointer, into: &output)
            output.append(contentsOf: Keys.path)
            JSONWriter.writeString(entry.path, into: &output)
            output.append(contentsOf: Keys.code)
            JSONWriter.writeString(entry.code, into: &output)
            output.append(contentsOf: Keys.stage)
            JSONWriter.writeString(entry.stage, into: &output)
            output.append(contentsOf: Keys.detail)
            JSONWriter.writeString(entry.detail, into: &output)
            output.append(contentsOf: Keys.parameters)
            for (position, (name, value)) in entry.parameters.sorted(by: { $0.key < $1.key }).enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                JSONWriter.writeString(name, into: &output)
                output.append(UInt8(ascii: ":"))
                switch value {
                case .string(let text): JSONWriter.writeString(text, into: &output)
                case .integer(let number): output.append(contentsOf: String(number).utf8)
                case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
                case .number, .list: output.append(contentsOf: JSONWriter().bytes(JSONValue(value)))
                }
            }
            output.append(contentsOf: "}}".utf8)
        }
        output.append(contentsOf: "]}".utf8)
        return output
    }

    /// ``json``'s member names, each with the punctuation around it.
    private enum Keys {
        static let type = Array(#"{"type":"#.utf8)
        static let title = Array(#","title":"#.utf8)
        static let status = Array(#","status":"#.utf8)
        static let detail = Array(#","detail":"#.utf8)
        static let errors = Array(#","errors":["#.utf8)
        static let firstPointer = Array(#"{"pointer":"#.utf8)
        static let nextPointer = Array(#",{"pointer":"#.utf8)
        static let path = Array(#","path":"#.utf8)
        static let code = Array(#","code":"#.utf8)
        static let stage = Array(#","stage":"#.utf8)
        static let parameters = Array(#","parameters":{"#.utf8)
    }

    /// The kinds of problem Vetted answers, each with its status.
    enum Kind: String, Sendable {
        case tooLarge = "content-too-large"
        case tooSlow = "request-timeout"
        case mediaType = "unsupported-media-type"
        case signature
        case input
        case syntax
        case structure
        case rules
        case declaration
        case response

        init(_ failure: VettedFailure) {
            switch failure.stage {
            case .input:
                let code = failure.errors.first?.code
                switch code {
                case .inputSizeLimitExceeded?, .recordTooLarge?: self = .tooLarge
                case .deadlineExceeded?: self = .tooSlow
                case .unsupportedMediaType?: self = .mediaType
                case let code? where Self.signatureCodes.contains(code): self = .signature
                default: self = .input
                }
            case .syntax: self = .syntax
            case .structure: self = .structure
            case .rules: self = .rules
            case .declaration: self = .declaration
            }
        }

        /// Codes of a digest or signature that does not check out: 401.
        static let signatureCodes: Set<VettedError.Code> = [
            .digestMismatch, .malformedDigest, .signatureMismatch, .malformedSignature, .unknownKeyID, .invalidKeyID,
            .algorithmMismatch, .unsupportedAlgorithm, .payloadLengthMismatch, .malformedEnvelope, .missingHTTPSignature,
            .malformedHTTPSignature, .tooManyHTTPSignatures, .tooManyCoveredComponents, .unsupportedComponent,
            .missingComponent, .uncoveredComponent, .missingSignatureParameter, .signatureExpired,
            .signatureNotYetValid, .unexpectedSignatureTag,
        ]

        var status: Int {
            switch self {
            case .tooLarge: 413
            case .tooSlow: 408
            case .mediaType: 415
            case .signature: 401
            case .input, .syntax: 400
            case .structure, .rules: 422
            case .declaration, .response: 500
            }
        }

        var title: String {
            switch self {
            case .tooLarge: "The body is too large"
            case .tooSlow: "The body did not arrive in time"
            case .mediaType: "The body is not of a media type this route reads"
            case .signature: "The request's signature or digest does not check out"
            case .input: "The body could not be read"
            case .syntax: "The body is not well-formed"
            case .structure: "The body does not have the expected shape"
            case .rules: "The body breaks the rules"
            case .declaration: "Internal server error"
            case .response: "The server's response breaks its own rules"
            }
        }
    }
}

extension ProblemDetails.Entry {
    /// The entry for one of Vetted's errors: its pointer, path and code, its message with its
    /// line and column (or byte offset) as the detail, and its parameters.
    public init(_ error: VettedError, stage: FailureStage) {
        // Put together as bytes, made a String once: interpolation, or appending to a String
        // piece by piece, was a tenth of a refused request's cost.
        let detail: String
        if let location = error.location {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(error.message.utf8.count + 48)
            bytes.append(contentsOf: error.message.utf8)
            bytes.append(contentsOf: " (line ".utf8)
            Self.appendDecimal(location.line, to: &bytes)
            bytes.append(contentsOf: ", column ".utf8)
            Self.appendDecimal(location.column, to: &bytes)
            bytes.append(UInt8(ascii: ")"))
            detail = String(decoding: bytes, as: UTF8.self)
        } else if let offset = error.offset {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(error.message.utf8.count + 32)
            bytes.append(contentsOf: error.message.utf8)
            bytes.append(contentsOf: " (byte ".utf8)
            Self.appendDecimal(offset, to: &bytes)
            bytes.append(UInt8(ascii: ")"))
            detail = String(decoding: bytes, as: UTF8.self)
        } else {
            detail = error.message
        }
        self.init(
            pointer: error.path.jsonPointer, path: error.path.description, code: error.code.rawValue, stage: stage.rawValue,
            detail: detail, parameters: error.parameters)
    }

    /// `value` in decimal, appended to `bytes` (a number's text is a small string: no allocation).
    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: String(value).utf8)
    }

}

/// A request refused by Vetted, as the adapters throw it: the problem details to
/// answer with, and the error as Vetted threw it (for logs and for handlers that catch it).
///
/// `VettedHummingbird` makes it an `HTTPResponseError`, `VettedVapor` an `AbortError`;
/// both render ``details`` as `application/problem+json`.
public struct VettedProblem: Error, Sendable, CustomStringConvertible {
    public let details: ProblemDetails
    /// The error as it was thrown (`VettedError`, `DecodingError`, `ValidationErrors`).
    public let underlying: any Error

    /// The problem for a failure of Vetted's; `nil` for any other error.
    public init?(_ error: any Error) {
        if let problem = error as? VettedProblem {
            self = problem
            return
        }
        guard let details = ProblemDetails(error) else { return nil }
        self.details = details
        self.underlying = error
    }

    /// The problem for an error of Vetted's own: a gate, a reader, a signature.
    public init(_ error: VettedError) {
        self.init(details: ProblemDetails(failure: VettedFailure(error)), underlying: error)
    }

    public init(details: ProblemDetails, underlying: any Error) {
        self.details = details
        self.underlying = underlying
    }

    /// A body of a media type the route does not read (415), without reading it.
    /// `expected` may be empty when the framework does not say which types it reads.
    public static func unsupportedMediaType(_ given: String?, expected: [String]) -> VettedProblem {
        let what = given.map { "the body is \(Excerpt.escape($0))" } ?? "the body declares no media type (no Content-Type header)"
        let message =
            expected.isEmpty
            ? (given == nil ? what : what + ", which this route does not read")
            : what + "; this route reads " + expected.joined(separator: " or ")
        let error = VettedError(code: .unsupportedMediaType, message: message)
        return VettedProblem(
            details: ProblemDetails(.mediaType, errors: [ProblemDetails.Entry(error, stage: .input)]), underlying: error)
    }

    /// A value the server was about to send that breaks its own rules (500): sent to
    /// nobody, reported loudly. `error` is what decoding the encoded value back threw.
    public static func responseBreaksRules(_ error: any Error) -> VettedProblem {
        let failure = VettedFailure(error)
        let entries = failure.errors.map { ProblemDetails.Entry($0, stage: failure.stage) }
        return VettedProblem(details: ProblemDetails(.response, errors: entries), underlying: error)
    }

    public var description: String {
        "\(details.status) \(details.title): " + details.errors.map { "\($0.path) \($0.code)" }.joined(separator: ", ")
    }
}

extension VettedError.Code {
    /// A request body declared as a media type the route does not read (or as none).
    public static let unsupportedMediaType = VettedError.Code("unsupportedMediaType")
}

/// What a route reads: the media types its decoder accepts.
public enum VettedMediaType {
    /// Whether a `Content-Type` value names `application/json` or a `+json` type (`application/problem+json`).
    public static func isJSON(_ contentType: String?) -> Bool {
        guard let essence = essence(contentType) else { return false }
        return essence == "application/json" || (essence.hasPrefix("application/") && essence.hasSuffix("+json"))
    }

    /// Whether a `Content-Type` value names `application/x-plist`.
    public static func isPropertyList(_ contentType: String?) -> Bool {
        essence(contentType) == "application/x-plist"
    }

    /// The type and subtype, lowercased, without parameters (`charset=utf-8`).
    static func essence(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        // An ASCII value (every header a client sends in practice), read as bytes: this runs on every request.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for byte in contentType.utf8 {
            if byte == UInt8(ascii: ";") { break }
            guard byte < 0x80 else { return foundationEssence(contentType) }
            bytes.append(byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte)
        }
        let isBlank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let start = bytes.firstIndex(where: { !isBlank($0) }), let end = bytes.lastIndex(where: { !isBlank($0) }) else { return nil }
        return String(decoding: bytes[start...end], as: UTF8.self)
    }

    /// ``essence(_:)`` of a value that is not all ASCII, by Foundation's whitespace and case mapping.
    private static func foundationEssence(_ contentType: String) -> String? {
        guard let first = contentType.split(separator: ";", omittingEmptySubsequences: false).first else { return nil }
        let essence = first.trimmingCharacters(in: .whitespaces).lowercased()
        return essence.isEmpty ? nil : essence
    }
}
