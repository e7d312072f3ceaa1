public import VettedCore

/// A type whose values must satisfy rules, declared once and checked by the
/// decoder for every value of the type at any depth.
///
/// ```swift
/// extension Listing: Validatable {
///     static let validation = Validation<Listing> {
///         Field("id", Rule<Int>.range(1...Int(Int32.max)))
///         Field("name", Rule<String>.length(1...200))
///         Relation("last_updated", after: "created", as: Date.self)
///     }
/// }
/// ```
///
/// Keys are the coding keys' string values. A field rule runs as soon as its
/// field has decoded; a relation runs when all the fields it names have
/// decoded, even if other fields failed.
public protocol Validatable {
    static var validation: Validation<Self> { get }
}

/// The rules of one type.
public struct Validation<Root>: Sendable {
    public let fields: [String: [FieldCheck]]
    public let relations: [RelationCheck]
    /// Keys that some relation needs.
    public let relationKeys: Set<String>
    /// ``fields`` as parallel arrays in declaration order: the decoder finds a
    /// field's checks by comparing a few short keys, without hashing.
    package let fieldKeys: [String]
    package let fieldChecks: [[FieldCheck]]
    /// ``relationKeys`` as an array, for the same reason.
    package let relationKeyList: [String]

    public init(@ValidationBuilder _ items: () -> [ValidationItem]) {
        var fields: [String: [FieldCheck]] = [:]
        var relations: [RelationCheck] = []
        var fieldKeys: [String] = []
        var fieldChecks: [[FieldCheck]] = []
        for item in items() {
            switch item {
            case .field(let check):
                fields[check.key, default: []].append(check)
                if let index = fieldKeys.firstIndex(of: check.key) {
                    fieldChecks[index].append(check)
                } else {
                    fieldKeys.append(check.key)
                    fieldChecks.append([check])
                }
            case .relation(let check): relations.append(check)
            }
        }
        self.fields = fields
        self.relations = relations
        self.relationKeys = Set(relations.flatMap(\.keys))
        self.fieldKeys = fieldKeys
        self.fieldChecks = fieldChecks
        var relationKeyList: [String] = []
        for key in relations.flatMap(\.keys) where !relationKeyList.contains(key) { relationKeyList.append(key) }
        self.relationKeyList = relationKeyList
    }
}

public enum ValidationItem: Sendable {
    case field(FieldCheck)
    case relation(RelationCheck)
}

@resultBuilder
public enum ValidationBuilder {
    public static func buildExpression(_ field: FieldCheck) -> [ValidationItem] { [.field(field)] }
    public static func buildExpression(_ relation: RelationCheck) -> [ValidationItem] { [.relation(relation)] }
    public static func buildBlock(_ items: [ValidationItem]...) -> [ValidationItem] { items.flatMap { $0 } }
    public static func buildOptional(_ items: [ValidationItem]?) -> [ValidationItem] { items ?? [] }
    public static func buildEither(first items: [ValidationItem]) -> [ValidationItem] { items }
    public static func buildEither(second items: [ValidationItem]) -> [ValidationItem] { items }
}

/// A rule on one field, by coding key. The rule's value type must be the
/// field's declared type (for an optional field, the wrapped type: a missing
/// or null value is not checked); a decoder that finds another type throws
/// `ruleTypeMismatch`.
public struct FieldCheck: Sendable {
    /// One reference, so that the decoder's loops copy a check for one retain.
    private final class Storage: Sendable {
        let key: String
        /// The rule, which checks a value of its own type without boxing it in `Any`.
        let rule: any TypedRule

        init(key: String, rule: any TypedRule) {
            self.key = key
            self.rule = rule
        }
    }

    private let storage: Storage

    public var key: String { storage.key }

    init<Value>(key: String, rule: Rule<Value>) {
        storage = Storage(key: key, rule: TypedRuleBox(rule: rule))
    }

    /// Checks `value` if it has the rule's type: at no cost of boxing or
    /// casting when its static type is the rule's own (the decoder's case).
    /// `nil` when it passes or is of another type (see ``outcome(_:)``).
    public func check<T>(_ value: T) -> RuleViolation? {
        if case .violated(let violation) = storage.rule.check(value) { return violation }
        return nil
    }

    /// The rule's outcome on `value`, which tells a value of another type from one that passes.
    @usableFromInline package func outcome<T>(_ value: T) -> CheckOutcome { storage.rule.check(value) }

    /// The rule's value type, for messages.
    package var valueTypeName: String { storage.rule.valueTypeName }

    /// Why the rule cannot work as declared, if it cannot (see ``Rule/declarationError``).
    public var declarationError: VettedError? { storage.rule.declarationError }

    /// What the rule checks, as data (see ``Rule/descriptors``).
    public var descriptors: [RuleDescriptor] { storage.rule.descriptors }

    /// Whether a field decoded as `type` is one this rule checks (its own type or a subclass).
    package func acceptsType(_ type: Any.Type) -> Bool { storage.rule.accepts(type) }

    /// The rule itself when its value type is `Value` (a caller that knows the
    /// value's type then checks it with no dispatch through the box).
    package func rule<Value>(of type: Value.Type) -> Rule<Value>? {
        (storage.rule as? TypedRuleBox<Value>)?.rule
    }
}

extension Array where Element == FieldCheck {
    /// Every path's one field-rule loop: each check on `value`, in declared order;
    /// `failed` is given each one that does not pass (a violation, or a rule of
    /// another type than the value's) and throws to stop. The decoders (the
    /// engine's `validate`, a default's check, the byte reader) and a model's
    /// `validate()` differ only in what they do with a failure.
    @inlinable @inline(__always)
    package func forEachFailure<Value, Failure: Error>(
        of value: Value, _ failed: (FieldCheck, CheckOutcome) throws(Failure) -> Void
    ) throws(Failure) {
        for check in self {
            let outcome = check.outcome(value)
            if case .passed = outcome { continue }
            try failed(check, outcome)
        }
    }
}

/// What checking a value found.
@usableFromInline package enum CheckOutcome {
    case passed
    case violated(RuleViolation)
    /// The value is not of the rule's type (nor an optional of it, nor a subclass).
    case wrongType

    /// The violation, if the value broke the rule.
    package var violation: RuleViolation? {
        if case .violated(let violation) = self { return violation }
        return nil
    }
}

/// A rule behind an existential, checked on values of any static type.
protocol TypedRule: Sendable {
    func check<T>(_ value: T) -> CheckOutcome
    var valueTypeName: String { get }
    var declarationError: VettedError? { get }
    var descriptors: [RuleDescriptor] { get }
    func accepts(_ type: Any.Type) -> Bool
}

struct TypedRuleBox<Value>: TypedRule {
    let rule: Rule<Value>

    func check<T>(_ value: T) -> CheckOutcome {
        withValue(value, as: Value.self) { rule.check($0).map(CheckOutcome.violated) ?? .passed }
    }

    var valueTypeName: String { String(describing: Value.self) }
    var declarationError: VettedError? { rule.declarationError }
    var descriptors: [RuleDescriptor] { rule.descriptors }
    func accepts(_ type: Any.Type) -> Bool { type == Value.self || type is Value.Type }
}

/// A value that may be an empty optional, told apart without knowing its wrapped type.
private protocol OptionalValue {
    var isNone: Bool { get }
}

extension Optional: OptionalValue {
    var isNone: Bool { self == nil }
}

/// `value` as `Value`, handed to `body`; `.wrongType` when it is not one (an
/// empty optional is `.passed`: a missing value is not checked).
/// - When `T` is `Value`, the value is passed on as it is: no boxing, no cast.
/// - Otherwise (a subclass, a value boxed in `Any`), a `switch` cast: unlike
///   `as?`, it asks the runtime for no `Value?` metadata, which in generic
///   code is a hash-table lookup on every call.
@inline(__always)
func withValue<T, Value>(_ value: T, as type: Value.Type, _ body: (Value) -> CheckOutcome) -> CheckOutcome {
    do throws(SameType.Mismatch) {
        return body(try SameType.cast(value, to: Value.self))
    } catch {
        switch value {
        case let value as Value: return body(value)
        case let optional as any OptionalValue where optional.isNone: return .passed
        default: return .wrongType
        }
    }
}

/// `Field("name", Rule<String>.length(1...200))`
public func Field<Value: SendableMetatype>(_ key: String, _ rule: Rule<Value>) -> FieldCheck {
    FieldCheck(key: key, rule: rule)
}

/// `Field(CodingKeys.name, Rule<String>.length(1...200))`
public func Field<Value: SendableMetatype>(_ key: some CodingKey, _ rule: Rule<Value>) -> FieldCheck {
    Field(key.stringValue, rule)
}

/// A relation between fields, checked once all of them have decoded.
public struct RelationCheck: Sendable {
    public let keys: [String]
    /// The field the violation is reported at.
    public let reportedKey: String
    let body: @Sendable ([String: Any]) -> RuleViolation?
    /// The same check on the values of ``keys`` in order, when there are two:
    /// the decoder calls it without building a dictionary; it tells values of
    /// another type than the relation's from values that pass.
    package let pairBody: (@Sendable (Any, Any) -> CheckOutcome)?
    /// The type the relation compares, for messages ("Any" for a custom body).
    package let valueTypeName: String
    /// What the relation checks, as data: kind `relation` with the `other` field and the
    /// `direction` (`notBefore`, `notAfter`, or `custom` with its `code`), or
    /// ``RuleDescriptor/undescribedKind`` for a relation made from a closure over the values.
    public let descriptor: RuleDescriptor

    public init(keys: [String], reportedAt reportedKey: String, _ body: @escaping @Sendable ([String: Any]) -> RuleViolation?) {
        self.keys = keys
        self.reportedKey = reportedKey
        self.body = body
        self.pairBody = nil
        self.valueTypeName = "Any"
        self.descriptor = RuleDescriptor(RuleDescriptor.undescribedKind)
    }

    /// A relation of two fields, checked on their values in order.
    package init(
        _ first: String, _ second: String, reportedAt reportedKey: String, valueTypeName: String, descriptor: RuleDescriptor,
        _ pair: @escaping @Sendable (Any, Any) -> CheckOutcome
    ) {
        self.descriptor = descriptor
        self.keys = [first, second]
        self.reportedKey = reportedKey
        self.body = { values in
            guard let a = values[first], let b = values[second] else { return nil }
            if case .violated(let violation) = pair(a, b) { return violation }
            return nil
        }
        self.pairBody = pair
        self.valueTypeName = valueTypeName
    }

    /// The violation, or `nil` when the relation holds or a field is missing.
    public func check(_ values: [String: Any]) -> RuleViolation? { body(values) }

    /// Every path's one relation check: the outcome on the values `value` gives for
    /// ``keys`` (by their position there), or `nil` when one is absent (a relation does
    /// not run on an absent optional). A relation of two fields is called on the two
    /// values; another one on them by key. The decoders and a model's `validate()`
    /// differ only in where they keep the values and what they do with a failure.
    @inline(__always)
    package func outcome(_ value: (Int) -> Any?) -> CheckOutcome? {
        if let pairBody, keys.count == 2 {
            guard let first = value(0), let second = value(1) else { return nil }
            return pairBody(first, second)
        }
        var values: [String: Any] = [:]
        for (position, key) in keys.enumerated() {
            guard let found = value(position) else { return nil }
            values[key] = found
        }
        return body(values).map(CheckOutcome.violated) ?? .passed
    }
}

/// `Relation("last_updated", after: "created", as: Date.self)`: the first
/// field is not before the second; reported at the first.
public func Relation<Value: Comparable & SendableMetatype>(_ later: String, after earlier: String, as type: Value.Type) -> RelationCheck {
    relation(later, earlier, as: type, .relationViolated, "must not be before \(earlier)", direction: "notBefore") { $0 >= $1 }
}

/// `Relation(CodingKeys.lastUpdated, after: CodingKeys.created, as: Date.self)`:
/// the same, named by coding keys (so a misspelt key does not compile).
public func Relation<Value: Comparable & SendableMetatype>(
    _ later: some CodingKey, after earlier: some CodingKey, as type: Value.Type
) -> RelationCheck {
    Relation(later.stringValue, after: earlier.stringValue, as: type)
}

/// A custom relation between two fields of one type, reported at the first.
public func Relation<Value: SendableMetatype>(
    _ first: String, _ second: String, as type: Value.Type, _ code: VettedError.Code, _ message: String,
    _ holds: @escaping @Sendable (Value, Value) -> Bool
) -> RelationCheck {
    relation(first, second, as: type, code, message, direction: "custom", holds)
}

/// A relation between two fields, reported at the first, described by its `direction`
/// (`notBefore`, `notAfter`, or `custom`).
package func relation<Value: SendableMetatype>(
    _ first: String, _ second: String, as type: Value.Type, _ code: VettedError.Code, _ message: String, direction: String,
    _ holds: @escaping @Sendable (Value, Value) -> Bool
) -> RelationCheck {
    var parameters: [String: RuleParameter] = ["other": .string(second), "direction": .string(direction)]
    if direction == "custom" { parameters["code"] = .string(code.rawValue) }
    let found = parameters
    // The values come boxed in `Any` (a generic parameter does not open `Any`), so each takes one `switch` cast.
    return RelationCheck(
        first, second, reportedAt: first, valueTypeName: String(describing: Value.self), descriptor: RuleDescriptor("relation", parameters)
    ) { a, b in
        withValue(a, as: Value.self) { a in
            withValue(b, as: Value.self) { b in holds(a, b) ? .passed : .violated(RuleViolation(code, message, parameters: found)) }
        }
    }
}
