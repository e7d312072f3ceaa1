import Foundation
@_spi(Scanning) import VettedCore
import VettedDecoding
import VettedRules

extension _VettedFieldTable {
    /// The spelling (see ``_VettedFieldTable/spellings``) of the key entry, or `nil`;
    /// `hint` is tried first (the one after the last one found: keys usually come in order).
    @inline(__always)
    func spelling(of key: JSONTape.Entry, in document: DecodingDocument, hint: Int) -> Int? {
        // Escaped, or not all ASCII on either side: compared as Strings (canonical equivalence).
        guard !key.has(JSONTape.needsDecoding), !key.has(JSONTape.nonASCII), !hasNonASCIIName, let scanner = document.scanner else {
            return spelling(of: document.string(key))
        }
        return spelling(matching: key.first..<Swift.max(key.first, key.payload), in: scanner, hint: hint)
    }
}

/// A generated type's fields in one object of the tape, offered to its
/// generated body in declaration order: where each one's value is, and what
/// to check when it decodes. Each read does what the keyed container's call
/// of the same name does for `init(from:)`.
struct TapeFieldSource: _VettedDeclarationOrderSource {
    let decoder: TapeDecoder
    let table: _VettedFieldTable
    /// Tape index of each field's value, -1 when absent.
    let values: [Int]
    let scope: RuleScope?
    /// Each field's entry in the rules (-1: none), when there are rules.
    let entries: [Int]
    /// The object's depth in the decoder's path.
    let depth: Int
    var offered = 0

    var fieldCount: Int { table.names.count }

    /// A field's structural error, recorded when the call collects them (the body goes on).
    func recover(_ error: any Error) throws { try decoder.engine.recover(error) }

    func recorded() -> any Error { RecordedErrors() }

    /// The value index of `field`, or `keyNotFound` as a keyed container says it.
    @inline(__always)
    private func index(_ field: Int) throws -> Int {
        let index = values.indices.contains(field) ? values[field] : -1
        guard index >= 0 else { throw missingKey(field) }
        return index
    }

    @inline(never)
    func missingKey(_ field: Int) -> any Error {
        DecodingError.absentKey(key(field), at: decoder.codingPath(.depth(depth)))
    }

    private func key(_ field: Int) -> CodingKeys {
        if table.hasAliases { return spelledKey(field) }
        return table.keys.indices.contains(field) ? table.keys[field] : CodingKeys(stringValue: "")
    }

    /// With aliases, the key as the document spells it (the entry before the value).
    @inline(never)
    private func spelledKey(_ field: Int) -> CodingKeys {
        guard values.indices.contains(field), values[field] > 0 else {
            return table.keys.indices.contains(field) ? table.keys[field] : CodingKeys(stringValue: "")
        }
        let document = decoder.document
        return CodingKeys(stringValue: document.string(document.entry(values[field] - 1)))
    }

    /// Whether the field's key is absent (`@Default`: the default stands in).
    func isAbsent(_ field: Int) -> Bool {
        !values.indices.contains(field) || values[field] < 0
    }

    func checkDefault<Value>(_ value: Value, _ field: Int) throws {
        guard let scope, entries.indices.contains(field), entries[field] >= 0 else { return }
        try scope.rules.checkDefault(value, entry: entries[field])
    }

    /// The field's coding path, built only when an error needs it (from values, not from `self`:
    /// an autoclosure that captured `self` would copy the fields on every call).
    private static func path(_ decoder: TapeDecoder, _ depth: Int, _ key: CodingKeys) -> [any CodingKey] {
        decoder.codingPath(.depth(depth)) + [key]
    }

    /// Runs the field's rules on its decoded value.
    @inline(__always)
    private func checked<Value>(_ value: Value, _ field: Int, at index: Int) throws -> Value {
        if let scope, entries.indices.contains(field), entries[field] >= 0 {
            let key = key(field)
            try decoder.validate(value, entry: entries[field], key: key, name: key.stringValue, at: index, scope: scope, base: .depth(depth))
        }
        return value
    }

    /// Whether `field` is absent or null: `decodeIfPresent` gives `nil` then, unchecked.
    @inline(__always)
    private func absent(_ field: Int) -> Int? {
        let index = values.indices.contains(field) ? values[field] : -1
        guard index >= 0, decoder.document.entry(index).kind != .null else { return nil }
        return index
    }

    mutating func read(_ type: String.Type, _ field: Int) throws -> String {
        let index = try index(field)
        let (decoder, depth, key) = (decoder, depth, key(field))
        return try checked(try decoder.string(at: index, Self.path(decoder, depth, key)), field, at: index)
    }

    mutating func read(_ type: Int.Type, _ field: Int) throws -> Int {
        let index = try index(field)
        let (decoder, depth, key) = (decoder, depth, key(field))
        return try checked(try decoder.integer(Int.self, at: index, Self.path(decoder, depth, key)), field, at: index)
    }

    mutating func read(_ type: Bool.Type, _ field: Int) throws -> Bool {
        let index = try index(field)
        let (decoder, depth, key) = (decoder, depth, key(field))
        return try checked(try decoder.bool(at: index, Self.path(decoder, depth, key)), field, at: index)
    }

    mutating func read(_ type: Double.Type, _ field: Int) throws -> Double {
        let index = try index(field)
        let (decoder, depth, key) = (decoder, depth, key(field))
        return try checked(try decoder.double(at: index, Self.path(decoder, depth, key)), field, at: index)
    }

    /// A date by the decoder's date strategy, read in place (under `custom`, by a child decoder).
    mutating func read(_ type: Date.Type, _ field: Int) throws -> Date {
        let index = try index(field)
        let (decoder, depth, key) = (decoder, depth, key(field))
        let date = try decoder.date(at: index, Self.path(decoder, depth, key)) { _ in
            try decoder.child(Date.self, at: index, base: .depth(depth), .key(key))
        }
        return try checked(date, field, at: index)
    }

    /// An array, its elements decoded as `Array.init(from:)` would (generated ones by their own code).
    mutating func readValues<Element: Decodable>(_ type: Element.Type, _ field: Int) throws -> [Element] {
        let index = try index(field)
        let elements = try decoder.elements(Element.self, at: index, base: .depth(depth), .key(key(field)))
        return try checked(elements, field, at: index)
    }

    /// An array of a generated type: ``readValues(_:_:)`` written out, one call less
    /// on the stack for each level of a recursive model.
    mutating func readArray<G: _VettedDecodable>(_ type: G.Type, _ field: Int) throws -> [G] {
        let index = try index(field)
        let elements = try decoder.elements(G.self, at: index, base: .depth(depth), .key(key(field)))
        return try checked(elements, field, at: index)
    }

    /// Any other type: decoded as `init(from:)` would, through the decoder (a
    /// generated type inside goes straight to its own generated code).
    mutating func readValue<T: Decodable>(_ type: T.Type, _ field: Int) throws -> T {
        let info = decoder.document.info(for: T.self)
        let index: Int
        if let optional = info.optional {
            // An optional whose type is spelled another way (a type alias): synthesized
            // init(from:) still uses decodeIfPresent for it, and so does this.
            guard let present = absent(field) else { return try Self.absentValue(optional, as: T.self) }
            index = present
        } else {
            index = try self.index(field)
        }
        let value = try decoder.child(T.self, at: index, base: .depth(depth), .key(key(field)), info: info)
        return try checked(value, field, at: index)
    }

    private static func absentValue<O: AbsentOptional, T>(_ type: O.Type, as: T.Type) throws -> T {
        try SameType.cast(O.absent, to: T.self)
    }

    mutating func readIfPresent(_ type: String.Type, _ field: Int) throws -> String? {
        guard let index = absent(field) else { return nil }
        let (decoder, depth, key) = (decoder, depth, key(field))
        return try checked(try decoder.string(at: index, Self.path(decoder, depth, key)), field, at: index)
    }

    mutating func readIfPresent(_ type: Int.Type, _ field: Int) throws -> Int? {
        guard let index = absent(field) else { return nil }
        let (decoder, depth, key) = (decoder, depth, key(field))
        return try checked(try decoder.integer(Int.self, at: index, Self.path(decoder, depth, key)), field, at: index)
    }

    mutating func readValueIfPresent<T: Decodable>(_ type: T.Type, _ field: Int) throws -> T? {
        guard let index = absent(field) else { return nil }
        let value = try decoder.child(T.self, at: index, base: .depth(depth), .key(key(field)))
        return try checked(value, field, at: index)
    }

    /// An optional field of a generated type: ``readValueIfPresent(_:_:)`` written out,
    /// one call less on the stack for each level of a recursive model.
    mutating func readIfPresent<G: _VettedDecodable>(_ type: G.Type, _ field: Int) throws -> G? {
        guard let index = absent(field) else { return nil }
        let value = try decoder.child(G.self, at: index, base: .depth(depth), .key(key(field)))
        return try checked(value, field, at: index)
    }
}

extension TapeDecoder {
    /// The array at `index`, one `component` below `base`: what `child([Element].self, …)` gives,
    /// without looking the array type up.
    func elements<Element: Decodable>(_ type: Element.Type, at index: Int, base: PathBase, _ component: PathComponent) throws -> [Element] {
        let saved = frame
        frame = Frame(current: index, active: nil)
        defer { frame = saved }
        guard case .depth(let depth) = base, depth == path.count else {
            return try child([Element].self, at: index, base: base, component)
        }
        path.append(component)
        defer { path.removeLast() }
        guard document.stack.hasRoom(atDepth: depth + 1) else { throw tooDeep() }
        return try arrayElements(Element.self)
    }

    /// The members of the object at `object` for a table with aliases: each field's value
    /// (as ``decodeGenerated(_:as:rules:)`` finds them), two spellings of one a duplicate. Apart, so
    /// that the common case's frame stays small (it recurses with the model).
    @inline(never)
    private func aliasedValues(_ table: _VettedFieldTable, object: Int, into values: inout [Int], keepFirst: Bool) throws {
        let document = document
        let entry = document.entry(object)
        var used = [Int](repeating: -1, count: table.names.count)
        var position = object + 1
        var hint = 0
        while position + 1 < entry.payload {
            if let spelling = table.spelling(of: document.entry(position), in: document, hint: hint) {
                let field = table.field(ofSpelling: spelling)
                if values.indices.contains(field), used.indices.contains(field) {
                    if used[field] >= 0, used[field] != spelling {
                        throw table.duplicateSpelling(table.spellings[used[field]], table.spellings[spelling], codingPath: codingPath)
                    }
                    used[field] = spelling
                    if !(keepFirst && values[field] >= 0) { values[field] = position + 1 }
                }
                hint = spelling + 1
            }
            position = document.next(after: position + 1)
        }
    }

    /// Decodes a generated type from the current value: what its synthesized
    /// `init(from:)` does through a keyed container, without the container.
    func decodeGenerated<G: _VettedDecodable, T>(_ type: G.Type, as: T.Type, rules: TypeRules?) throws -> T {
        try expect(.object, at: current, codingPath)
        let table = G.__vettedFields
        var values = [Int](repeating: -1, count: table.names.count)
        let object = current
        let document = document
        let entry = document.entry(object)
        let keepFirst = entry.has(JSONTape.hasDuplicateKeys) && document.duplicateKeys == .keepFirst
        var position = object + 1
        var hint = 0
        if table.hasAliases {
            try aliasedValues(table, object: object, into: &values, keepFirst: keepFirst)
        } else {
            // No aliases: each spelling is its field.
            while position + 1 < entry.payload {
                if let field = table.spelling(of: document.entry(position), in: document, hint: hint) {
                    if !(keepFirst && values[field] >= 0) { values[field] = position + 1 }
                    hint = field + 1
                }
                position = document.next(after: position + 1)
            }
        }
        let depth = path.count
        guard let rules else {
            var fields = TapeFieldSource(decoder: self, table: table, values: values, scope: nil, entries: [], depth: depth)
            return try SameType.cast(try G(__vetted: &fields), to: T.self)
        }
        let entries = rules.fieldEntries(of: table.names)
        return try engine.run(rules, path: { codingPath }) { scope in
            frame.active = scope
            // init(from:) asks for every field: the rules' declaration check sees the same.
            if scope.isTracking { for name in table.names { engine.asked(name, in: scope) } }
            var fields = TapeFieldSource(decoder: self, table: table, values: values, scope: scope, entries: entries, depth: depth)
            return try SameType.cast(try G(__vetted: &fields), to: T.self)
        }
    }
}
