#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import VettedCore

/// What a rule checks, as data: its kind and its parameters, readable without
/// running it. A rule carries one per check it makes (``Rule/descriptors``;
/// `a && b` carries both), so that its checks can be written out as a schema.
///
/// | kind | parameters |
/// |---|---|
/// | `range` | `minimum`, `maximum` (either may be absent: `atLeast`) |
/// | `length` | `unit` (`characters`, `unicodeScalars`, `utf8Bytes`), `minimum`, `maximum` |
/// | `nonBlank`, `nonEmpty`, `unique` | none |
/// | `oneOf` | `allowed` (a list) |
/// | `pattern` | `pattern` (the source, matched whole), `maximumLength` (UTF-8 bytes) |
/// | `count` | `minimum`, `maximum` |
/// | `each` | none; ``element`` holds the element's rules |
/// | `dateWithin` | `notBefore` (ISO 8601), `notAfterNowPlusSeconds` |
/// | `url` | `schemes`, `hosts`, `hostsIncludingSubdomains`, `anyHost`, `maximumLength`, `allowsIPHosts`, `allowsUserInfo` |
/// | `displaySafe` | `allowing` (a list: `tab`, `newlines`, `joiners`) |
///
/// A rule made from a closure says nothing of itself: its kind is
/// ``undescribedKind`` and a schema reports it as not expressible, never
/// guessed. A custom rule may describe itself (``Rule/init(describedAs:_:)``).
public struct RuleDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The rule's kind: a built-in one (see the table) or a custom rule's own name.
    public let kind: String
    /// The rule's parameters by name.
    public let parameters: [String: RuleParameter]
    /// For `each`: the rules every element must pass.
    public let element: [RuleDescriptor]

    public init(_ kind: String, _ parameters: [String: RuleParameter] = [:], element: [RuleDescriptor] = []) {
        self.kind = kind
        self.parameters = parameters
        self.element = element
    }

    /// The kind of a rule that did not describe itself (a closure).
    public static let undescribedKind = "undescribed"
    /// The kind of a rule that cannot work as declared (``Rule/declarationError``).
    public static let misdeclaredKind = "misdeclared"

    /// Whether the rule said what it checks (not ``undescribedKind``, here or in an element's rules).
    public var isDescribed: Bool { kind != Self.undescribedKind && element.allSatisfy(\.isDescribed) }

    public var description: String {
        let parameters = self.parameters.keys.sorted().map { "\($0): \(self.parameters[$0]?.description ?? "")" }
        let element = self.element.isEmpty ? "" : " each(\(self.element.map(\.description).joined(separator: " && ")))"
        return parameters.isEmpty ? kind + element : "\(kind)(\(parameters.joined(separator: ", ")))" + element
    }
}

extension RuleParameter {
    /// A rule's bound as a parameter: integers and floating-point numbers as
    /// numbers, dates in ISO 8601, text as text, anything else as its description.
    package static func bound<Value>(_ value: Value) -> RuleParameter {
        switch value {
        case let value as Int: return .integer(value)
        case let value as any BinaryInteger: return Int(exactly: value).map(RuleParameter.integer) ?? .string(String(describing: value))
        case let value as Double: return .number(value)
        case let value as Float: return .number(Double(value))
        case let value as Date:
            // A date that is not finite has no calendar form: its seconds since 2001 (as `Date` counts).
            guard value.timeIntervalSinceReferenceDate.isFinite else { return .number(value.timeIntervalSinceReferenceDate) }
            return .string(value.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        case let value as String: return .string(value)
        default: return .string(String(describing: value))
        }
    }
}
