#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import VettedCore
public import VettedRules

// What `@Vetted` expansions name besides the field source: the raw-value enum
// protocols, the field table, and the misses that send a decoder to the path
// that reports every error. Generated code only.

/// An enum with `String` raw values marked `@Vetted`: its `init(from:)` is the
/// standard library's (decode a `String`, then `init(rawValue:)`), so the
/// decoders may read the raw value themselves and build the case with this —
/// with no decoder, for arrays of tags — and fall back to `init(from:)` for
/// anything else (a value of another type, an unknown raw value), which then
/// throws its own error. Generated code only.
@_documentation(visibility: private)
public protocol _VettedStringEnum: _VettedRawValueEnum {
    init(__vettedRawValue rawValue: String) throws(_VettedRawValueMiss)
    /// The raw values' bytes, in the order of ``__vettedCase(_:)``: a decoder
    /// that reads exactly these bytes makes the case without making a `String`.
    static var __vettedRawValueBytes: _VettedRawValueBytes { get }
    /// The case at `index` of ``__vettedRawValueBytes``.
    static func __vettedCase(_ index: Int) -> Self?
}

/// The UTF-8 bytes of a `@Vetted` enum's raw values. Generated code only.
@_documentation(visibility: private)
public final class _VettedRawValueBytes: Sendable {
    /// Empty when two raw values are equal as strings but spelled with other
    /// bytes (canonically equivalent): `init(rawValue:)` alone then says which case it is.
    package let bytes: [[UInt8]]
    /// The raw values, in declaration order (for schemas).
    package let rawValues: [String]

    public init(_ rawValues: [String]) {
        self.rawValues = rawValues
        var distinct = true
        for (index, value) in rawValues.enumerated() {
            for other in rawValues[(index + 1)...] where other == value { distinct = false }
        }
        bytes = distinct ? rawValues.map { Array($0.utf8) } : []
    }
}

/// ``_VettedStringEnum`` for enums with `Int` raw values.
@_documentation(visibility: private)
public protocol _VettedIntEnum: _VettedRawValueEnum {
    init(__vettedRawValue rawValue: Int) throws(_VettedRawValueMiss)
    /// Every case's raw value, in declaration order (for schemas).
    static var __vettedRawValues: [Int] { get }
}

/// What ``_VettedStringEnum`` and ``_VettedIntEnum`` share. Generated code only.
@_documentation(visibility: private)
public protocol _VettedRawValueEnum: _VettedArrayElement {
    /// An array of `count` cases, each made by `element`: built in the enum's
    /// own module, where the array's type is known.
    static func __vettedArray(count: Int, _ element: (Int) throws -> Self) rethrows -> [Self]
}

/// Generated decoding straight from the bytes did not take this input (any
/// doubt: a value, key, rule or limit it does not decide alone): the decoder
/// decodes the input again on the path that reports every error. Never seen by users.
@_documentation(visibility: private)
public struct _VettedDirectMiss: Error {
    /// Not a miss: the value ended after its structural errors were recorded (under
    /// `.collect`), and the object or array that held it goes on with its next member.
    package let recorded: Bool

    public init() { recorded = false }

    package init(recorded: Bool) { self.recorded = recorded }
}

/// No case has that raw value: the decoder falls back to `init(from:)`, which says so.
@_documentation(visibility: private)
public struct _VettedRawValueMiss: Error {
    public init() {}
}

/// The coding keys of a `@Vetted` type's fields, in the order its
/// `init(from:)` would decode them: made once per type, read by both decoders'
/// generated decoding. Generated code only.
///
/// A field may have other spellings (`@Alias`): every spelling is listed in
/// ``spellings``, the fields' own keys first (spelling `i` < `names.count` is
/// field `i`), then each alias with its field in ``spellingField``.
@_documentation(visibility: private)
public final class _VettedFieldTable: Sendable {
    package let keys: [CodingKeys]
    package let names: [String]
    /// Every spelling of a key: ``names``, then the aliases.
    package let spellings: [String]
    /// The field each spelling names.
    package let spellingField: [Int]
    /// Each spelling's UTF-8 bytes, compared with a document's key bytes.
    package let bytes: [[UInt8]]
    /// Whether a spelling is not all ASCII: keys are then matched as Strings (canonical
    /// equivalence), since equal Strings may differ in bytes.
    package let hasNonASCIIName: Bool
    /// Whether some field has another spelling.
    package let hasAliases: Bool

    /// Each field's type as the generated body reads it: the wrapped type of an
    /// optional, the element type of an array (`isArray`), else the field's own.
    /// A decoder decides from these, before reading, whether it reads every field itself.
    package let types: [Any.Type]
    package let isArray: [Bool]
    /// Whether a document must have the field: not an optional, no default.
    package let isRequired: [Bool]
    /// Whether the field is an optional (absent or `null` is `nil`).
    package let isOptional: [Bool]
    /// Each field's other spellings (`@Alias`), in declaration order.
    package let aliases: [[String]]
    /// Each field's `@Default` as JSON text, where it is a literal (`20`, `"new"`, `true`);
    /// `nil` for none or another expression. For schemas; decoding uses the default itself.
    package let defaults: [String?]

    /// `aliases[i]`: the other spellings of field `i` (may be shorter than `names`);
    /// `required` and `optional` are empty when every field is required.
    public init(
        _ names: [String], aliases: [[String]] = [], types: [Any.Type] = [], isArray: [Bool] = [], required: [Bool] = [],
        optional: [Bool] = [], defaults: [String?] = []
    ) {
        self.defaults = defaults
        self.types = types
        self.isArray = isArray
        isRequired = required.isEmpty ? names.map { _ in true } : required
        isOptional = optional.isEmpty ? names.map { _ in false } : optional
        self.aliases = aliases
        self.names = names
        keys = names.map { CodingKeys(stringValue: $0) }
        var spellings = names
        var spellingField = Array(names.indices)
        for (field, others) in aliases.enumerated() where field < names.count {
            for other in others {
                spellings.append(other)
                spellingField.append(field)
            }
        }
        self.spellings = spellings
        self.spellingField = spellingField
        hasAliases = spellings.count > names.count
        bytes = spellings.map { Array($0.utf8) }
        hasNonASCIIName = spellings.contains { $0.utf8.contains { $0 >= 0x80 } }
    }

    /// The spelling `name` is, or `nil` (a linear search: the tables are small and
    /// declared, and the decoders call this only on keys their fast match left undecided).
    package func spelling(of name: String) -> Int? {
        spellings.firstIndex(of: name)
    }

    /// The field a spelling names.
    @inline(__always)
    package func field(ofSpelling spelling: Int) -> Int {
        spellingField.indices.contains(spelling) ? spellingField[spelling] : -1
    }

    /// The error for two spellings of one field in one object: `duplicateKey`, at the
    /// second, naming both (located by the decoder from `codingPath`).
    package func duplicateSpelling(_ first: String, _ second: String, codingPath: [any CodingKey]) -> DecodingError {
        let path = codingPath + [CodingKeys(stringValue: second)]
        return DecodingError.vetted(.duplicateKey, at: path, DecodingTexts.bothSpellOneField(first, second))
    }
}

/// The coding key of a generated `init(from:)` (a type with `@Default` or
/// `@Alias` fields): a key by its string, and the lookups of a field's
/// spellings. Generated code only.
@_documentation(visibility: private)
public struct _VettedKey: CodingKey, _VettedProbeAbsentKey, _VettedFieldSpellingKey, Sendable {
    public let stringValue: String
    public var intValue: Int? { nil }
    /// An alias: the declaration probe, which holds every key, holds only a field's first spelling.
    public let __vettedProbeAbsent: Bool
    /// The field's own key (its first spelling): the decoders run the rules declared under it
    /// on a value found at any spelling.
    public let __vettedFieldName: String

    public init(_ name: String) {
        stringValue = name
        __vettedFieldName = name
        __vettedProbeAbsent = false
    }

    public init?(stringValue: String) { self.init(stringValue) }
    public init?(intValue: Int) { nil }

    /// As a synthesized `CodingKeys` key describes itself, so that a message names a key
    /// the same way whichever of a type's decodings made it.
    public var description: String { CodingKeys(stringValue: stringValue).description }

    private init(alias: String, field: String) {
        stringValue = alias
        __vettedFieldName = field
        __vettedProbeAbsent = true
    }

    private init(spelling: String, field: String) {
        stringValue = spelling
        __vettedFieldName = field
        __vettedProbeAbsent = false
    }

    /// The one spelling of a field present in `container`, or `nil`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` carrying `duplicateKey` when two spellings are present.
    /// With `defaulted`, the declaration probe holds none of them, so that the default stands in.
    public static func present(
        _ spellings: [String], in container: KeyedDecodingContainer<_VettedKey>, defaulted: Bool = false
    ) throws -> _VettedKey? {
        let found = presentKeys(spellings, in: container, defaulted: defaulted)
        if found.count > 1 { throw duplicate(among: [found], in: container) }
        return found.first
    }

    /// Before any field is read: no field of `table` is present by two spellings. Reported as
    /// every decoder reports it, whatever else the object holds: the pair whose second
    /// spelling comes first in the document, at that second spelling.
    ///
    /// - Throws: `DecodingError.dataCorrupted` carrying `duplicateKey`.
    public static func checkSpellings(_ table: _VettedFieldTable, in container: KeyedDecodingContainer<_VettedKey>) throws {
        var repeated: [[_VettedKey]] = []
        for field in table.aliases.indices where !table.aliases[field].isEmpty && table.names.indices.contains(field) {
            let defaulted = table.isRequired.indices.contains(field) && !table.isRequired[field] && !table.isOptional[field]
            let found = presentKeys([table.names[field]] + table.aliases[field], in: container, defaulted: defaulted)
            if found.count > 1 { repeated.append(found) }
        }
        guard !repeated.isEmpty else { return }
        throw duplicate(among: repeated, in: container)
    }

    /// The keys of `spellings` (one field's) that `container` holds, in the order given.
    private static func presentKeys(_ spellings: [String], in container: KeyedDecodingContainer<_VettedKey>, defaulted: Bool) -> [_VettedKey] {
        var found: [_VettedKey] = []
        for (position, spelling) in spellings.enumerated() {
            let key =
                position == 0 && !defaulted
                ? _VettedKey(spelling: spelling, field: spellings[0]) : _VettedKey(alias: spelling, field: spellings[0])
            if container.contains(key) { found.append(key) }
        }
        return found
    }

    /// `duplicateKey` for fields present by two or more spellings each: of each field, its
    /// first two in document order; of those pairs, the one whose second comes first.
    /// (A decoder's `allKeys` in document order; read only here, on the way to this error.)
    private static func duplicate(among fields: [[_VettedKey]], in container: KeyedDecodingContainer<_VettedKey>) -> DecodingError {
        var order: [String: Int] = [:]
        for (position, key) in container.allKeys.enumerated() where order[key.stringValue] == nil { order[key.stringValue] = position }
        var chosen: (first: _VettedKey, second: _VettedKey, at: Int)?
        for keys in fields {
            let sorted = keys.enumerated().sorted { (order[$0.element.stringValue] ?? Int.max, $0.offset) < (order[$1.element.stringValue] ?? Int.max, $1.offset) }
            guard sorted.count > 1 else { continue }
            let at = order[sorted[1].element.stringValue] ?? Int.max
            if chosen == nil || at < chosen?.at ?? Int.max { chosen = (sorted[0].element, sorted[1].element, at) }
        }
        guard let chosen else {
            // Callers pass only fields found by two spellings or more: never reached.
            let error = VettedError(code: .internalInvariantViolated, message: "a duplicate spelling was reported without two spellings")
            return DecodingError.carrying(error, at: container.codingPath)
        }
        let (first, second) = (chosen.first.stringValue, chosen.second)
        let path = container.codingPath + [second]
        return DecodingError.vetted(.duplicateKey, at: path, DecodingTexts.bothSpellOneField(first, second.stringValue))
    }

    /// A `@Default` standing in for an absent `key` of `Owner`: the key's rules run on it
    /// first, so one they refuse is `defaultBreaksRule` here as on every other path. Under
    /// ``Validation/checkDeclarations(of:)`` the error is recorded and the default returned.
    ///
    /// - Throws: `VettedError` with `defaultBreaksRule` (or `ruleTypeMismatch`).
    public static func standIn<Owner: Validatable, Value>(
        _ value: Value, key: String, of owner: Owner.Type, decoder: any Decoder
    ) throws -> Value {
        let rules = TypeRules(Owner.self)
        guard let entry = rules.entryIndex(key) else { return value }
        let probe = DeclarationProbeKey.key.flatMap { decoder.userInfo[$0] as? DeclarationProbe }
        probe?.recordDefault(Owner.self, key: key, as: Value.self)
        do {
            try rules.checkDefault(value, entry: entry)
        } catch let error as VettedError {
            guard let probe else { throw error }
            probe.raise(error)
        }
        return value
    }

    /// A required field none of whose spellings is present: `keyNotFound`, as synthesized decoding says it.
    ///
    /// - Throws: always, `DecodingError.keyNotFound`.
    public static func missing<T>(_ name: String, in container: KeyedDecodingContainer<_VettedKey>) throws -> T {
        throw DecodingError.absentKey(_VettedKey(name), at: container.codingPath, name: name)
    }
}
