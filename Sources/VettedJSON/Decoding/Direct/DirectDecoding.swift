import Foundation
@_spi(Scanning) import VettedCore
import VettedDecoding
import VettedRules

// MARK: - The decoder's side

/// How one call decodes its document, chosen once from the type it asks for:
/// the one place the JSON decoder picks its path.
enum DecodePlan {
    /// A `@Vetted` struct (or an array of them, `isArray`) whose every reachable
    /// field the byte reader reads itself: tried straight from the bytes first
    /// (each type's information made here, once for the call), then the tape on a miss.
    case direct(any _VettedDecodable.Type, isArray: Bool, types: [(type: ObjectIdentifier, info: DirectTypeInfo)])
    /// A `@Vetted(tag:)` union (or an array of them) whose payloads are all for the direct path.
    case directUnion(any _VettedUnion.Type, isArray: Bool, types: [(type: ObjectIdentifier, info: DirectTypeInfo)])
    /// The tape: generated bodies for `@Vetted` structs, `init(from:)` for the rest.
    case tape

    /// The plan for `T` under `options`: at most two conformance lookups and a
    /// walk over the types `T` reaches. The decoder keeps it (``VettedJSONDecoder/plan(for:options:)``)
    /// until an option changes.
    /// Under `convertFromSnakeCase` the reader converts each key with an underscore as the
    /// tape path does, and under `custom` every key (`DirectKeys.swift`); it reads a union whose
    /// tag and content keys the strategy leaves as they are (``DirectTypeInfo/readsUnion(_:keys:)``).
    static func of<T>(_ type: T.Type, options: VettedJSONDecoder.Options) -> DecodePlan {
        guard options.directDecoding else { return .tape }
        let convertsKeys: DirectTypeInfo.Keys
        switch options.keyDecodingStrategy {
        case .useDefaultKeys: convertsKeys = .asWritten
        case .convertFromSnakeCase: convertsKeys = .snakeCase
        case .custom: convertsKeys = .custom
        }
        switch options.dateDecodingStrategy {
        case .custom: return .tape
        case .deferredToDate, .iso8601, .secondsSince1970, .millisecondsSince1970, .formatted: break
        }
        // `Data` is read from the bytes as a base64 string; under the other strategies a type that reaches it is the tape's.
        let readsData: Bool
        switch options.dataDecodingStrategy {
        case .base64: readsData = true
        case .deferredToData, .custom: readsData = false
        }
        let root: any _VettedDecodable.Type
        let isArray: Bool
        if let union = T.self as? any _VettedUnion.Type {
            return unionPlan(union, isArray: false, convertsKeys: convertsKeys, readsData: readsData)
        } else if let array = T.self as? any DirectTopLevelUnionArray.Type {
            return unionPlan(array.unionType, isArray: true, convertsKeys: convertsKeys, readsData: readsData)
        } else if let generated = T.self as? any _VettedDecodable.Type {
            (root, isArray) = (generated, false)
        } else if let array = T.self as? any DirectTopLevelArray.Type {
            (root, isArray) = (array.elementType, true)
        } else {
            return .tape
        }
        guard let types = DirectTypeInfo.reachable(from: [root], convertsKeys: convertsKeys, readsData: readsData) else { return .tape }
        return .direct(root, isArray: isArray, types: types)
    }

    private static func unionPlan(_ union: any _VettedUnion.Type, isArray: Bool, convertsKeys: DirectTypeInfo.Keys, readsData: Bool) -> DecodePlan {
        let table = union.__vettedUnion
        let payloads = table.payloads.compactMap { $0 as? any _VettedDecodable.Type }
        guard DirectTypeInfo.readsUnion(table, keys: convertsKeys), payloads.count == table.payloads.count,
            let types = DirectTypeInfo.reachable(from: payloads, convertsKeys: convertsKeys, readsData: readsData)
        else { return .tape }
        return .directUnion(union, isArray: isArray, types: types)
    }
}

/// A decode plan as a decoder keeps it, with the generation of the options it was made under.
///
/// `@unchecked Sendable`: a plan holds metatypes and ``DirectTypeInfo``s, which are
/// immutable once made (`Sendable` themselves); nothing in it changes after creation.
struct CachedPlan: @unchecked Sendable {
    let generation: Int
    let plan: DecodePlan
}

/// `[U]` for a tagged union `U`.
protocol DirectTopLevelUnionArray {
    static var unionType: any _VettedUnion.Type { get }
}

extension Array: DirectTopLevelUnionArray where Element: _VettedUnion {
    static var unionType: any _VettedUnion.Type { Element.self }
}

/// `[G]` for a generated `G`: a document the direct path reads whole.
protocol DirectTopLevelArray {
    static var elementType: any _VettedDecodable.Type { get }
}

extension Array: DirectTopLevelArray where Element: _VettedDecodable {
    static var elementType: any _VettedDecodable.Type { Element.self }
}

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

extension VettedJSONDecoder {
    /// The document decoded straight from the bytes by `read`: its value, its rule violations,
    /// or a miss (then the tape path decodes it).
    func decodeDirectly<T>(_ type: T.Type, source: SourceText, parser: JSONParser, options: Options, read: DirectRead<T>) -> DirectOutcome<T> {
        var buffers = DirectBuffers()
        return decodeDirectly(
            type, source: source, parser: parser, options: options, read: read, plan: plan(for: T.self, options: options),
            buffers: &buffers)
    }

    /// The document decoded straight from the bytes by `read` under `plan` (made for `T` and
    /// `options`), with the reader's arrays taken from `buffers` and given back there emptied:
    /// a stream's records share one plan and one set of arrays.
    @inline(__always)
    func decodeDirectly<T>(
        _ type: T.Type, source: SourceText, parser: JSONParser, options: Options, read: DirectRead<T>, plan: DecodePlan,
        buffers: inout DirectBuffers
    ) -> DirectOutcome<T> {
        guard source.count <= parser.limits.maxInputBytes else { return .miss }
        let types: [(type: ObjectIdentifier, info: DirectTypeInfo)]
        switch plan {
        case .direct(_, _, let reached), .directUnion(_, _, let reached): types = reached
        case .tape: return .miss
        }
        let document = buffers.document ?? DecodingDocument(directReadingUnder: options, duplicateKeys: parser.options.duplicateKeys)
        document.source = source
        return source.withScanner { scanner -> DirectOutcome<T> in
            document.scanner = scanner
            defer { document.scanner = nil }
            var direct = JSONDirectReader(
                scanner: scanner, source: source, parser: parser, document: document, types: types, buffers: buffers)
            defer { buffers = direct.takeBuffers() }
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
}
