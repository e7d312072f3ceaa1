public import VettedCore

/// An inert JSON value: data only, no behaviour, nothing it can make run.
///
/// Objects keep their members in document order; numbers keep their exact
/// literal (see ``JSONNumber``), so a value read and written back loses nothing.
///
/// `description` prints compact, valid JSON.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

extension JSONValue {
    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number, if this is one.
    public var numberValue: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object, if this is one.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The member named `key`, if this is an object that has one.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The element at `index`, if this is an array and `index` is in range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// A name for the kind of value, for messages: `"null"`, `"bool"`, `"number"`, …
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text.
    public var description: String { JSONWriter(style: .compact).string(self) }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
}

extension JSONValue: Hashable {
    /// Hashes at most a few levels deep: equal values still hash alike, and
    /// hashing can never recurse as deep as the value nests.
    public func hash(into hasher: inout Hasher) {
        hash(into: &hasher, levels: 3)
    }

    func hash(into hasher: inout Hasher, levels: Int) {
        switch self {
        case .null:
            hasher.combine(0)
        case .bool(let flag):
            hasher.combine(1)
            hasher.combine(flag)
        case .number(let number):
            hasher.combine(2)
            hasher.combine(number)
        case .string(let string):
            hasher.combine(3)
            hasher.combine(string)
        case .array(let elements):
            hasher.combine(4)
            hasher.combine(elements.count)
            guard levels > 0 else { return }
            for element in elements { element.hash(into: &hasher, levels: levels - 1) }
        case .object(let object):
            hasher.combine(5)
            object.hash(into: &hasher, levels: levels)
        }
    }
}

extension JSONValue {
    /// Deep equality without recursion: objects compare as in ``JSONObject``
    /// (member order ignored), numbers by literal.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        var pending: [(JSONValue, JSONValue)] = [(lhs, rhs)]
        while let (left, right) = pending.popLast() {
            switch (left, right) {
            case (.null, .null):
                continue
            case (.bool(let a), .bool(let b)):
                guard a == b else { return false }
            case (.number(let a), .number(let b)):
                guard a == b else { return false }
            case (.string(let a), .string(let b)):
                guard a == b else { return false }
            case (.array(let a), .array(let b)):
                guard a.count == b.count else { return false }
                pending.append(contentsOf: zip(a, b))
            case (.object(let a), .object(let b)):
                guard let pairs = a.memberPairs(with: b) else { return false }
                pending.append(contentsOf: pairs)
            default:
                return false
            }
        }
        return true
    }
}

extension JSONValue {
    /// A rule's parameter as JSON: a number, text, a Boolean or an array
    /// (a floating-point value that is not finite as text, since JSON has no such number).
    public init(_ parameter: RuleParameter) {
        switch parameter {
        case .integer(let value): self = .number(JSONNumber(value))
        case .number(let value): self = JSONNumber(value).map(JSONValue.number) ?? .string(String(value))
        case .string(let value): self = .string(value)
        case .bool(let value): self = .bool(value)
        case .list(let values): self = .array(values.map(JSONValue.init))
        }
    }

    /// Parameters by name, as an object with the names in order.
    public init(_ parameters: [String: RuleParameter]) {
        var object = JSONObject()
        for name in parameters.keys.sorted() {
            if let value = parameters[name] { object[name] = JSONValue(value) }
        }
        self = .object(object)
    }
}
