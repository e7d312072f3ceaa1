#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import VettedCore
import VettedDecoding
import VettedRules

/// A generated type's fields in one dictionary, offered to its generated
/// body in declaration order: what each field's read finds, and what to check
/// when it decodes. Each read does what the keyed container's call of the
/// same name does for `init(from:)`.
struct PlistFieldSource: _VettedDeclarationOrderSource {
    let decoder: PlistValueDecoder
    let table: _VettedFieldTable
    var lookup: PlistEntryLookup
    let scope: RuleScope?
    /// Each field's entry in the rules (-1: none).
    let entries: [Int]
    var offered = 0
    /// With aliases: the key each field came by, for paths; empty otherwise.
    var spelled: [CodingKeys?] = []

    var fieldCount: Int { table.names.count }

    /// A field's structural error, recorded when the call collects them (the body goes on).
    func recover(_ error: any Error) throws { try decoder.context.engine.recover(error) }

    func recorded() -> any Error { RecordedErrors() }

    @inline(__always)
    private func key(_ field: Int) -> CodingKeys {
        if table.hasAliases, let key = spelledKey(field) { return key }
        return table.keys.indices.contains(field) ? table.keys[field] : CodingKeys(stringValue: "")
    }

    /// With aliases, the key the field came by, once it was looked up.
    @inline(never)
    private func spelledKey(_ field: Int) -> CodingKeys? {
        spelled.indices.contains(field) ? spelled[field] : nil
    }

    /// The field's coding path, built only when an error needs it.
    private static func path(_ decoder: PlistValueDecoder, _ key: CodingKeys) -> [any CodingKey] { decoder.codingPath + [key] }

    /// The member of `field`, or `nil` when absent. With aliases, every spelling is
    /// looked up: two of them is `duplicateKey`, and the one found names the field in paths.
    @inline(__always)
    private mutating func member(_ field: Int) throws -> PlistValue? {
        guard table.hasAliases else {
            let name = table.names.indices.contains(field) ? table.names[field] : ""
            return lookup.find(name)
        }
        var found: (spelling: Int, position: Int)?
        for spelling in table.spellings.indices where table.field(ofSpelling: spelling) == field {
            guard let position = lookup.position(of: table.spellings[spelling]) else { continue }
            if let found {
                // Named in document order: the later one is the duplicate.
                let (first, second) = found.position < position ? (found.spelling, spelling) : (spelling, found.spelling)
                throw table.duplicateSpelling(table.spellings[first], table.spellings[second], codingPath: decoder.codingPath)
            }
            found = (spelling, position)
        }
        guard let found, lookup.values.indices.contains(found.position) else { return nil }
        if spelled.indices.contains(field) { spelled[field] = CodingKeys(stringValue: table.spellings[found.spelling]) }
        return lookup.values[found.position]
    }

    /// Before any field is read: no field is present by two spellings. As every decoder
    /// reports it: of each field's spellings present, its first two in document order; of
    /// those pairs, the one whose second comes first, at that second.
    mutating func checkSpellings() throws {
        var byField: [[(spelling: Int, position: Int)]] = Array(repeating: [], count: table.names.count)
        for spelling in table.spellings.indices {
            let field = table.field(ofSpelling: spelling)
            guard byField.indices.contains(field), let position = lookup.position(of: table.spellings[spelling]) else { continue }
            byField[field].append((spelling, position))
        }
        var chosen: (first: Int, second: Int, at: Int)?
        for found in byField where found.count > 1 {
            let sorted = found.sorted { $0.position < $1.position }
            if sorted[1].position < chosen?.at ?? Int.max { chosen = (sorted[0].spelling, sorted[1].spelling, sorted[1].position) }
        }
        guard let chosen, table.spellings.indices.contains(chosen.first), table.spellings.indices.contains(chosen.second) else { return }
        throw table.duplicateSpelling(table.spellings[chosen.first], table.spellings[chosen.second], codingPath: decoder.codingPath)
    }

    /// The member of `field`, or `keyNotFound` as a keyed container says it.
    @inline(__always)
    private mutating func value(_ field: Int) throws -> PlistValue {
        guard let value = try member(field) else { throw missingKey(field) }
        return value
    }

    @inline(never)
    func missingKey(_ field: Int) -> any Error {
        DecodingError.absentKey(key(field), at: decoder.codingPath)
    }

    /// The member of `field` unless it is absent or null: `decodeIfPresent` gives `nil` then, unchecked.
    @inline(__always)
    private mutating func present(_ field: Int) throws -> PlistValue? {
        guard let value = try member(field), !PlistValueDecoder.isNull(value) else { return nil }
        return value
    }

    /// Whether the field's key is absent (`@Default`: the default stands in).
    mutating func isAbsent(_ field: Int) throws -> Bool {
        try member(field) == nil
    }

    func checkDefault<Value>(_ value: Value, _ field: Int) throws {
        guard let scope, entries.indices.contains(field), entries[field] >= 0 else { return }
        try scope.rules.checkDefault(value, entry: entries[field])
    }

    /// Runs the field's rules on its decoded value.
    @inline(__always)
    private func checked<Value>(_ value: Value, _ field: Int) throws -> Value {
        if let scope, entries.indices.contains(field), entries[field] >= 0 {
            try decoder.validate(value, entry: entries[field], key: key(field), in: scope)
        }
        return value
    }

    mutating func read(_ type: String.Type, _ field: Int) throws -> String {
        let value = try value(field)
        let (decoder, key) = (decoder, key(field))
        return try checked(try PlistValueDecoder.string(value, Self.path(decoder, key)), field)
    }

    mutating func read(_ type: Int.Type, _ field: Int) throws -> Int {
        let value = try value(field)
        let (decoder, key) = (decoder, key(field))
        return try checked(try PlistValueDecoder.integer(Int.self, value, Self.path(decoder, key)), field)
    }

    mutating func read(_ type: Bool.Type, _ field: Int) throws -> Bool {
        let value = try value(field)
        let (decoder, key) = (decoder, key(field))
        return try checked(try PlistValueDecoder.bool(value, Self.path(decoder, key)), field)
    }

    mutating func read(_ type: Double.Type, _ field: Int) throws -> Double {
        let value = try value(field)
        let (decoder, key) = (decoder, key(field))
        return try checked(try PlistValueDecoder.double(value, Self.path(decoder, key)), field)
    }

    mutating func read(_ type: Date.Type, _ field: Int) throws -> Date {
        let value = try value(field)
        if case .date(let date) = value { return try checked(date, field) }
        return try checked(try decoder.child(Date.self, value, .key(key(field))), field)
    }

    /// An array, its elements decoded as `Array.init(from:)` would (generated ones by their own code).
    mutating func readValues<Element: Decodable>(_ type: Element.Type, _ field: Int) throws -> [Element] {
        let value = try value(field)
        return try checked(try decoder.child([Element].self, value, .key(key(field))), field)
    }

    /// Any other type: decoded as `init(from:)` would, through the decoder.
    mutating func readValue<T: Decodable>(_ type: T.Type, _ field: Int) throws -> T {
        let value: PlistValue
        if let optional = T.self as? any AbsentOptional.Type {
            // An optional whose type is spelled another way (a type alias): synthesized
            // init(from:) still uses decodeIfPresent for it, and so does this.
            guard let present = try present(field) else { return try Self.absentValue(optional, as: T.self) }
            value = present
        } else {
            value = try self.value(field)
        }
        return try checked(try decoder.child(T.self, value, .key(key(field))), field)
    }

    private static func absentValue<O: AbsentOptional, T>(_ type: O.Type, as: T.Type) throws -> T {
        try SameType.cast(O.absent, to: T.self)
    }

    mutating func readIfPresent(_ type: String.Type, _ field: Int) throws -> String? {
        guard let value = try present(field) else { return nil }
        let (decoder, key) = (decoder, key(field))
        return try checked(try PlistValueDecoder.string(value, Self.path(decoder, key)), field)
    }

    mutating func readIfPresent(_ type: Int.Type, _ field: Int) throws -> Int? {
        guard let value = try present(field) else { return nil }
        let (decoder, key) = (decoder, key(field))
        return try checked(try PlistValueDecoder.integer(Int.self, value, Self.path(decoder, key)), field)
    }

    mutating func readValueIfPresent<T: Decodable>(_ type: T.Type, _ field: Int) throws -> T? {
        guard let value = try present(field) else { return nil }
        return try checked(try decoder.child(T.self, value, .key(key(field))), field)
    }
}

/// Finds a dictionary's members by key, as both the keyed container and
/// generated decoding look them up: Vetted's one key lookup
/// (``SmallKeyTable/find(first:end:start:next:matches:)``), from where the
/// last lookup ended (fields asked for in the order they were written are found
/// at once), its index the dictionary's own (built once per dictionary).
struct PlistEntryLookup {
    let dictionary: PlistDictionary
    /// Where the last lookup ended.
    private var next = 0

    /// `dictionary` has no repeated key: the reader applied the duplicate-key policy.
    init(_ dictionary: PlistDictionary) {
        self.dictionary = dictionary
    }

    var keys: [String] { dictionary.keys }
    var values: [PlistValue] { dictionary.values }

    /// The value of `name`, or `nil`.
    mutating func find(_ name: String) -> PlistValue? {
        guard let position = position(of: name) else { return nil }
        let values = dictionary.values
        return values.indices.contains(position) ? values[position] : nil
    }

    /// Where the entry of `name` is, or `nil`: Vetted's one key lookup, its index the dictionary's own.
    @inline(__always)
    mutating func position(of name: String) -> Int? {
        let keys = dictionary.keys
        // The lookup's first step, before any closure is made: fields asked for in written order.
        if keys.indices.contains(next), keys[next] == name {
            next += 1
            return next - 1
        }
        let found: Int?
        switch SmallKeyTable.find(first: 0, end: keys.count, start: next, next: { $0 + 1 }, matches: { keys[$0] == name }) {
        case .found(let position): found = position
        case .absent: found = nil
        case .tooLarge: found = dictionary.position(of: name)
        }
        guard let found, keys.indices.contains(found) else { return nil }
        next = found + 1
        return found
    }
}

extension PlistValueDecoder {
    /// Decodes a generated type from this decoder's value: what its synthesized
    /// `init(from:)` does through a keyed container, without the container.
    func decodeGenerated<G: _VettedDecodable, T>(_ type: G.Type, as: T.Type, rules: TypeRules) throws -> T {
        let table = G.__vettedFields
        let entries = rules.fieldEntries(of: table.names)
        let engine = context.engine
        return try engine.run(rules, path: { codingPath }) { scope in
            guard case .dictionary(let dictionary) = value else {
                throw mismatch([String: Any].self, expected: "Dictionary<String, Any>", value, codingPath)
            }
            // init(from:) asks for every field: the rules' declaration check sees the same.
            if scope.isTracking { for name in table.names { engine.asked(name, in: scope) } }
            var fields = PlistFieldSource(decoder: self, table: table, lookup: PlistEntryLookup(dictionary), scope: scope, entries: entries)
            if table.hasAliases {
                fields.spelled = Array(repeating: nil, count: table.names.count)
                try fields.checkSpellings()
            }
            return try SameType.cast(try G(__vetted: &fields), to: T.self)
        }
    }

    /// A field's rules on its decoded value, once the rules' entry for the field is known
    /// (generated decoding knows it; `init(from:)` looks it up): the engine's one
    /// field-rule loop, with the field's path (a value has no offsets).
    @inline(__always)
    func validate<Value, Key: CodingKey>(_ decoded: Value, entry: Int, key: Key, in scope: RuleScope) throws {
        try context.engine.validate(
            decoded, entry: entry, name: { key.stringValue }, in: scope, path: { codingPath + [key] }, location: { nil })
    }
}
