/// One parameter of a rule or of a violation, as a plain value: a bound, a
/// unit, a pattern's source, a list of allowed values.
///
/// Rules describe themselves with these (``VettedError/parameters``), so that a
/// client can act on a violation's bounds and an app can word its own message
/// (see `RuleMessageProvider`), and so that a rule can be written out as a schema.
public enum RuleParameter: Sendable, Hashable, CustomStringConvertible {
    case integer(Int)
    case number(Double)
    case string(String)
    case bool(Bool)
    case list([RuleParameter])

    /// The integer, if this is one.
    public var integer: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The number: an integer or a floating-point value.
    public var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    /// The text, if this is text.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The list, if this is one.
    public var list: [RuleParameter]? {
        if case .list(let value) = self { return value }
        return nil
    }

    /// The value as a person reads it: `5`, `2.5`, `character`, `a, b`.
    public var description: String {
        switch self {
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .string(let value): value
        case .bool(let value): String(value)
        case .list(let values): values.map(\.description).joined(separator: ", ")
        }
    }
}

extension RuleParameter: Codable {
    /// Reads a JSON-like value: a Boolean, an integer, another number, text, or a list of these.
    ///
    /// - Throws: `DecodingError.typeMismatch` for anything else (an object, `null`).
    public init(from decoder: any Decoder) throws {
        if var list = try? decoder.unkeyedContainer() {
            var values: [RuleParameter] = []
            while !list.isAtEnd { values.append(try list.decode(RuleParameter.self)) }
            self = .list(values)
            return
        }
        let single = try decoder.singleValueContainer()
        if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else {
            throw DecodingError.typeMismatch(
                RuleParameter.self, .init(codingPath: decoder.codingPath, debugDescription: "a rule parameter is a Boolean, a number, text or a list"))
        }
    }

    /// Writes the value as itself: a Boolean, a number, text, or a list.
    ///
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .integer(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .list(let values):
            var list = encoder.unkeyedContainer()
            for value in values { try list.encode(value) }
        }
    }
}
