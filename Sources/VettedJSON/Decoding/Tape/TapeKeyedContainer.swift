import Foundation
@_spi(Scanning) import VettedCore
import VettedDecoding
import VettedRules

// MARK: Containers

/// A keyed container: a thin generic shell over ``KeyedReader``, so that the
/// work runs in code that is not generic over the key type (no metadata
/// lookups, no copies of the container through value witnesses).
struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let reader: KeyedReader

    init(decoder: TapeDecoder, object: Int, base: PathBase, active: RuleScope?) {
        reader = KeyedReader(decoder: decoder, object: object, base: base, active: active, spells: active != nil && TypeRules.spells(Key.self))
    }

    var codingPath: [any CodingKey] { reader.codingPath }
    /// Keys in document order, the first of any repeated key only.
    var allKeys: [Key] { reader.keyNames.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { reader.find(key.stringValue) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { try reader.decodeNil(key) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try reader.bool(key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try reader.string(key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try reader.double(key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try reader.float(key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try reader.int(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try reader.integer(Int8.self, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try reader.integer(Int16.self, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try reader.integer(Int32.self, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try reader.integer(Int64.self, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try reader.integer(UInt.self, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try reader.integer(UInt8.self, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try reader.integer(UInt16.self, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try reader.integer(UInt32.self, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try reader.integer(UInt64.self, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try reader.decode(T.self, key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let (index, components) = try reader.nested(key, kind: .object, what: "KeyedDecodingContainer<\(NestedKey.self)>")
        return KeyedDecodingContainer(TapeKeyedContainer<NestedKey>(decoder: reader.decoder, object: index, base: .snapshot(components), active: nil))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let (index, components) = try reader.nested(key, kind: .array, what: "UnkeyedDecodingContainer")
        return TapeUnkeyedContainer(decoder: reader.decoder, array: index, base: .snapshot(components))
    }

    func superDecoder() throws -> any Decoder { reader.superDecoder(at: reader.find("super"), .key(PathKey(stringValue: "super"))) }
    func superDecoder(forKey key: Key) throws -> any Decoder { reader.superDecoder(at: reader.find(key.stringValue), .key(key)) }
}

/// The work of a keyed container, on keys as `any CodingKey`. A class: the
/// standard library's container box copies the container for every call,
/// and a copy of one reference is one retain.
final class KeyedReader {
    let decoder: TapeDecoder
    let object: Int
    let base: PathBase
    let active: RuleScope?
    /// Members' keys as the key strategy converts them, with their value indexes
    /// (only with a strategy other than useDefaultKeys).
    let converted: [(key: String, value: Int)]?
    /// ``converted`` by key (the first of a key two members convert to), or the
    /// members the duplicate-key policy kept.
    private let convertedIndex: [String: Int]?
    /// Every member's value index by key, made on the first lookup that scans past
    /// ``SmallKeyTable/linearSearchLimit`` members (``SmallKeyTable/find(first:end:start:next:matches:)``):
    /// so that keys asked for in any order (an `init(from:)` walking `allKeys`
    /// backwards, `contains` of keys that are absent) cost O(n) in all, not O(n²).
    /// Read only by a lookup that has scanned that far: a class's `var` costs an
    /// exclusivity check on every read.
    private var largeIndex: [String: Int]?

    /// Whether lookups are recorded for the rules' declaration check (a type's first value):
    /// a plain Bool, so that the common case reads no `RuleScope` (and retains nothing).
    let tracking: Bool
    /// Whether a key may be another spelling of a field (`@Alias`), whose rules are the field's.
    let spells: Bool

    init(decoder: TapeDecoder, object: Int, base: PathBase, active: RuleScope?, spells: Bool) {
        self.spells = spells
        self.decoder = decoder
        self.object = object
        self.base = base
        self.active = active
        self.tracking = active?.isTracking ?? false
        let document = decoder.document
        switch document.keys {
        case .useDefaultKeys:
            converted = nil
            if document.entry(object).has(JSONTape.hasDuplicateKeys) {
                // Repeated keys kept by the policy: one index of the members kept, not a scan per lookup.
                convertedIndex = Self.index(Self.members(of: object, in: document))
            } else {
                convertedIndex = nil
            }
        default:
            let codingPath = decoder.codingPath(base)
            let members = Self.members(of: object, in: document).map { member in
                (key: Self.convert(member.key, strategy: document.keys, codingPath: codingPath), value: member.value)
            }
            converted = members
            convertedIndex = Self.index(members)
        }
    }

    /// Each key's value index; of a key that repeats, the first.
    private static func index(_ members: [(key: String, value: Int)]) -> [String: Int] {
        var index: [String: Int] = [:]
        index.reserveCapacity(members.count)
        for member in members where index[member.key] == nil { index[member.key] = member.value }
        return index
    }

    /// The members of `object` as (key, value index), in document order; of a
    /// repeated key only the one the duplicate-key policy keeps.
    static func members(of object: Int, in document: DecodingDocument) -> [(key: String, value: Int)] {
        var members: [(key: String, value: Int)] = []
        var position = object + 1
        let objectEntry = document.entry(object)
        while position + 1 < objectEntry.payload {
            members.append((document.string(document.entry(position)), position + 1))
            position = document.next(after: position + 1)
        }
        guard objectEntry.has(JSONTape.hasDuplicateKeys) else { return members }
        var firstIndex: [String: Int] = [:]
        var kept: [(key: String, value: Int)] = []
        for member in members {
            if let index = firstIndex[member.key] {
                if document.duplicateKeys == .keepLast { kept[index].value = member.value }
            } else {
                firstIndex[member.key] = kept.count
                kept.append(member)
            }
        }
        return kept
    }

    static func convert(_ key: String, strategy: VettedJSONDecoder.KeyDecodingStrategy, codingPath: [any CodingKey]) -> String {
        switch strategy {
        case .useDefaultKeys: return key
        case .convertFromSnakeCase: return SnakeCase.toCamelCase(key)
        case .custom(let convert): return convert(codingPath + [PathKey(stringValue: key)]).stringValue
        }
    }

    var codingPath: [any CodingKey] { decoder.codingPath(base) }

    /// Member keys in document order, each once.
    var keyNames: [String] {
        if tracking, let active { decoder.engine.readAllKeys(in: active) }
        var seen = Set<String>()
        return (converted ?? Self.members(of: object, in: decoder.document)).compactMap { seen.insert($0.key).inserted ? $0.key : nil }
    }

    /// The tape index of the value of `name`, or `nil`. Every lookup of a key
    /// comes here, so the rules learn which keys `init(from:)` asks for.
    func find(_ name: String) -> Int? {
        let document = decoder.document
        if tracking, let active { decoder.engine.asked(name, in: active) }
        if let convertedIndex { return found(convertedIndex[name], document) }
        // Keys sit at the positions `first`, `next(after: key + 1)`, …; a key's value follows it.
        let first = object + 1
        let hint = decoder.hint
        var nameIsASCII: Bool?
        switch SmallKeyTable.find(
            first: first, end: document.entry(object).payload - 1, start: hint.object == object ? hint.next : first,
            next: { document.next(after: $0 + 1) },
            matches: { document.keyEquals(document.entry($0), name, keyIsASCII: &nameIsASCII) })
        {
        case .found(let key): return found(key + 1, document)
        case .absent: return nil
        case .tooLarge: return found(largeIndex(document)[name], document)
        }
    }

    /// ``largeIndex``, made on its first use.
    private func largeIndex(_ document: DecodingDocument) -> [String: Int] {
        if let largeIndex { return largeIndex }
        let built = Self.index(Self.members(of: object, in: document))
        largeIndex = built
        return built
    }

    /// `value` (a value index, or `nil`), with the hint set after it for the next lookup.
    @inline(__always)
    private func found(_ value: Int?, _ document: DecodingDocument) -> Int? {
        if let value { decoder.hint = (object, document.next(after: value)) }
        return value
    }

    /// The value index of `key`, whose string value is `name`.
    private func member(_ key: any CodingKey, _ name: String) throws -> Int {
        guard let index = find(name) else {
            throw DecodingError.absentKey(key, at: codingPath)
        }
        return index
    }

    func decodeNil(_ key: any CodingKey) throws -> Bool { decoder.document.entry(try member(key, key.stringValue)).kind == .null }

    /// Decodes the member `key` with `body` (given its tape index and a lazily
    /// built path), then checks the field's rules.
    @inline(__always)
    private func decodeValue<T>(_ key: any CodingKey, _ body: (Int, @autoclosure () -> [any CodingKey]) throws -> T) throws -> T {
        let name = key.stringValue
        let index = try member(key, name)
        let value = try body(index, codingPath + [key])
        if let active { try decoder.validate(value, key: key, name: TypeRules.fieldName(key, spells: spells), at: index, scope: active, base: base) }
        return value
    }

    func bool(_ key: any CodingKey) throws -> Bool { try decodeValue(key) { try decoder.bool(at: $0, $1()) } }
    func string(_ key: any CodingKey) throws -> String { try decodeValue(key) { try decoder.string(at: $0, $1()) } }
    func double(_ key: any CodingKey) throws -> Double { try decodeValue(key) { try decoder.double(at: $0, $1()) } }
    func float(_ key: any CodingKey) throws -> Float { try decodeValue(key) { try decoder.float(at: $0, $1()) } }
    func int(_ key: any CodingKey) throws -> Int { try decodeValue(key) { try decoder.integer(Int.self, at: $0, $1()) } }
    func integer<I: FixedWidthInteger>(_ type: I.Type, _ key: any CodingKey) throws -> I {
        try decodeValue(key) { try decoder.integer(I.self, at: $0, $1()) }
    }
    func decode<T: Decodable>(_ type: T.Type, _ key: any CodingKey) throws -> T {
        // Written out rather than through `decodeValue`: generic closures there cost an allocation per value.
        let name = key.stringValue
        let index = try member(key, name)
        let value = try decoder.child(T.self, at: index, base: base, .key(key))
        if let active { try decoder.validate(value, key: key, name: TypeRules.fieldName(key, spells: spells), at: index, scope: active, base: base) }
        return value
    }

    /// The index and path of the member `key`, which must be a container of `kind`.
    func nested(_ key: any CodingKey, kind: JSONTape.Kind, what: String) throws -> (Int, [PathComponent]) {
        guard let index = find(key.stringValue) else {
            throw DecodingError.absentContainer(what, forKey: key, at: codingPath)
        }
        let components = decoder.components(base) + [.key(key)]
        try decoder.expect(kind, at: index, components.map(\.codingKey))
        return (index, components)
    }

    /// A decoder of its own for the value at `index` (a missing value decodes as null).
    func superDecoder(at index: Int?, _ component: PathComponent) -> any Decoder {
        TapeDecoder(document: decoder.document, current: index ?? TapeDecoder.nullIndex, path: decoder.components(base) + [component])
    }
}
