// Foundation, not only FoundationEssentials: the `formatted` strategy takes a DateFormatter.
public import Foundation
@_spi(Scanning) public import VettedCore
// The rules, their errors and modes are part of this module's API.
@_exported public import VettedRules
import VettedDecoding

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
    // `@unchecked Sendable`: every option lives in `options`, read and written
    // under its lock; the class has no other stored state. (Subclasses must
    // keep to that.)

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

    /// Every option, read and written under one lock: one decoder may be
    /// shared by tasks, as Foundation's may. A decode call reads them once.
    /// (User info, limits, the duplicate-key policy, the validation mode and the
    /// message provider are the options every Vetted decoder shares: `shared`.)
    struct Options: DecoderOptions {
        var shared = DecodingOptions()
        var dateDecodingStrategy: DateDecodingStrategy = .deferredToDate
        var dataDecodingStrategy: DataDecodingStrategy = .base64
        var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys
        var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy = .throw
        var directDecoding = true
        /// Bumped by every change: a decode plan made under other options is not used.
        var generation = 0
    }

    let options = Locked(Options())
    /// Each type's decode plan, made on its first decode under the options of `generation`.
    /// Bounded by the program's types (never by input); one lookup per call.
    private let plans = Locked<[ObjectIdentifier: CachedPlan]>([:])

    /// Changes options; plans made under the old ones are no longer used.
    private func setOptions(_ body: (inout Options) -> Void) {
        options.update { options in
            body(&options)
            options.generation &+= 1
        }
    }

    /// The plan for `T` under `options`, made once per type and options.
    func plan<T>(for type: T.Type, options: Options) -> DecodePlan {
        let key = ObjectIdentifier(T.self)
        if let cached = plans.current[key], cached.generation == options.generation { return cached.plan }
        let plan = DecodePlan.of(T.self, options: options)
        plans.update { $0[key] = CachedPlan(generation: options.generation, plan: plan) }
        return plan
    }

    open var dateDecodingStrategy: DateDecodingStrategy {
        get { options.current.dateDecodingStrategy }
        set { setOptions { $0.dateDecodingStrategy = newValue } }
    }
    open var dataDecodingStrategy: DataDecodingStrategy {
        get { options.current.dataDecodingStrategy }
        set { setOptions { $0.dataDecodingStrategy = newValue } }
    }
    open var keyDecodingStrategy: KeyDecodingStrategy {
        get { options.current.keyDecodingStrategy }
        set { setOptions { $0.keyDecodingStrategy = newValue } }
    }
    open var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy {
        get { options.current.nonConformingFloatDecodingStrategy }
        set { setOptions { $0.nonConformingFloatDecodingStrategy = newValue } }
    }
    open var userInfo: [CodingUserInfoKey: any Sendable] {
        get { options.current.userInfo }
        set { setOptions { $0.userInfo = newValue } }
    }
    /// Limits for the parser.
    open var limits: Limits {
        get { options.current.limits }
        set { setOptions { $0.limits = newValue } }
    }
    /// Duplicate keys: rejected by default (JSONDecoder silently keeps one).
    open var duplicateKeyPolicy: JSONParser.DuplicateKeyPolicy {
        get { options.current.duplicateKeyPolicy }
        set { setOptions { $0.duplicateKeyPolicy = newValue } }
    }
    open var validationMode: ValidationMode {
        get { options.current.validationMode }
        set { setOptions { $0.validationMode = newValue } }
    }
    /// The app's wording of rule violations (code and parameters in, text out), or
    /// `nil` for Vetted's English. Codes, paths and parameters are not changed.
    open var messageProvider: RuleMessageProvider? {
        get { options.current.messageProvider }
        set { setOptions { $0.messageProvider = newValue } }
    }

    /// Whether `@Vetted` types are first decoded straight from the bytes (see
    /// `DirectDecoding.swift`); off, they decode from the tape. For tests that compare the two.
    @_spi(Testing) public var directDecoding: Bool {
        get { options.current.directDecoding }
        set { setOptions { $0.directDecoding = newValue } }
    }

    public init() {}

    /// Whether `data` decodes as `type` straight from the bytes (no fallback to the tape). For tests.
    /// Whether this decoder's plan for `type` tries the bytes first (decided from the type
    /// and the options alone, before any input is read).
    @_spi(Testing) public func plansDirectDecoding<T: Decodable>(_ type: T.Type) -> Bool {
        plan(for: T.self, options: options.current).readsBytes
    }

    @_spi(Testing) public func decodesDirectly<T: Decodable>(_ type: T.Type, from data: Data) -> Bool {
        let options = options.current
        if case .miss = decodeDirectly(type, source: SourceText(data), parser: Self.parser(options), options: options, read: .planned) { return false }
        return true
    }

    /// Decodes `type` from JSON bytes.
    ///
    /// - Throws: `DecodingError` for syntax and structure, with the located `VettedError` as `underlyingError` (`DecodingError.vettedError`); `ValidationErrors` for rule violations; `VettedError` whose code is a rule declaration (`code.isRuleDeclaration`) for a rule declared wrong, in every mode.
    open func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let options = options.current
        return try decode(type, from: SourceText(data), parser: Self.parser(options), options: options)
    }

    /// Decodes `type` from JSON bytes.
    ///
    /// - Throws: `DecodingError` for syntax and structure, with the located `VettedError` as `underlyingError` (`DecodingError.vettedError`); `ValidationErrors` for rule violations; `VettedError` whose code is a rule declaration (`code.isRuleDeclaration`) for a rule declared wrong, in every mode.
    open func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let options = options.current
        return try decode(type, from: SourceText(bytes), parser: Self.parser(options), options: options)
    }

    /// Decodes `type` from bytes parsed under `limits` instead of ``limits`` (the gate's policy
    /// passes its own). The decoder itself is not changed, so it can be shared.
    ///
    /// - Throws: `DecodingError` for syntax and structure, with the located `VettedError` as `underlyingError` (`DecodingError.vettedError`); `ValidationErrors` for rule violations; `VettedError` whose code is a rule declaration (`code.isRuleDeclaration`) for a rule declared wrong, in every mode.
    open func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], limits: Limits) throws -> T {
        var options = options.current
        options.limits = limits
        return try decode(type, from: SourceText(bytes), parser: Self.parser(options), options: options)
    }

    /// Decodes `type` from JSON bytes with `userInfo` added to ``userInfo`` for this call only
    /// (a framework's per-request values); the decoder itself is not changed, so it can be shared.
    ///
    /// - Throws: What ``decode(_:from:)-(_,[UInt8])`` throws.
    open func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], userInfo: [CodingUserInfoKey: any Sendable]) throws -> T {
        var options = options.current
        options.shared = options.shared.adding(userInfo: userInfo)
        return try decode(type, from: SourceText(bytes), parser: Self.parser(options), options: options)
    }

    /// Decodes `type` from a value already in memory: its strings and numbers are
    /// read from the value, with no JSON text written or parsed.
    ///
    /// Of a repeated key the first counts, as ``JSONValue``'s own lookup reads it. The
    /// input limits (``Options/limits``) bound what bytes expand into, so they do not
    /// apply to a value already built; the stack guard and the rules do. Errors carry
    /// the coding path and no offset: a value has no text to point into.
    ///
    /// - Throws: `DecodingError` for structure, with a `VettedError` as `underlyingError` (`DecodingError.vettedError`); `ValidationErrors` for rule violations; `VettedError` whose code is a rule declaration (`code.isRuleDeclaration`) for a rule declared wrong, in every mode.
    open func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        let indexed = IndexedValue(value)
        let source = SourceText(indexed.bytes)
        let document = DecodingDocument(
            source: source, tape: indexed.tape, options: options.current, duplicateKeys: .keepFirst, locatesInSource: false)
        return try decode(type, document: document)
    }

    /// Decodes `type` from `source`: straight from the bytes by `read` when the plan
    /// allows, else (or on a miss) from the tape.
    func decode<T: Decodable>(
        _ type: T.Type, from source: SourceText, parser: JSONParser, options: Options, read: DirectRead<T> = .planned
    ) throws -> T {
        try answer(decodeDirectly(type, source: source, parser: parser, options: options, read: read), source: source, parser: parser, options: options)
    }

    /// Decodes one record of a stream as ``decode(_:from:parser:options:read:)`` decodes a
    /// document, under the stream's plan and by its byte reader (``StreamByteReader``).
    func decodeRecord<T: Decodable>(
        _ type: T.Type, from source: SourceText, parser: JSONParser, options: Options, plan: DecodePlan, stream: inout StreamByteReader
    ) throws -> T {
        try answer(
            decodeDirectly(type, source: source, parser: parser, read: .planned, plan: plan, stream: &stream),
            source: source, parser: parser, options: options)
    }

    /// What the byte reader found, as the call answers it: the value, its errors, or (on a
    /// miss) what the tape path gives for `source`.
    @inline(__always)
    private func answer<T: Decodable>(_ outcome: consuming DirectOutcome<T>, source: SourceText, parser: JSONParser, options: Options) throws -> T {
        // Consumed: the value moves out, with no copy of it (nor of its references) to free.
        switch consume outcome {
        case .value(let value): return value
        case .violations(let errors): throw errors
        case .failure(let error): throw error
        case .miss: return try decodeOnTape(T.self, from: source, parser: parser, options: options)
        }
    }

    /// Decodes `type` from `source` on the tape: what a miss of the byte reader comes to.
    private func decodeOnTape<T: Decodable>(_ type: T.Type, from source: SourceText, parser: JSONParser, options: Options) throws -> T {
        // Parse errors become `DecodingError.dataCorrupted`, as in JSONDecoder,
        // with the located ``VettedError`` as `underlyingError`.
        let tape: JSONTape
        do {
            tape = try parser.tape(source)
        } catch {
            throw Self.notJSON(error)
        }
        return try decode(type, document: DecodingDocument(source: source, tape: tape, options: options, duplicateKeys: parser.options.duplicateKeys))
    }

    /// Decodes `type` from the root of `document`'s tape.
    private func decode<T: Decodable>(_ type: T.Type, document: DecodingDocument) throws -> T {
        defer { document.close() }
        let source = document.source
        // Under `.collect`, generated bodies and arrays record each structural error and go on.
        document.engine.collectsStructure = true
        let result = source.withScanner { scanner in
            document.scanner = scanner
            defer { document.scanner = nil }
            return Result { () throws -> T in try TapeDecoder(document: document, current: 0, path: []).unwrap(type) }
        }
        try document.checkInvariants()
        return try document.engine.finish(result)
    }

    /// A parse error as the decoder throws it: `DecodingError.dataCorrupted`, as in JSONDecoder,
    /// with the located ``VettedError`` as `underlyingError`.
    static func notJSON(_ error: VettedError) -> DecodingError {
        DecodingError.notADocument(error, in: .json)
    }

    static func parser(_ options: Options) -> JSONParser {
        JSONParser(limits: options.limits, options: .init(duplicateKeys: options.duplicateKeyPolicy))
    }
}

