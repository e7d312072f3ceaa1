import Foundation
@_spi(Scanning) import VettedCore
import VettedDecoding
import VettedRules

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
        // A date only a decoder can read (`custom`) is the tape's.
        if case .decoder = options.dateDecodingStrategy.reading { return .tape }
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
