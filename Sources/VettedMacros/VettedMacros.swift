public import Foundation
@_exported public import VettedCore
@_exported public import VettedDecoding
@_exported public import VettedJSON
@_exported public import VettedPlist
@_exported public import VettedRules

/// Declares a `Decodable` struct's (or final class's) rules on its properties
/// and generates its ``VettedModel`` conformance: the `Validatable` rules both
/// decoders check, and ``VettedModel/validate(mode:)`` for values made in code.
///
/// ```swift
/// @Vetted struct Listing: Codable {
///     @Check(.range(1...Int(Int32.max))) var id: Int
///     @Check(.length(1...200), .displaySafe()) var name: String
///     var created: Date
///     @Check(.notBefore(\Listing.created)) var lastUpdated: Date
///     enum CodingKeys: String, CodingKey { case id, name, created, lastUpdated = "last_updated" }
/// }
/// ```
///
/// Each rule is compiled as a `Rule` of its property's declared type (the
/// wrapped type of an optional), so a rule of another type does not compile;
/// a relation's two properties must have the same `Comparable` type. Rules
/// are keyed by the property's coding key (the `CodingKeys` raw value).
///
/// On an enum with `String` or `Int` raw values (no associated values, no
/// `init(from:)` of its own), `@Vetted` adds no rules: it lets both decoders
/// make the cases from the raw values they read, with no decoder per value.
@attached(member, names: named(validation), named(__vettedVisitFields), arbitrary)
@attached(
    extension, conformances: VettedModel, _VettedDecodable, _VettedStringEnum, _VettedIntEnum,
    names: named(__vettedFields), named(init(__vetted:)), named(init(__vettedRawValue:)), named(__vettedArray), named(__vettedReadArray), named(__vettedRawValueBytes),
    named(__vettedCase), named(__vettedRawValues), named(init(from:)))
public macro Vetted() = #externalMacro(module: "VettedMacrosPlugin", type: "VettedMacro")

/// Rules for one property of a ``Vetted()`` type: one or more, each spelled as
/// a `Rule` of the property's type (`.range(1...10)`, `.count(1...10)`,
/// `.unique`, `.each(.oneOf([…]))`, `.length(1...200) && .displaySafe()`), or a
/// relation to another property of the same type and type (`.notBefore(\Listing.created)`,
/// `.notAfter(\Listing.expires)`).
///
/// Outside a `@Vetted` type it is a compile error: a rule that nothing runs.
@attached(peer)
public macro Check(_ rules: CheckRule...) = #externalMacro(module: "VettedMacrosPlugin", type: "CheckMacro")

/// A tagged union: an enum whose cases each carry one ``Vetted()`` struct, told
/// apart by the tag member `tag` of the object. Internally tagged (the payload's
/// members sit beside the tag) unless `content` names the member that holds the
/// payload (adjacently tagged). Each case's tag is its name unless ``Tag(_:)``
/// gives it.
///
/// ```swift
/// @Vetted(tag: "type") enum Event: Codable {
///     case created(ListingCreated)
///     @Tag("listing.sold") case sold(ListingSold)
///     @UnknownTag case other(String)
/// }
/// ```
///
/// A tag no case has is `unknownTag` at the tag's path (listing the known
/// tags), unless one case is ``UnknownTag()``: it then carries the unknown tag
/// (and encodes as the tag alone). An object without the tag is `missingTag`.
/// Each payload's own rules run at their paths; `validate()` checks the
/// payload of a value made in code. Encoding writes the same shapes.
@attached(member, names: named(validation), named(__vettedVisitFields), arbitrary)
@attached(
    extension, conformances: VettedModel, _VettedUnion,
    names: named(__vettedUnion), named(init(from:)), named(encode(to:)), named(init(__vettedUnion:)), named(__vettedReadArray))
public macro Vetted(tag: String, content: String? = nil) = #externalMacro(module: "VettedMacrosPlugin", type: "VettedMacro")

/// The tag that selects a case of a tagged union (``Vetted(tag:content:)``), when it is not the case's name.
@attached(peer)
public macro Tag(_ value: String) = #externalMacro(module: "VettedMacrosPlugin", type: "CaseTagMacro")

/// The case of a tagged union (``Vetted(tag:content:)``) that takes a tag no other case has,
/// carrying that tag: `@UnknownTag case other(String)`. Without one, an unknown tag is `unknownTag`.
@attached(peer)
public macro UnknownTag() = #externalMacro(module: "VettedMacrosPlugin", type: "CaseTagMacro")

/// The value a ``Vetted()`` type's property takes when its key is **absent**
/// from the document. A key that is present with a value of the wrong type,
/// or `null`, is still an error: never the default.
///
/// ```swift
/// @Vetted struct Page: Codable {
///     @Check(.range(1...100)) @Default(20) var limit: Int
/// }
/// ```
///
/// The value is compiled as the property's type, so a default of another type
/// does not compile; a number outside the property's literal `.range` does not
/// either. Any other default the property's rules refuse is the declaration
/// error `defaultBreaksRule` when it first stands in, in every mode. An implicit member needs its type written (`@Default(Color.red)`):
/// the attribute is type-checked before the property's type is known.
/// Not on an optional (an absent key already gives `nil`).
@attached(peer)
public macro Default(_ value: Any) = #externalMacro(module: "VettedMacrosPlugin", type: "ShapeMacro")

/// Other keys a ``Vetted()`` type's property is decoded from, besides its own
/// coding key: `@Alias("productId", "product_id") var id: Int`. One object with
/// two of the spellings is `duplicateKey`, naming both; paths show the spelling
/// the document used. Encoding writes the property's own key.
@attached(peer)
public macro Alias(_ keys: String...) = #externalMacro(module: "VettedMacrosPlugin", type: "ShapeMacro")

/// How a rule is spelled inside `@Check(…)`.
///
/// An attribute's arguments are type-checked before the property's type is
/// known, so `@Check` takes this stand-in, whose members mirror `Rule`'s; it
/// is never evaluated. `@Vetted` writes each argument again as a `Rule` of the
/// property's type, where the compiler checks it for real.
public struct CheckRule: Sendable {
    private init() {}
    private static let spelling = CheckRule()

    // Comparable values
    public static func range<Value: Comparable>(_ range: ClosedRange<Value>) -> CheckRule { spelling }
    public static func range<Value: Comparable>(_ range: PartialRangeFrom<Value>) -> CheckRule { spelling }
    public static func range<Value: Comparable>(_ range: PartialRangeThrough<Value>) -> CheckRule { spelling }
    public static func atLeast<Value: Comparable>(_ minimum: Value) -> CheckRule { spelling }
    public static func atMost<Value: Comparable>(_ maximum: Value) -> CheckRule { spelling }
    // Strings
    public static func length(_ range: ClosedRange<Int>) -> CheckRule { spelling }
    public static func scalarLength(_ range: ClosedRange<Int>) -> CheckRule { spelling }
    public static func utf8Length(_ range: ClosedRange<Int>) -> CheckRule { spelling }
    public static var nonBlank: CheckRule { spelling }
    public static func oneOf(_ allowed: Set<String>) -> CheckRule { spelling }
    public static func pattern(_ source: String, maximumLength: Int = 1_024) -> CheckRule { spelling }
    public static func pattern(_ pattern: LinearPattern, maximumLength: Int = 1_024) -> CheckRule { spelling }
    public static func displaySafe(allowing allowance: DisplayTextAllowance = []) -> CheckRule { spelling }
    public static func url(_ policy: URLPolicy) -> CheckRule { spelling }
    // Collections
    public static var nonEmpty: CheckRule { spelling }
    public static func count(_ range: ClosedRange<Int>) -> CheckRule { spelling }
    public static var unique: CheckRule { spelling }
    public static func each(_ rule: CheckRule) -> CheckRule { spelling }
    // Dates
    public static func within(notBefore earliest: Date, notAfterNowPlus skew: TimeInterval = 300) -> CheckRule { spelling }
    // Your own
    public static func custom<Value>(
        _ code: VettedError.Code, _ message: String, _ holds: @escaping @Sendable (Value) -> Bool
    ) -> CheckRule { spelling }
    public static func custom<Value>(
        _ code: VettedError.Code, _ message: String, describedAs descriptor: RuleDescriptor, _ holds: @escaping @Sendable (Value) -> Bool
    ) -> CheckRule { spelling }
    /// A rule value made elsewhere: `@Check(.rule(Listing.priceRule))`.
    public static func rule<Value>(_ rule: Rule<Value>) -> CheckRule { spelling }
    // Relations to another property of the same type
    /// This property is not before `other` (`>=`); reported at this property.
    public static func notBefore<Root, Value: Comparable>(_ other: KeyPath<Root, Value>) -> CheckRule { spelling }
    /// This property is not after `other` (`<=`); reported at this property.
    public static func notAfter<Root, Value: Comparable>(_ other: KeyPath<Root, Value>) -> CheckRule { spelling }

    public static func && (lhs: CheckRule, rhs: CheckRule) -> CheckRule { spelling }
}

/// What `@Vetted` generates: the type's rules, and a walk over its coded fields
/// for ``validate(mode:)``.
public protocol VettedModel: Validatable {
    /// Hands each coded property to `visitor` with its coding key. Generated.
    @_documentation(visibility: private)
    func __vettedVisitFields(_ visitor: inout _VettedFieldVisitor)
}

extension VettedModel {
    /// Checks a value that Vetted did not decode — made in code, or decoded by
    /// Foundation — against the same rules, with the same codes and paths
    /// (`$.tags[1]`, keyed by coding keys), nested `@Vetted` values included.
    /// Violations carry no byte offsets: there is no document. `messages` words
    /// violations as a decoder's `messageProvider` does.
    ///
    /// - Throws: ``ValidationErrors`` with every violation (or the first, under `.failFast`).
    public func validate(mode: ValidationMode = .collect, messages: RuleMessageProvider? = nil) throws(ValidationErrors) {
        var visitor = _VettedFieldVisitor(mode: mode, messages: messages)
        visitor.descend(self, at: DocumentPath())
        if let errors = visitor.finish() { throw errors }
    }
}

/// Where the field is, generic over nothing: the same relation values, the same violations.
@_documentation(visibility: private)
public struct _VettedFieldVisitor {
    private let mode: ValidationMode
    private let messages: RuleMessageProvider?
    private var errors: [VettedError] = []
    private var omitted = 0
    private var stopped = false
    /// The value being walked: its path, rules and the values its relations need.
    private var path = DocumentPath()
    private var fields: [String: [FieldCheck]] = [:]
    private var relationKeys: Set<String> = []
    private var relationValues: [String: Any] = [:]

    init(mode: ValidationMode, messages: RuleMessageProvider?) {
        self.mode = mode
        self.messages = messages
    }

    /// Called by a tagged union's generated code for its case's payload: checked at the
    /// union's own path (internally tagged) or under `key` (adjacently tagged).
    public mutating func visitPayload(_ value: Any, key: String?) {
        descend(value, at: key.map { DocumentPath(path.components + [.key($0)]) } ?? path)
    }

    /// Called by generated code for each coded property, in declaration order.
    public mutating func visit<Value>(_ value: Value, key: String) {
        guard !stopped else { return }
        let at = DocumentPath(path.components + [.key(key)])
        // As decoding does: what is inside the value (its elements, a nested model's fields)
        // is checked first, then the field's own rules; fail-fast stops at the first violation.
        descend(value, at: at)
        (fields[key] ?? []).forEachFailure(of: value) { check, outcome in
            guard !stopped else { return }
            switch outcome {
            case .passed: break
            case .violated(let violation): record(violation.error(at: at))
            case .wrongType:
                // Never from generated rules (the compiler typed them); a hand-written
                // `validation` can still disagree with its field, and says so.
                record(
                    VettedError(
                        code: .ruleTypeMismatch, path: at,
                        message: "a rule of type \(check.valueTypeName) on \"\(key)\", which holds \(Value.self)"))
            }
        }
        if relationKeys.contains(key), !isNone(value) { relationValues[key] = value }
    }

    /// Walks into `value`: a `@Vetted` value's fields, or the elements of arrays,
    /// sets, dictionaries and optionals that may hold some.
    mutating func descend(_ value: Any, at: DocumentPath) {
        guard !stopped else { return }
        switch value {
        case let model as any VettedModel:
            enter(model, at: at)
        case let container as any VettedContainer where container.mayHoldModels:
            container.forEachElement { component, element in
                descend(element, at: component.map { DocumentPath(at.components + [$0]) } ?? at)
            }
        default:
            break
        }
    }

    private mutating func enter<Model: VettedModel>(_ model: Model, at: DocumentPath) {
        let saved = (path, fields, relationKeys, relationValues)
        let validation = Model.validation
        (path, fields, relationKeys, relationValues) = (at, validation.fields, validation.relationKeys, [:])
        model.__vettedVisitFields(&self)
        for relation in validation.relations where !stopped {
            let keys = relation.keys
            guard let outcome = relation.outcome({ relationValues[keys[$0]] }) else { continue }
            switch outcome {
            case .passed: continue
            case .violated(let violation): record(violation.error(at: DocumentPath(at.components + [.key(relation.reportedKey)])))
            case .wrongType:
                record(
                    VettedError(
                        code: .ruleTypeMismatch, path: DocumentPath(at.components + [.key(relation.reportedKey)]),
                        message: "a relation of type \(relation.valueTypeName) on \(keys.map { "\"\($0)\"" }.joined(separator: ", ")), whose fields hold another type"))
            }
        }
        (path, fields, relationKeys, relationValues) = saved
    }

    private mutating func record(_ error: VettedError) {
        var error = error
        if let messages, let text = messages(error.code, error.parameters) { error.message = text }
        switch mode {
        case .failFast:
            errors.append(error)
            stopped = true
        case .collect(let cap):
            if errors.count < cap { errors.append(error) } else { omitted += 1 }
        }
    }

    func finish() -> ValidationErrors? {
        errors.isEmpty ? nil : ValidationErrors(errors: errors, omitted: omitted)
    }

    private func isNone(_ value: Any) -> Bool {
        if let optional = value as? any VettedContainer, optional.isEmptyOptional { return true }
        return false
    }
}

/// Containers `validate()` looks into: optionals, arrays, sets and dictionaries.
protocol VettedContainer {
    /// Whether an element could be (or hold) a `@Vetted` value.
    var mayHoldModels: Bool { get }
    var isEmptyOptional: Bool { get }
    /// Each element with its step in the path (`nil` for an optional's value: the field's own).
    func forEachElement(_ body: (DocumentPath.Component?, Any) -> Void)
}

private func mayHold(_ type: Any.Type) -> Bool {
    type is any VettedModel.Type || type is any VettedContainer.Type
}

extension Optional: VettedContainer {
    var mayHoldModels: Bool { mayHold(Wrapped.self) }
    var isEmptyOptional: Bool { self == nil }
    func forEachElement(_ body: (DocumentPath.Component?, Any) -> Void) {
        if let value = self { body(nil, value) }
    }
}

extension Array: VettedContainer {
    var mayHoldModels: Bool { mayHold(Element.self) }
    var isEmptyOptional: Bool { false }
    func forEachElement(_ body: (DocumentPath.Component?, Any) -> Void) {
        for (index, element) in enumerated() { body(.index(index), element) }
    }
}

extension Set: VettedContainer {
    var mayHoldModels: Bool { mayHold(Element.self) }
    var isEmptyOptional: Bool { false }
    func forEachElement(_ body: (DocumentPath.Component?, Any) -> Void) {
        for (index, element) in enumerated() { body(.index(index), element) }
    }
}

extension Dictionary: VettedContainer {
    var mayHoldModels: Bool { mayHold(Value.self) }
    var isEmptyOptional: Bool { false }
    func forEachElement(_ body: (DocumentPath.Component?, Any) -> Void) {
        for (key, value) in self {
            // Keys as the decoders write them: a string key by name, an integer key by its digits.
            body(.key(String(describing: key)), value)
        }
    }
}

/// The type two properties compare as, in a relation: both key paths must
/// have it, or the relation does not compile. Called by generated code.
@_documentation(visibility: private)
public func __vettedRelationType<Root, Value: Comparable & SendableMetatype>(
    _ property: KeyPath<Root, Value>, _ other: KeyPath<Root, Value>
) -> Value.Type {
    Value.self
}

/// `other` is not after `property`, for `.notAfter`: a relation whose failure
/// is reported at the first key. Called by generated code.
@_documentation(visibility: private)
public func __vettedRelationNotAfter<Value: Comparable & SendableMetatype>(
    _ key: String, _ other: String, as type: Value.Type
) -> RelationCheck {
    relation(key, other, as: type, .relationViolated, "must not be after \(other)", direction: "notAfter") { $0 <= $1 }
}
