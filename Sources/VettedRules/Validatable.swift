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
/// or null value is not checked).
public struct FieldCheck: Sendable {
    /// One reference, so that the decoder's loops copy a check for one retain.
    private final class Storage: Sendable {
        let key: String
        let body: @Sendable (Any) -> RuleViolation?
        /// The rule itself when it checks a `String` or an `Int`: the decoder
        /// calls it with the value, without boxing it in `Any` and casting back.
        let stringRule: Rule<String>?
        let intRule: Rule<Int>?

        init(key: String, body: @escaping @Sendable (Any) -> RuleViolation?, stringRule: Rule<String>?, intRule: Rule<Int>?) {
            self.key = key
            self.body = body
            self.stringRule = stringRule
            self.intRule = intRule
        }
    }

    private let storage: Storage

    public var key: String { storage.key }

    init(key: String, stringRule: Rule<String>? = nil, intRule: Rule<Int>? = nil, body: @escaping @Sendable (Any) -> RuleViolation?) {
        storage = Storage(key: key, body: body, stringRule: stringRule, intRule: intRule)
    }

    /// Checks `value` if it has the rule's type.
    public func check(_ value: Any) -> RuleViolation? { storage.body(value) }

    /// Checks a `String` value.
    package func check(string value: String) -> RuleViolation? {
        if let rule = storage.stringRule { return rule.check(value) }
        return storage.body(value)
    }

    /// Checks an `Int` value.
    package func check(int value: Int) -> RuleViolation? {
        if let rule = storage.intRule { return rule.check(value) }
        return storage.body(value)
    }
}

/// `Field("name", Rule<String>.length(1...200))`
public func Field<Value: SendableMetatype>(_ key: String, _ rule: Rule<Value>) -> FieldCheck {
    FieldCheck(key: key) { value in
        guard let value = value as? Value else { return nil }
        return rule.check(value)
    }
}

/// `Field("name", Rule<String>.length(1...200))`, which the decoder runs without boxing the value.
public func Field(_ key: String, _ rule: Rule<String>) -> FieldCheck {
    FieldCheck(key: key, stringRule: rule) { value in (value as? String).flatMap(rule.check) }
}

/// `Field("id", Rule<Int>.range(1...100))`, which the decoder runs without boxing the value.
public func Field(_ key: String, _ rule: Rule<Int>) -> FieldCheck {
    FieldCheck(key: key, intRule: rule) { value in (value as? Int).flatMap(rule.check) }
}

/// `Field(CodingKeys.name, Rule<String>.length(1...200))`
public func Field(_ key: some CodingKey, _ rule: Rule<String>) -> FieldCheck { Field(key.stringValue, rule) }

/// `Field(CodingKeys.id, Rule<Int>.range(1...100))`
public func Field(_ key: some CodingKey, _ rule: Rule<Int>) -> FieldCheck { Field(key.stringValue, rule) }

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
    /// the decoder calls it without building a dictionary.
    package let pairBody: (@Sendable (Any, Any) -> RuleViolation?)?

    public init(keys: [String], reportedAt reportedKey: String, _ body: @escaping @Sendable ([String: Any]) -> RuleViolation?) {
        self.keys = keys
        self.reportedKey = reportedKey
        self.body = body
        self.pairBody = nil
    }

    /// A relation of two fields, checked on their values in order.
    package init(_ first: String, _ second: String, reportedAt reportedKey: String, _ pair: @escaping @Sendable (Any, Any) -> RuleViolation?) {
        self.keys = [first, second]
        self.reportedKey = reportedKey
        self.body = { values in
            guard let a = values[first], let b = values[second] else { return nil }
            return pair(a, b)
        }
        self.pairBody = pair
    }

    /// The violation, or `nil` when the relation holds or a field is missing.
    public func check(_ values: [String: Any]) -> RuleViolation? { body(values) }
}

/// `Relation("last_updated", after: "created", as: Date.self)`: the first
/// field is not before the second; reported at the first.
public func Relation<Value: Comparable & SendableMetatype>(_ later: String, after earlier: String, as type: Value.Type) -> RelationCheck {
    Relation(later, earlier, as: type, .relationViolated, "must not be before \(earlier)") { $0 >= $1 }
}

/// A custom relation between two fields of one type, reported at the first.
public func Relation<Value: SendableMetatype>(
    _ first: String, _ second: String, as type: Value.Type, _ code: VettedError.Code, _ message: String,
    _ holds: @escaping @Sendable (Value, Value) -> Bool
) -> RelationCheck {
    RelationCheck(first, second, reportedAt: first) { a, b in
        guard let a = a as? Value, let b = b as? Value else { return nil }
        return holds(a, b) ? nil : RuleViolation(code, message)
    }
}
