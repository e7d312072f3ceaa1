public import VettedCore

/// A coding key for a document-path component.
public struct PathKey: CodingKey, Sendable {
    public let stringValue: String
    public let intValue: Int?
    public init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }
    public init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
    init(_ component: DocumentPath.Component) {
        switch component {
        case .key(let key): self.init(stringValue: key)
        case .index(let index): self.init(intValue: index)
        }
    }
}

extension DocumentPath {
    /// The document path of a coding path.
    public init(codingPath: [any CodingKey]) {
        self.init(codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) })
    }
}

/// A generated field's coding key (`@Vetted` decoding, in either decoder).
/// Named as synthesized keys are, so that it prints as theirs do in errors
/// (`CodingKeys(stringValue: "id", intValue: nil)`).
package struct CodingKeys: CodingKey, Sendable {
    package let stringValue: String
    package var intValue: Int? { nil }
    package init(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}
