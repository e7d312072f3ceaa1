#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import VettedCore
// The rules, their errors and modes are part of this module's API.
@_exported public import VettedRules
import VettedDecoding

/// Decodes `Decodable` values from binary or XML property lists, with
/// validation built in.
///
/// Its API mirrors Foundation's `PropertyListDecoder`: `decode(_:from:)`,
/// `decode(_:from:format:)` and `userInfo`. For types that declare no rules
/// it throws `DecodingError` as `PropertyListDecoder` does — same case, same
/// coding path — and where Foundation would crash or read past the input
/// (a mutated binary plist), it throws a typed, located error instead: the
/// bytes are read by ``PlistParser`` under ``limits`` first.
///
/// Types that conform to `Validatable` have their rules checked while they
/// decode, at any depth, exactly as ``VettedJSONDecoder`` checks them: the
/// same ``ValidationMode``, cap and paths. Dictionaries with a repeated key
/// are rejected (``duplicateKeyPolicy``).
///
/// ```swift
/// let decoder = VettedPropertyListDecoder()
/// let listings = try decoder.decode([Listing].self, from: data)  // binary or XML
/// ```
///
/// One decoder may be shared by tasks: its options sit behind a lock.
open class VettedPropertyListDecoder: @unchecked Sendable {
    // `@unchecked Sendable`: every option lives in `options`, read and written
    // under its lock; the class has no other stored state. (Subclasses must
    // keep to that.)

    /// The options every Vetted decoder shares (`shared`: user info, limits, the
    /// duplicate-key policy, the validation mode, the message provider), and this one's own.
    struct Options: DecoderOptions {
        var shared = DecodingOptions()
        var generatedDecoding = true
    }

    let options = Locked(Options())

    /// Values for the types' `init(from:)`, as `decoder.userInfo`.
    open var userInfo: [CodingUserInfoKey: any Sendable] {
        get { options.current.userInfo }
        set { options.update { $0.userInfo = newValue } }
    }

    /// Limits for the reader (size, depth, members, string lengths, stack).
    open var limits: Limits {
        get { options.current.limits }
        set { options.update { $0.limits = newValue } }
    }

    /// Repeated dictionary keys: rejected by default (Foundation keeps one silently).
    open var duplicateKeyPolicy: DuplicateKeyPolicy {
        get { options.current.duplicateKeyPolicy }
        set { options.update { $0.duplicateKeyPolicy = newValue } }
    }

    /// What to do with rule violations.
    open var validationMode: ValidationMode {
        get { options.current.validationMode }
        set { options.update { $0.validationMode = newValue } }
    }

    /// The app's wording of rule violations (code and parameters in, text out), or
    /// `nil` for Vetted's English. Codes, paths and parameters are not changed.
    open var messageProvider: RuleMessageProvider? {
        get { options.current.messageProvider }
        set { options.update { $0.messageProvider = newValue } }
    }

    /// Whether `@Vetted` types decode by their generated code (the default) or
    /// by `init(from:)`: the two give the same results, which tests compare.
    @_spi(Testing) public var generatedDecoding: Bool {
        get { options.current.generatedDecoding }
        set { options.update { $0.generatedDecoding = newValue } }
    }

    public init() {}

    /// Decodes `type` from a binary or XML property list.
    ///
    /// - Throws: `DecodingError` for syntax and structure, with the located `VettedError` as `underlyingError` (`DecodingError.vettedError`); `ValidationErrors` for rule violations; `VettedError` whose code is a rule declaration (`code.isRuleDeclaration`) for a rule declared wrong, in every mode.
    open func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        var format = PlistParser.Format.binary
        return try decode(type, from: SourceText(data), format: &format)
    }

    /// Decodes `type` from a binary or XML property list.
    ///
    /// - Throws: `DecodingError` for syntax and structure, with the located `VettedError` as `underlyingError` (`DecodingError.vettedError`); `ValidationErrors` for rule violations; `VettedError` whose code is a rule declaration (`code.isRuleDeclaration`) for a rule declared wrong, in every mode.
    open func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        var format = PlistParser.Format.binary
        return try decode(type, from: SourceText(bytes), format: &format)
    }

    /// Decodes `type` from a property list with `userInfo` added to ``userInfo`` for this call
    /// only (a framework's per-request values); the decoder itself is not changed.
    ///
    /// - Throws: What ``decode(_:from:)-(_,[UInt8])`` throws.
    open func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], userInfo: [CodingUserInfoKey: any Sendable]) throws -> T {
        var format = PlistParser.Format.binary
        var options = options.current
        options.shared = options.shared.adding(userInfo: userInfo)
        return try decode(type, from: SourceText(bytes), format: &format, options: options)
    }

    /// Decodes `type`, and says in `format` which format the bytes were in.
    ///
    /// - Throws: `DecodingError` for syntax and structure, with the located `VettedError` as `underlyingError` (`DecodingError.vettedError`); `ValidationErrors` for rule violations; `VettedError` whose code is a rule declaration (`code.isRuleDeclaration`) for a rule declared wrong, in every mode.
    open func decode<T: Decodable>(_ type: T.Type, from data: Data, format: inout PlistParser.Format) throws -> T {
        try decode(type, from: SourceText(data), format: &format)
    }

    /// Decodes `type` from a value already read, as it is: no bytes are
    /// written or read back. The value is held to what a reader holds bytes
    /// to that a value can still break: ``limits``' depth, and
    /// ``duplicateKeyPolicy`` in every dictionary. (The size limits bound what
    /// bytes expand into; a value in memory is already expanded.) Errors have a
    /// path and no offset.
    ///
    /// - Throws: `DecodingError.dataCorrupted` with a `VettedError` (`depthLimitExceeded`, `duplicateKey`) as `underlyingError`; `DecodingError` for structure; `ValidationErrors` for rule violations; `VettedError` whose code is a rule declaration (`code.isRuleDeclaration`) for a rule declared wrong, in every mode.
    open func decode<T: Decodable>(_ type: T.Type, from value: PlistValue) throws -> T {
        let options = options.current
        let root: PlistValue
        do throws(VettedError) {
            root = try value.admitted(limits: options.limits, duplicateKeys: options.duplicateKeyPolicy)
        } catch {
            throw Self.unreadable(error)
        }
        // A value has no XML text: its reals are doubles, as a binary plist's.
        return try decode(T.self, root: root, context: PlistDecodingContext(options: options, format: .binary))
    }

    private func decode<T: Decodable>(_ type: T.Type, from source: SourceText, format: inout PlistParser.Format) throws -> T {
        try decode(type, from: source, format: &format, options: options.current)
    }

    /// Decodes `type` from `source`; `root` decodes the top value (``PlistValueDecoder/unwrap(_:)``,
    /// or a body fixed where the call is compiled), and `streams` says whether a top-level
    /// array may be streamed.
    func decode<T: Decodable>(
        _ type: T.Type, from source: SourceText, format: inout PlistParser.Format, options: Options,
        streams: Bool = true, root decodeRoot: (PlistValueDecoder) throws -> T = { try $0.unwrap(T.self) }
    ) throws -> T {
        guard let detected = PlistParser.format(of: source) else {
            throw Self.unreadable(VettedError(.unknownPlistFormat, at: 0, in: source, message: "not a property list: expected bplist00 or XML"))
        }
        format = detected
        var parser = PlistParser(limits: options.limits)
        parser.duplicateKeys = options.duplicateKeyPolicy
        let context = PlistDecodingContext(options: options, format: detected)
        // A structural error's place: the binary object at its path (XML: path only).
        let locator = parser
        context.engine.locate = { codingPath in
            let path = codingPath.map { (key: $0.stringValue, index: $0.intValue) }
            return locator.offset(of: path, in: source, as: detected).map { ValueLocation(offset: $0, source: source) }
        }
        // An array of values from a binary plist whose top object is an array: each
        // element's tree is read, decoded and dropped in turn, so the document's
        // values are never all alive at once (the memory of Foundation's lazy reader).
        if streams, detected == .binary, let array = T.self as? any PlistArrayDecodable.Type, context.engine.rules(for: T.self) == nil {
            let streamed: PlistParser.Streamed<T>
            // Streamed, the first error in document order ends the read (an element's defect or the
            // input's own, met when its turn comes): nothing is collected.
            context.engine.collectsStructure = false
            defer { context.engine.collectsStructure = true }
            do {
                streamed = try parser.streamingTopArray(source) { count, element in
                    let decoder = PlistValueDecoder(context: context, root: .array([]))
                    let result = Result { () throws -> T in
                        try SameType.cast(try array.decodeStreamed(count: count, from: decoder, element: element), to: T.self)
                    }
                    // A defect of the input is thrown alone, as when it is found before decoding starts.
                    if case .failure(let failure as PlistReadFailure) = result { throw failure }
                    return try context.engine.finish(result)
                }
            } catch let failure as PlistReadFailure {
                throw Self.unreadable(failure.error)
            }
            switch streamed {
            case .streamed(let value): return value
            case .whole(let root): return try decode(T.self, root: root, context: context, decodeRoot)
            }
        }
        let root: PlistValue
        do {
            root = try parser.parse(source, as: detected)
        } catch {
            throw Self.unreadable(error)
        }
        return try decode(T.self, root: root, context: context, decodeRoot)
    }

    private func decode<T: Decodable>(
        _ type: T.Type, root: PlistValue, context: PlistDecodingContext,
        _ decodeRoot: (PlistValueDecoder) throws -> T = { try $0.unwrap(T.self) }
    ) throws -> T {
        let result = Result { () throws -> T in try decodeRoot(PlistValueDecoder(context: context, root: root)) }
        return try context.engine.finish(result)
    }

    /// As PropertyListDecoder: unreadable input is `dataCorrupted`, here with the located error underneath.
    private static func unreadable(_ error: VettedError) -> DecodingError {
        DecodingError.notADocument(error, in: .propertyList)
    }
}
