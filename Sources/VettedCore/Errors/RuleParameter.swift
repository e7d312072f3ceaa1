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
