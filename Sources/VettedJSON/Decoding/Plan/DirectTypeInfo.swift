import Foundation
@_spi(Scanning) import VettedCore
import VettedDecoding
import VettedRules

/// One object being read by generated code.
struct DirectObject {
    let info: DirectTypeInfo
    /// The fields met so far, one bit each.
    var seen: UInt64 = 0
    var members = 0
    /// Where its opening brace is (a missing field's place).
    var openOffset = 0
    /// The field after the last one found: keys usually come in order.
    var hint = 0
    /// Keys that are no field, to find a repeat among them.
    var unknown: [Range<Int>] = []
    /// Which keys in ``unknown`` are escaped, one bit each (at most ``unknownKeyLimit``), and
    /// in ``needsStringBit`` whether one is escaped or not all ASCII: later keys are then
    /// compared with them as Strings.
    var unknownEscaped: UInt64 = 0
    static let needsStringBit: UInt64 = 1 << 63
    var unknownNeedsString: Bool { unknownEscaped & Self.needsStringBit != 0 }
    /// Past ``unknownKeyLimit`` keys that are no field: all of them as Strings, so that an
    /// object of many unknown keys is checked for a repeat in linear time.
    var unknownSet: Set<String>?
    /// With aliases: the spellings met so far, one bit each (the first 64).
    var spellingsSeen: UInt64 = 0
    /// The field being read, the spelling of its key, where its key's quote is and where
    /// its value starts (after the colon): for a violation's path and place.
    var field = -1
    var spelling = 0
    var keyStart = 0
    var valueStart = 0
    /// Where the violations of the object, and of the field being read, start; the runs
    /// of violations of the fields read so far.
    var regionStart = 0
    var fieldStart = 0
    var runs: [ViolationRun] = []
    /// Whether this object is an internally tagged union's (its payload's, or the rest of one
    /// whose tag no case has): closing it ends the union too.
    var closesUnion = false
    /// Where the key of an internally tagged union's tag starts when it is not the first
    /// member (-1: it was, or this is no payload): the payload skips that member.
    var laterTagKey = -1

    static let unknownKeyLimit = SmallKeyTable.linearSearchLimit
}

/// A type's rules as generated decoding reads them: each field's checks by its
/// position in the field table, and the relations by their fields' positions.
final class DirectTypeInfo: Sendable {
    /// No type: the state outside every object.
    static let none = DirectTypeInfo()

    private init() {
        table = _VettedFieldTable([])
        checks = []
        stringRules = []
        intRules = []
        relations = []
    }

    let table: _VettedFieldTable
    let checks: [[FieldCheck]]
    /// A field's rules as `Rule<String>` / `Rule<Int>` when all of them are of that
    /// type: checked with no dispatch (the others go through ``checks``).
    let stringRules: [[Rule<String>]?]
    let intRules: [[Rule<Int>]?]
    let relations: [(first: Int, second: Int, key: String, check: @Sendable (Any, Any) -> CheckOutcome)]

    /// `nil` when the type is not for this path: more than 64 fields, a field of a type the
    /// reader does not read itself (`Data` only under `base64`: `readsData`), or a rule the tape
    /// path must report on (one on a key that is no field, a relation it cannot call on two values).
    init?<G: _VettedDecodable>(_ type: G.Type, readsData: Bool) {
        table = G.__vettedFields
        let names = table.names
        guard names.count <= 64, table.types.count == names.count, table.isArray.count == names.count,
            zip(table.types, table.isArray).allSatisfy({ Self.reads($0, isArray: $1, readsData: readsData) })
        else { return nil }
        guard let rules = TypeRules.of(G.self) else {
            checks = []
            stringRules = []
            intRules = []
            relations = []
            return
        }
        var checks = [[FieldCheck]](repeating: [], count: names.count)
        for entry in rules.entries {
            guard let field = names.firstIndex(of: entry.key) else { return nil }
            checks[field] = entry.checks
        }
        var relations: [(first: Int, second: Int, key: String, check: @Sendable (Any, Any) -> CheckOutcome)] = []
        for relation in rules.relations {
            guard relation.keys.count == 2, let pair = relation.pairBody,
                let first = names.firstIndex(of: relation.keys[0]), let second = names.firstIndex(of: relation.keys[1])
            else { return nil }
            relations.append((first, second, relation.reportedKey, pair))
        }
        self.checks = checks
        func typed<Value>(_ type: Value.Type) -> [[Rule<Value>]?] {
            checks.map { checks in
                let rules = checks.compactMap { $0.rule(of: Value.self) }
                return rules.count == checks.count ? rules : nil
            }
        }
        stringRules = typed(String.self)
        intRules = typed(Int.self)
        self.relations = relations
    }
}

extension _VettedRawValueBytes {
    /// The raw value spelled by the bytes in `range`.
    @inline(__always)
    func index(of range: Range<Int>, in scanner: ByteScanner) -> Int? {
        let bytes = bytes
        for index in bytes.indices {
            let value = bytes[index]
            if value.count == range.count, scanner.bytesEqual(range, value.span) { return index }
        }
        return nil
    }
}

extension _VettedFieldTable {
    /// The spelling (see ``_VettedFieldTable/spellings``) whose bytes are the key's, or `nil`;
    /// `hint` is tried first (the one after the last one found: keys usually come in order).
    @inline(__always)
    func spelling(matching range: Range<Int>, in scanner: ByteScanner, hint: Int) -> Int? {
        let bytes = bytes
        let count = bytes.count
        func spells(_ index: Int) -> Bool {
            let name = bytes[index]
            return name.count == range.count && scanner.bytesEqual(range, name.span)
        }
        if hint < count, spells(hint) { return hint }
        for index in 0..<count where index != hint && spells(index) { return index }
        return nil
    }
}

extension DirectTypeInfo {
    /// Whether the reader reads a field of this type itself (`type`: the wrapped type of an
    /// optional, the element type of an array): exactly the types `JSONDirectReader` has a
    /// `read`, `readIfPresent` or `readArray` of its own for, ``JSONDirectReader/otherScalarTypes``,
    /// and `Data` under the `base64` strategy (`readsData`).
    static func reads(_ type: Any.Type, isArray: Bool, readsData: Bool) -> Bool {
        if type == String.self || type == Int.self || type == Double.self || type == Bool.self { return true }
        if type == Data.self { return readsData }
        if JSONDirectReader.otherScalarTypes.contains(where: { $0 == type }) { return true }
        return type is any _VettedRawValueEnum.Type || type is any _VettedDecodable.Type || type is any _VettedUnion.Type
    }

    /// The information of `root` and of every `@Vetted` struct its fields reach, or `nil`
    /// when one of them is not for this path: the decoder then goes to the tape at once,
    /// without reading a byte here. Walks the types, not the input: each type once.
    ///
    /// A union a field holds is read here when ``readsUnion(_:keys:)`` and every
    /// payload is a `@Vetted` struct (its payloads are walked too).
    static func reachable(
        from roots: [any _VettedDecodable.Type], convertsKeys: Keys = .asWritten, readsData: Bool = true
    ) -> [(type: ObjectIdentifier, info: DirectTypeInfo)]? {
        var found: [(type: ObjectIdentifier, info: DirectTypeInfo)] = []
        var unionsSeen: Set<ObjectIdentifier> = []
        var pending: [any _VettedDecodable.Type] = roots
        while let next = pending.popLast() {
            let id = ObjectIdentifier(next)
            if found.contains(where: { $0.type == id }) { continue }
            guard let info = make(next, readsData: readsData) else { return nil }
            found.append((id, info))
            for type in info.table.types {
                if let nested = type as? any _VettedDecodable.Type {
                    pending.append(nested)
                } else if let union = type as? any _VettedUnion.Type {
                    guard unionsSeen.insert(ObjectIdentifier(union)).inserted else { continue }
                    let table = union.__vettedUnion
                    guard readsUnion(table, keys: convertsKeys) else { return nil }
                    for payload in table.payloads {
                        guard let payload = payload as? any _VettedDecodable.Type else { return nil }
                        pending.append(payload)
                    }
                }
            }
        }
        return found
    }

    private static func make<G: _VettedDecodable>(_ type: G.Type, readsData: Bool) -> DirectTypeInfo? {
        DirectTypeInfo(G.self, readsData: readsData)
    }

    /// How the decoder's key strategy converts a document's keys.
    enum Keys {
        case asWritten, snakeCase, custom
    }

    /// Whether the reader reads a union of this table: one whose declaration works, and under
    /// `convertFromSnakeCase` whose tag and content keys the strategy leaves as they are. The
    /// reader then compares a document's key with them as bytes, which is the tape path's
    /// comparison of the converted key: a key of no underscore converts to itself, and one that
    /// differs from the key's bytes (`"ty_pe"`, or one that converts to it) is a miss. Under a
    /// `custom` strategy, whose closure may convert any key, unions are the tape path's.
    static func readsUnion(_ table: _VettedUnionTable, keys: Keys) -> Bool {
        guard table.isSound else { return false }
        switch keys {
        case .asWritten: return true
        case .snakeCase: return [table.tag, table.content].allSatisfy { key in key.map { SnakeCase.toCamelCase($0) == $0 } ?? true }
        case .custom: return false
        }
    }
}
