import Foundation
@_spi(Scanning) import VettedCore
import VettedDecoding
import VettedRules

extension JSONDirectReader {
    /// The whole document as `T` (the plan's `root`, or an array of it), or a miss.
    mutating func document<T>(_ type: T.Type, root: any _VettedDecodable.Type, isArray: Bool) throws(_VettedDirectMiss) -> T {
        try finished(isArray ? try many(root, as: T.self) : try one(root, as: T.self))
    }

    /// The whole document as `T` (the plan's union, or an array of it), or a miss.
    mutating func document<T>(_ type: T.Type, union: any _VettedUnion.Type, isArray: Bool) throws(_VettedDirectMiss) -> T {
        try finished(isArray ? try many(union, as: T.self) : try oneUnion(union, as: T.self))
    }

    /// `value`, once nothing but whitespace follows it.
    mutating func finished<T>(_ value: T) throws(_VettedDirectMiss) -> T {
        rootEnd = reader.scannerState.offset
        reader.scannerState.skipWhitespace()
        guard reader.scannerState.isAtEnd else { throw syntaxDoubt() }
        return value
    }

    static func cast<Value, T>(_ value: Value, to: T.Type) throws(_VettedDirectMiss) -> T {
        do { return try SameType.cast(value, to: T.self) } catch { throw _VettedDirectMiss() }
    }

    private mutating func oneUnion<U: _VettedUnion, T>(_ type: U.Type, as: T.Type) throws(_VettedDirectMiss) -> T {
        try Self.cast(try union(U.self), to: T.self)
    }

    private mutating func one<G: _VettedDecodable, T>(_ type: G.Type, as: T.Type) throws(_VettedDirectMiss) -> T {
        try Self.cast(try generated(G.self), to: T.self)
    }

    /// A top-level array of a `@Vetted` struct or union.
    private mutating func many<E: _VettedArrayElement, T>(_ type: E.Type, as: T.Type) throws(_VettedDirectMiss) -> T {
        try Self.cast(try elements(of: E.self), to: T.self)
    }
}

/// How a decode call reads its document straight from the bytes, once its plan says it can.
///
/// Chosen where the call is compiled: `decode(_:from:)` for any `Decodable` reads what the
/// plan names (``DirectRead/planned``); its overloads for `@Vetted` types read their type by
/// a call fixed there (``DirectRead/generated``, ``DirectRead/union``, ``DirectRead/array``),
/// with no cast. Either way the plan gives the types' information, and says whether the
/// options let the bytes be read at all.
struct DirectRead<T> {
    let read: (inout JSONDirectReader, DecodePlan) throws(_VettedDirectMiss) -> T

    /// What the plan names (any `Decodable`; `.tape` is never read here).
    static var planned: DirectRead<T> {
        DirectRead { (reader, plan) throws(_VettedDirectMiss) in
            switch plan {
            case .direct(let root, let isArray, _): return try reader.document(T.self, root: root, isArray: isArray)
            case .directUnion(let union, let isArray, _): return try reader.document(T.self, union: union, isArray: isArray)
            case .tape: throw _VettedDirectMiss()
            }
        }
    }
}

extension DirectRead where T: _VettedDecodable {
    /// A `@Vetted` struct, by its generated body.
    static var generated: DirectRead<T> {
        DirectRead { (reader, _) throws(_VettedDirectMiss) in try reader.finished(try reader.generated(T.self)) }
    }
}

extension DirectRead where T: _VettedUnion {
    /// A `@Vetted(tag:)` union, by its generated body.
    static var union: DirectRead<T> {
        DirectRead { (reader, _) throws(_VettedDirectMiss) in try reader.finished(try reader.union(T.self)) }
    }
}

extension DirectRead {
    /// An array of a `@Vetted` struct or union, read in the element's module.
    static func array<E: _VettedArrayElement>(of element: E.Type) -> DirectRead<[E]> {
        DirectRead<[E]> { (reader, _) throws(_VettedDirectMiss) in try reader.finished(try reader.elements(of: E.self)) }
    }
}

extension DecodePlan {
    /// The types a direct plan reaches, with what the byte reader needs of each (none for the tape).
    var reachedTypes: [(type: ObjectIdentifier, info: DirectTypeInfo)] {
        switch self {
        case .direct(_, _, let reached), .directUnion(_, _, let reached): reached
        case .tape: []
        }
    }

    /// Whether the byte reader reads under this plan.
    var readsBytes: Bool {
        switch self {
        case .direct, .directUnion: true
        case .tape: false
        }
    }
}

extension VettedJSONDecoder {
    /// The document decoded straight from the bytes by `read`: its value, its rule violations,
    /// or a miss (then the tape path decodes it).
    func decodeDirectly<T>(_ type: T.Type, source: SourceText, parser: JSONParser, options: Options, read: DirectRead<T>) -> DirectOutcome<T> {
        let plan = plan(for: T.self, options: options)
        guard source.count <= parser.limits.maxInputBytes, plan.readsBytes else { return .miss }
        let document = DecodingDocument(directReadingUnder: options, duplicateKeys: parser.options.duplicateKeys)
        document.source = source
        return source.withScanner { scanner -> DirectOutcome<T> in
            document.scanner = scanner
            defer { document.scanner = nil }
            var direct = JSONDirectReader(scanner: scanner, source: source, parser: parser, document: document, types: plan.reachedTypes)
            return Self.outcome(of: read, plan: plan, by: &direct)
        }
    }

    /// A stream's record decoded straight from the bytes by `read` under `plan` (the
    /// stream's), by the stream's reader re-armed for it (``StreamByteReader``).
    @inline(__always)
    func decodeDirectly<T>(
        _ type: T.Type, source: SourceText, parser: JSONParser, read: DirectRead<T>, plan: DecodePlan, stream: inout StreamByteReader
    ) -> DirectOutcome<T> {
        guard source.count <= parser.limits.maxInputBytes, plan.readsBytes else { return .miss }
        let document = stream.document
        document.source = source
        return source.withScanner { scanner -> DirectOutcome<T> in
            document.scanner = scanner
            stream.reader.rearm(scanner: scanner, source: source)
            defer {
                document.scanner = nil
                stream.reader.releaseInput()
            }
            return Self.outcome(of: read, plan: plan, by: &stream.reader)
        }
    }

    /// What `direct`, armed for a document, reads of it by `read`: the value, the
    /// violations, the structural failure or syntax error, or a miss.
    @inline(__always)
    static func outcome<T>(of read: DirectRead<T>, plan: DecodePlan, by direct: inout JSONDirectReader) -> DirectOutcome<T> {
        do {
            let value = try read.read(&direct, plan)
            // (Not reached: a value with recorded errors is not made.)
            guard direct.structural.isEmpty else { return .miss }
            if let violations = direct.outcome { return .violations(violations) }
            return .value(value)
        } catch {
            // Under `.collect` the document's value recovers as a field's would (a top-level
            // union's unknown tag, or its adjacently tagged payload's errors).
            // What recovery read is the answer only if it read to the end: bytes it could not
            // read there (an unclosed object) are the parser's to answer, or the tape path's.
            var recorded = JSONDirectReader.miss(error).recorded
            if direct.collects {
                do throws(_VettedDirectMiss) {
                    try direct.recover(error)
                    recorded = true
                } catch {
                    recorded = false
                }
            }
            if recorded, let failure = direct.collectedFailure() { return .failure(failure) }
            if let failure = direct.failureOutcome() { return .failure(failure) }
            if let error = direct.syntaxError() { return .failure(Self.notJSON(error)) }
            return .miss
        }
    }
}
