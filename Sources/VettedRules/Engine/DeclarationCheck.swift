#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import VettedCore

extension Validation where Root: Validatable & Decodable {
    /// Checks `type`'s rules against its declaration, with no sample data: what
    /// the first decoded value would otherwise find, in a test instead of in
    /// production.
    ///
    /// ```swift
    /// @Test func listingRulesAreDeclaredRight() {
    ///     #expect(Validation.checkDeclarations(of: Listing.self) == [])
    /// }
    /// ```
    ///
    /// It runs `type`'s `init(from:)` once against a decoder that holds every
    /// key and gives each field a stand-in value (zero, empty, an enum's first
    /// case), recording which keys it asks for and as which types; then it
    /// reports, for `type` and every `Validatable` type decoded under it:
    /// - `ruleKeyUnknown`: a rule or relation on a key that is none of the
    ///   type's coding keys (a misspelt key);
    /// - `ruleKeyNotDecoded`: a key the type's `init(from:)` never asks for;
    /// - `ruleTypeMismatch`: a rule of another type than its field (an optional
    ///   field's rules are of its wrapped type);
    /// - a rule that cannot work as written, such as `invalidPattern` (a
    ///   pattern that does not compile).
    ///
    /// Each error's path names the type and key: `$.Listing.price`. A type
    /// whose `init(from:)` cannot run on stand-in values (an enum that is not
    /// `CaseIterable`, a value its own `init` refuses) is checked as far as it
    /// ran, and the rest is reported as `declarationNotChecked`: nothing is
    /// passed silently.
    public static func checkDeclarations(of type: Root.Type) -> [VettedError] {
        let probe = DeclarationProbe()
        probe.run(Root.self)
        return probe.errors()
    }
}

extension VettedError.Code {
    /// ``Validation/checkDeclarations(of:)`` could not run a type's `init(from:)` to its end on
    /// stand-in values: the keys after that point were not checked.
    public static let declarationNotChecked = VettedError.Code("declarationNotChecked")
}

/// A coding key that ``Validation/checkDeclarations(of:)``'s stand-in decoder
/// holds only when this is `false`: a field's other spellings (`@Alias`), so
/// that a generated `init(from:)` that asks for each finds just one. Generated code only.
@_documentation(visibility: private)
public protocol _VettedProbeAbsentKey: CodingKey {
    var __vettedProbeAbsent: Bool { get }
}

/// A coding key that may be another spelling of a field (`@Alias`): a decoder runs the
/// rules declared under ``__vettedFieldName`` on the value found at it, so that a rule holds
/// on every spelling of its field. Generated code only.
@_documentation(visibility: private)
public protocol _VettedFieldSpellingKey: CodingKey {
    /// The field's own key, under which its rules are declared.
    var __vettedFieldName: String { get }
}

extension TypeRules {
    /// Whether keys of type `Key` may spell a field another way (checked once per container).
    package static func spells<Key: CodingKey>(_ type: Key.Type) -> Bool { Key.self is any _VettedFieldSpellingKey.Type }

    /// The name the rules of the field at `key` are declared under: `key`'s string, or the
    /// field's own key when `key` is another spelling of it (`spells` says whether to look).
    @inline(__always)
    package static func fieldName(_ key: any CodingKey, spells: Bool) -> String {
        guard spells, let spelling = key as? any _VettedFieldSpellingKey else { return key.stringValue }
        return spelling.__vettedFieldName
    }
}

/// The `userInfo` key the declaration probe's decoder holds: generated code that
/// would refuse stand-in values (a tagged union's tag) walks its first case instead.
package enum DeclarationProbeKey {
    package static let key = CodingUserInfoKey(rawValue: "vetted.declarationProbe")
}

/// What one dry run of `init(from:)` saw, per `Validatable` type.
package final class DeclarationProbe {
    struct Seen {
        let name: String
        let fields: [(key: String, checks: [FieldCheck])]
        let relationKeys: [String]
        /// Keys asked for, with the type each was decoded as (the wrapped type for `decodeIfPresent`).
        var decoded: [String: Any.Type] = [:]
        var keyTypes: [(name: String, accepts: (String) -> Bool)] = []
        var readAllKeys = false
        var stopped: String?
    }

    private(set) var seen: [ObjectIdentifier: Seen] = [:]
    private var order: [ObjectIdentifier] = []
    /// Declaration errors generated code raised during the run (a default that breaks its
    /// rule, a union's tag key that is a payload field), in the order met, once each.
    private var raised: [VettedError] = []
    /// How deep stand-in values nest (a recursive model stops here).
    static let maximumDepth = 16

    func run<T: Decodable>(_ type: T.Type) {
        _ = try? standIn(T.self, depth: 0)
    }

    /// Registers `V`'s rules the first time it is met; whether it was new.
    private func register<V: Validatable>(_ type: V.Type) -> Bool {
        let id = ObjectIdentifier(V.self)
        guard seen[id] == nil else { return false }
        let validation = V.validation
        seen[id] = Seen(
            name: String(describing: V.self), fields: zip(validation.fieldKeys, validation.fieldChecks).map { ($0, $1) },
            relationKeys: validation.relationKeyList)
        order.append(id)
        return true
    }

    /// A declaration error met while running `init(from:)`: kept once, reported with the others.
    package func raise(_ error: VettedError) {
        guard !raised.contains(where: { $0.code == error.code && $0.path == error.path }) else { return }
        raised.append(error)
    }

    /// A default that stood in for `key` of `owner`: its key counts as decoded, as `type`.
    package func recordDefault(_ owner: Any.Type, key: String, as type: Any.Type) {
        record(ObjectIdentifier(owner), key: key, as: type)
    }

    func record(_ owner: ObjectIdentifier?, key: String, as type: Any.Type) {
        guard let owner, seen[owner] != nil, seen[owner]?.decoded[key] == nil else { return }
        seen[owner]?.decoded[key] = type
    }

    func recordKeyType<Key: CodingKey>(_ owner: ObjectIdentifier?, _ type: Key.Type) {
        guard let owner, let entry = seen[owner], !entry.keyTypes.contains(where: { $0.name == String(describing: Key.self) }) else { return }
        seen[owner]?.keyTypes.append((String(describing: Key.self), { Key(stringValue: $0) != nil }))
    }

    func recordAllKeys(_ owner: ObjectIdentifier?) {
        guard let owner else { return }
        seen[owner]?.readAllKeys = true
    }

    /// A value of `T` made from stand-ins.
    func standIn<T: Decodable>(_ type: T.Type, depth: Int) throws -> T {
        if let value = StandIn.primitive(T.self) { return value }
        var owner: ObjectIdentifier?
        if let validatable = T.self as? any Validatable.Type {
            // Each type is run once: a second value (or a recursive one) adds nothing.
            if register(validatable) {
                owner = ObjectIdentifier(T.self)
            } else if let known = StandIn.known(T.self) {
                return known
            }
        }
        guard depth < Self.maximumDepth else { throw StandIn.Stop(reason: "nesting deeper than \(Self.maximumDepth) levels") }
        do {
            return try T(from: ProbeDecoder(probe: self, owner: owner, depth: depth + 1))
        } catch {
            if let declared = error as? VettedError, declared.code.isRuleDeclaration {
                // The declaration's own defect (a union's tag key that is a payload field): named at the type.
                let name = String(describing: T.self)
                raise(declared.path.components.isEmpty ? VettedError(code: declared.code, path: [.key(name)], message: declared.message) : declared)
            }
            if let owner, seen[owner]?.stopped == nil {
                seen[owner]?.stopped = "its init(from:) stopped on stand-in values (\(error))"
            }
            throw error
        }
    }

    /// The declaration errors, type by type in the order met, each type's in declaration order.
    func errors() -> [VettedError] {
        var errors: [VettedError] = []
        for id in order {
            guard let entry = seen[id] else { continue }
            func path(_ key: String) -> DocumentPath { [.key(entry.name), .key(key)] }
            for (key, checks) in entry.fields {
                for check in checks {
                    if let problem = check.declarationError {
                        errors.append(VettedError(code: problem.code, path: path(key), message: "\(entry.name) has a rule on \"\(key)\" that cannot work: \(problem.message)"))
                    }
                }
                errors += keyErrors(entry, key: key, path: path(key))
                guard let decodedType = entry.decoded[key] else { continue }
                for check in checks where !check.acceptsType(decodedType) {
                    errors.append(
                        VettedError(
                            code: .ruleTypeMismatch, path: path(key),
                            message: "\(entry.name) has a rule of type \(check.valueTypeName) on \"\(key)\", which decodes as \(decodedType)"))
                }
            }
            for key in entry.relationKeys where !entry.fields.contains(where: { $0.key == key }) {
                errors += keyErrors(entry, key: key, path: path(key))
            }
        }
        return raised + errors
    }

    private func keyErrors(_ entry: Seen, key: String, path: DocumentPath) -> [VettedError] {
        guard entry.decoded[key] == nil else { return [] }
        if let stopped = entry.stopped {
            return [VettedError(code: .declarationNotChecked, path: path, message: "\(entry.name)'s rule on \"\(key)\" was not checked: \(stopped)")]
        }
        guard entry.keyTypes.contains(where: { $0.accepts(key) }) else {
            let names = entry.keyTypes.map(\.name)
            let what =
                names.isEmpty
                ? "its init(from:) made no keyed container, so the rule cannot run"
                : "no key of \(names.joined(separator: " or ")) has that string value"
            return [VettedError(code: .ruleKeyUnknown, path: path, message: "\(entry.name) has a rule on \"\(key)\", but \(what)")]
        }
        guard entry.readAllKeys else {
            return [VettedError(code: .ruleKeyNotDecoded, path: path, message: "\(entry.name) has a rule on \"\(key)\", but its init(from:) never looked that key up")]
        }
        return []
    }
}

/// Stand-in values for the dry run.
enum StandIn {
    struct Stop: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    /// Zero, false, empty: the values a decoder reads as primitives.
    static func primitive<T>(_ type: T.Type) -> T? {
        let values: [Any] = [
            false, "", 0 as Int, 0 as Int8, 0 as Int16, 0 as Int32, 0 as Int64, 0 as UInt, 0 as UInt8, 0 as UInt16, 0 as UInt32, 0 as UInt64,
            0 as Double, 0 as Float,
        ]
        for value in values { if let typed = value as? T { return typed } }
        if let cases = T.self as? any CaseIterable.Type { return known(cases) as? T }
        return nil
    }

    /// A value of a type already checked, or an enum's first case.
    static func known<T>(_ type: T.Type) -> T? {
        if let cases = T.self as? any CaseIterable.Type { return firstCase(cases) as? T }
        return nil
    }

    private static func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? { C.allCases.first }
}

/// A decoder that holds every key and answers with stand-ins, recording what is asked.
struct ProbeDecoder: Decoder {
    let probe: DeclarationProbe
    /// The `Validatable` type whose `init(from:)` this is, if it is one being checked.
    let owner: ObjectIdentifier?
    let depth: Int
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { DeclarationProbeKey.key.map { [$0: probe] } ?? [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        probe.recordKeyType(owner, Key.self)
        return KeyedDecodingContainer(ProbeKeyed<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { ProbeUnkeyed(codingPath: codingPath) }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { ProbeSingle(decoder: self) }
}

struct ProbeKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ProbeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] {
        decoder.probe.recordAllKeys(decoder.owner)
        return []
    }

    /// Every key but a field's other spellings (a generated `init(from:)` asks for each, and two would be a duplicate).
    func contains(_ key: Key) -> Bool { !((key as? any _VettedProbeAbsentKey)?.__vettedProbeAbsent ?? false) }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        decoder.probe.record(decoder.owner, key: key.stringValue, as: T.self)
        return try decoder.probe.standIn(T.self, depth: decoder.depth)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try primitive(Bool.self, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try primitive(String.self, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try primitive(Double.self, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try primitive(Float.self, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try primitive(Int.self, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try primitive(Int8.self, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try primitive(Int16.self, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try primitive(Int32.self, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try primitive(Int64.self, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try primitive(UInt.self, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try primitive(UInt8.self, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try primitive(UInt16.self, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try primitive(UInt32.self, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try primitive(UInt64.self, key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(ProbeKeyed<NestedKey>(decoder: ProbeDecoder(probe: decoder.probe, owner: nil, depth: decoder.depth)))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { ProbeUnkeyed(codingPath: codingPath) }
    func superDecoder() throws -> any Decoder { ProbeDecoder(probe: decoder.probe, owner: nil, depth: decoder.depth) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ProbeDecoder(probe: decoder.probe, owner: nil, depth: decoder.depth) }

    /// A primitive: its key and type recorded, a stand-in returned.
    private func primitive<T>(_ type: T.Type, _ key: Key) throws -> T {
        decoder.probe.record(decoder.owner, key: key.stringValue, as: T.self)
        guard let value = StandIn.primitive(T.self) else { throw StandIn.Stop(reason: "no stand-in for \(T.self)") }
        return value
    }
}

/// An empty array: its elements' types are not needed to check the fields' rules.
struct ProbeUnkeyed: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey]
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    mutating func decodeNil() throws -> Bool { true }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw StandIn.Stop(reason: "an empty array has no element") }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw StandIn.Stop(reason: "an empty array has no element")
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { ProbeUnkeyed(codingPath: codingPath) }
    mutating func superDecoder() throws -> any Decoder { throw StandIn.Stop(reason: "an empty array has no element") }
}

struct ProbeSingle: SingleValueDecodingContainer {
    let decoder: ProbeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.probe.standIn(T.self, depth: decoder.depth) }
}
