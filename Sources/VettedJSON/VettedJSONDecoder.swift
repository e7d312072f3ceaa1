// Foundation, not only FoundationEssentials: the `formatted` strategy takes a DateFormatter.
public import Foundation
@_spi(Scanning) public import VettedCore
// The rules, their errors and modes are part of this module's API.
@_exported public import VettedRules

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

    /// What to do with rule violations (shared by every Vetted decoder).
    public typealias ValidationMode = VettedRules.ValidationMode

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
        let result = source.withScanner { scanner in
            document.scanner = scanner
            defer { document.scanner = nil }
            return Result { () throws -> T in try TapeDecoder(document: document, current: 0, path: []).unwrap(type) }
        }
        return try document.engine.finish(result)
    }

    private var parser: JSONParser {
        JSONParser(limits: limits, options: .init(duplicateKeys: duplicateKeyPolicy))
    }
}

