#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
@_spi(Scanning) public import VettedCore

/// The strict JSON parser: RFC 8259 by default, every limit enforced before
/// allocating, every failure a ``VettedError`` with code, offset and path.
///
/// ```swift
/// let value = try JSONParser().parse(data)          // → JSONValue
/// try JSONParser().validate(data)                  // well-formedness and limits only
/// ```
///
/// Parsing never recurses, so no input can overflow the stack; it runs in time
/// linear in the input and memory bounded by ``limits``.
///
/// What it accepts beyond the letter of the RFC, and what it rejects that the
/// RFC leaves open, is listed in ``Options``.
public struct JSONParser: Sendable {
    /// What to do when an object has the same key twice (shared with property lists).
    public typealias DuplicateKeyPolicy = VettedCore.DuplicateKeyPolicy

    /// Choices where RFC 8259 leaves room. The defaults reject everything unsafe.
    public struct Options: Sendable, Hashable {
        /// Duplicate keys: ``DuplicateKeyPolicy/reject`` by default.
        public var duplicateKeys: DuplicateKeyPolicy
        /// Skip one leading UTF-8 byte order mark (EF BB BF). Default `false`:
        /// RFC 8259 forbids sending one, so its presence is reported as `byteOrderMark`.
        public var allowByteOrderMark: Bool
        /// Replace ill-formed UTF-8 inside strings with U+FFFD instead of
        /// failing with `invalidUTF8`. Default `false`.
        public var allowInvalidUTF8: Bool
        /// Replace a `\u` escape of an unpaired UTF-16 surrogate with U+FFFD
        /// instead of failing with `loneSurrogate`. Default `false`.
        public var allowLoneSurrogates: Bool

        public init(
            duplicateKeys: DuplicateKeyPolicy = .reject,
            allowByteOrderMark: Bool = false,
            allowInvalidUTF8: Bool = false,
            allowLoneSurrogates: Bool = false
        ) {
            self.duplicateKeys = duplicateKeys
            self.allowByteOrderMark = allowByteOrderMark
            self.allowInvalidUTF8 = allowInvalidUTF8
            self.allowLoneSurrogates = allowLoneSurrogates
        }

        /// The strict defaults.
        public static let strict = Options()
    }

    public var limits: Limits
    public var options: Options

    public init(limits: Limits = .default, options: Options = .strict) {
        self.limits = limits
        self.options = options
    }

    // MARK: Parsing

    /// Parses a whole document into a ``JSONValue``.
    ///
    /// - Throws: `VettedError`, located (code, offset, path, excerpt), for every defect and every limit.
    public func parse(_ source: SourceText) throws(VettedError) -> JSONValue {
        try run(source, mode: .values).get() ?? .null
    }

    /// Parses `bytes`.
    ///
    /// - Throws: `VettedError`, as ``parse(_:)-(SourceText)``.
    public func parse(_ bytes: [UInt8]) throws(VettedError) -> JSONValue { try parse(SourceText(bytes)) }
    /// Parses `data`.
    ///
    /// - Throws: `VettedError`, as ``parse(_:)-(SourceText)``.
    public func parse(_ data: Data) throws(VettedError) -> JSONValue { try parse(SourceText(data)) }
    /// Parses `text`.
    ///
    /// - Throws: `VettedError`, as ``parse(_:)-(SourceText)``.
    public func parse(_ text: String) throws(VettedError) -> JSONValue { try parse(SourceText(text)) }

    // MARK: Validate-only

    /// Checks well-formedness, the options and the limits exactly as ``parse(_:)-(SourceText)``
    /// does, with the same errors, but builds no values: the fastest way to reject junk.
    ///
    /// - Throws: `VettedError`, the same as ``parse(_:)-(SourceText)`` for the same input.
    public func validate(_ source: SourceText) throws(VettedError) {
        _ = try run(source, mode: .validate).get()
    }

    /// Checks `bytes` without building values.
    ///
    /// - Throws: `VettedError`, as ``parse(_:)-(SourceText)``.
    public func validate(_ bytes: [UInt8]) throws(VettedError) { try validate(SourceText(bytes)) }
    /// Checks `data` without building values.
    ///
    /// - Throws: `VettedError`, as ``parse(_:)-(SourceText)``.
    public func validate(_ data: Data) throws(VettedError) { try validate(SourceText(data)) }
    /// Checks `text` without building values.
    ///
    /// - Throws: `VettedError`, as ``parse(_:)-(SourceText)``.
    public func validate(_ text: String) throws(VettedError) { try validate(SourceText(text)) }

    private func run(_ source: SourceText, mode: JSONReader.Mode) -> Result<JSONValue?, VettedError> {
        source.withScanner { scanner in
            var reader = JSONReader(scanner: scanner, source: source, limits: limits, options: options, mode: mode)
            return Result { () throws(VettedError) -> JSONValue? in try reader.readDocument() }
        }
    }

    /// Parses a whole document into a ``JSONTape``, with the same checks and errors as ``parse(_:)-(SourceText)``.
    func tape(_ source: SourceText) throws(VettedError) -> JSONTape {
        try source.withScanner { scanner in
            var reader = JSONReader(scanner: scanner, source: source, limits: limits, options: options, mode: .tape)
            return Result { () throws(VettedError) -> JSONTape in
                _ = try reader.readDocument()
                guard !reader.tape.closedOutsideTape else {
                    throw VettedError(code: .internalInvariantViolated, message: "internal invariant violated: a container closed outside the tape")
                }
                return reader.tape
            }
        }.get()
    }
}

extension JSONValue {
    /// Parses `bytes` with the default (strict) parser.
    ///
    /// - Throws: `VettedError`: syntax, the duplicate-key policy, the limits.
    public init(parsing bytes: [UInt8]) throws(VettedError) { self = try JSONParser().parse(bytes) }
    /// Parses `data` with the default (strict) parser.
    ///
    /// - Throws: `VettedError`: syntax, the duplicate-key policy, the limits.
    public init(parsing data: Data) throws(VettedError) { self = try JSONParser().parse(data) }
    /// Parses `text` with the default (strict) parser.
    ///
    /// - Throws: `VettedError`: syntax, the duplicate-key policy, the limits.
    public init(parsing text: String) throws(VettedError) { self = try JSONParser().parse(text) }
}
