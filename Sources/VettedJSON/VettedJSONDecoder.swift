// Foundation, not only FoundationEssentials: the `formatted` strategy takes a DateFormatter.
public import Foundation
@_spi(Scanning) public import VettedCore
import VettedRules

/// Decodes `Decodable` values from JSON, with validation built in.
///
/// Its API mirrors Foundation's `JSONDecoder`, so switching is a rename:
/// `decode(_:from:)` and the same strategies. For types that declare no rules
/// it throws `DecodingError` exactly as `JSONDecoder` does — same case, same
/// coding path — except that Vetted keeps the path of number-range errors and
/// says what is wrong, and rejects duplicate keys by default.
///
/// Types that conform to `Validatable` have their rules checked while they
/// decode, at any depth. Violations are collected (up to
/// ``ValidationMode/collect(upTo:)``) and thrown together as
/// ``ValidationErrors``, each with its full path; or the first is thrown at
/// once with ``ValidationMode/failFast``.
open class VettedJSONDecoder: @unchecked Sendable {
    public enum DateDecodingStrategy: Sendable {
        /// `Date(from:)`: seconds since 2001-01-01 as a number.
        case deferredToDate
        /// ISO 8601: `2018-05-01T10:39:04Z`, with optional fractional seconds and `±hh:mm` offsets.
        case iso8601
        case secondsSince1970
        case millisecondsSince1970
        /// A string parsed by the formatter.
        case formatted(DateFormatter)
        case custom(@Sendable (_ decoder: any Decoder) throws -> Date)
    }

    public enum DataDecodingStrategy: Sendable {
        /// `Data(from:)`: an array of bytes.
        case deferredToData
        /// A base64 string (the default).
        case base64
        case custom(@Sendable (_ decoder: any Decoder) throws -> Data)
    }

    public enum KeyDecodingStrategy: Sendable {
        case useDefaultKeys
        /// `first_name` → `firstName`, as Foundation converts.
        case convertFromSnakeCase
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    public enum NonConformingFloatDecodingStrategy: Sendable {
        case `throw`
        case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }

    /// What to do with rule violations.
    public enum ValidationMode: Sendable, Hashable {
        /// Keep decoding and collect violations, at most `cap` (the rest are counted).
        case collect(upTo: Int)
        /// Throw the first violation.
        case failFast

        /// Collect up to 100.
        public static let collect = ValidationMode.collect(upTo: 100)
    }

    open var dateDecodingStrategy: DateDecodingStrategy = .deferredToDate
    open var dataDecodingStrategy: DataDecodingStrategy = .base64
    open var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys
    open var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy = .throw
    open var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// Limits for the parser.
    open var limits = Limits()
    /// Duplicate keys: rejected by default (JSONDecoder silently keeps one).
    open var duplicateKeyPolicy: JSONParser.DuplicateKeyPolicy = .reject
    open var validationMode: ValidationMode = .collect

    public init() {}

    /// Decodes `type` from JSON bytes.
    open func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, from: SourceText(data), parser: parser)
    }

    /// Decodes `type` from JSON bytes.
    open func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decode(type, from: SourceText(bytes), parser: parser)
    }

    /// Decodes `type` from bytes parsed under `limits` instead of ``limits`` (the gate's policy
    /// passes its own). The decoder itself is not changed, so it can be shared.
    open func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], limits: Limits) throws -> T {
        try decode(type, from: SourceText(bytes), parser: JSONParser(limits: limits, options: .init(duplicateKeys: duplicateKeyPolicy)))
    }

    /// Decodes `type` from a parsed value (written out and read back: decoding
    /// always reads a tape of the bytes; of a repeated key the first counts).
    open func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try decode(type, from: SourceText(JSONWriter().bytes(value)), parser: JSONParser(limits: .unlimited, options: .init(duplicateKeys: .keepFirst)))
    }

    private func decode<T: Decodable>(_ type: T.Type, from source: SourceText, parser: JSONParser) throws -> T {
        // Parse errors become `DecodingError.dataCorrupted`, as in JSONDecoder,
        // with the located ``VettedError`` as `underlyingError`.
        let tape: JSONTape
        do {
            tape = try parser.tape(source)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "The given data was not valid JSON. \(error)", underlyingError: error))
        }
        let document = DecodingDocument(source: source, tape: tape, decoder: self, duplicateKeys: parser.options.duplicateKeys)
        let result: T
        do {
            result = try source.withScanner { scanner in
                document.scanner = scanner
                defer { document.scanner = nil }
                return Result { try TapeDecoder(document: document, current: 0, path: []).unwrap(type) }
            }.get()
        } catch let error as ValidationErrors {
            throw error
        } catch {
            // A structural failure: alone it is thrown as is (as JSONDecoder would);
            // after rule violations, together with them.
            guard !document.violations.isEmpty else { throw error }
            throw ValidationErrors(errors: document.violations, omitted: document.omitted, decodingFailure: error)
        }
        if !document.violations.isEmpty {
            throw ValidationErrors(errors: document.violations, omitted: document.omitted)
        }
        return result
    }

    private var parser: JSONParser {
        JSONParser(limits: limits, options: .init(duplicateKeys: duplicateKeyPolicy))
    }
}

/// Every rule violation found while decoding, each with its path.
public struct ValidationErrors: Error, Sendable, CustomStringConvertible {
    public let errors: [VettedError]
    /// Violations beyond the cap, counted but not kept.
    public let omitted: Int
    /// The `DecodingError` that stopped decoding after these violations, if one did.
    public let decodingFailure: (any Error & Sendable)?

    public init(errors: [VettedError], omitted: Int = 0, decodingFailure: (any Error)? = nil) {
        self.errors = errors
        self.omitted = omitted
        self.decodingFailure = decodingFailure.map { failure in
            (failure as? DecodingError).map { $0 as any Error & Sendable } ?? StoppedDecoding(description: "\(failure)")
        }
    }

    public var description: String {
        var lines = errors.map { "\($0.path): \($0.code): \($0.message)" }
        if omitted > 0 { lines.append("… and \(omitted) more") }
        if let decodingFailure { lines.append("then decoding stopped: \(decodingFailure)") }
        return lines.joined(separator: "\n")
    }

    /// The same failure as a `DecodingError`, for code that expects one: the
    /// first violation's path, and `self` as `underlyingError`.
    public var decodingError: DecodingError {
        let first = errors.first
        return .dataCorrupted(
            .init(
                codingPath: first?.path.components.map(PathKey.init) ?? [],
                debugDescription: first.map { "\($0.code): \($0.message)" } ?? "validation failed", underlyingError: self))
    }
}

/// A non-Sendable failure, kept by its description.
public struct StoppedDecoding: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// A coding key for a document-path component.
public struct PathKey: CodingKey, Sendable {
    public let stringValue: String
    public let intValue: Int?
    public init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }
    public init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
    init(_ component: DocumentPath.Component) {
        switch component {
        case .key(let key): self.init(stringValue: key)
        case .index(let index): self.init(intValue: index)
        }
    }
}

extension DocumentPath {
    /// The document path of a coding path.
    public init(codingPath: [any CodingKey]) {
        self.init(codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) })
    }
}
